import { x11 } from './x11-module.js'

const table = x11.keySyms

/** Modifier words as parseChords writes them, as the keysyms pressed for them. */
export const MODIFIER_KEYSYMS: Readonly<Record<string, number>> = { ctrl: 0xffe3, shift: 0xffe1, alt: 0xffe9, super: 0xffeb }

/** An X key name (`Return`, `F5`, `a`) or one character as its keysym; undefined for a name X does not have. */
export function keysymOf(name: string): number | undefined {
  const named = table[`XK_${name}`]?.code
  if (named !== undefined) return named
  if (name === 'plus') return 0x2b
  const chars = [...name]
  if (chars.length !== 1) return undefined
  const code = name.codePointAt(0) as number
  // Latin-1 keysyms are their code points; the rest of Unicode is 0x01000000 + the code point.
  return code < 0x100 ? code : 0x01000000 + code
}

/** A character as the keysym that types it (a newline is Return). */
export function keysymOfChar(char: string): number {
  if (char === '\n') return 0xff0d
  if (char === '\t') return 0xff09
  return keysymOf(char) as number
}
