/** The pure-JS X11 client ships no types; x-display.ts describes the little of it that it uses. */
declare module 'x11' {
  const x11: unknown
  export default x11
}
