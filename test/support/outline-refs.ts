/** Reading refs out of an outline (a page's, an app's), as an agent does, for the tests. */

/** The @ref of the first line with `role "name"` (or `role` alone when name is undefined). */
export function refOf(text: string, role: string, name?: string): string {
  const wanted = name === undefined ? `${role} ` : `${role} ${JSON.stringify(name)}`
  for (const line of text.split('\n')) {
    const at = line.indexOf(wanted)
    if (at < 0) continue
    const ref = /@([n1-9][0-9a-z.]*)/.exec(line.slice(at))?.[1]
    if (ref !== undefined) return ref
  }
  throw new Error(`no ${wanted} with a ref in:\n${text}`)
}

/** The @ref of the first `role` on the line that says `words`, or on the line after it (a label above its field). */
export function refNear(text: string, words: string, role: string): string {
  const lines = text.split('\n')
  const at = lines.findIndex((line) => line.includes(words))
  for (const line of lines.slice(at, at + 2)) {
    const ref = new RegExp(`${role}[^@]*@([n1-9][0-9a-z.]*)`).exec(line)?.[1]
    if (at >= 0 && ref !== undefined) return ref
  }
  throw new Error(`no ${role} at "${words}" in:\n${text}`)
}

/** The page's words an error is about (the options a list offers, a banner's words), read from the fence right after its `error [code]:` line. */
export function wordsBelow(text: string): string[] {
  const fenced = /^error \[\w+\]: .*\n--- page ([0-9a-f]{6}) \(untrusted\) ---\n([^]*?)\n--- end \1 ---$/m.exec(text)
  if (fenced === null) throw new Error(`no page words fenced after an error in:\n${text}`)
  return (fenced[2] as string).split('\n').map((line) => JSON.parse(line) as string)
}
