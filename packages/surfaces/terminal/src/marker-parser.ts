export type Segment = { text: string } | { marker: string }

/** Longest marker payload we wait for; anything longer is a program's output that merely looks like one. */
const MAX_MARKER = 8192

/**
 * Splits the PTY stream into text and shell-integration markers. A marker can arrive split
 * across reads, so an unfinished one is held back until its terminator arrives.
 */
export class MarkerParser {
  readonly #intro: string
  #held = ''

  constructor(intro: string) {
    this.#intro = intro
  }

  push(chunk: string): Segment[] {
    const input = this.#held + chunk
    this.#held = ''
    const out: Segment[] = []
    let pos = 0
    while (pos < input.length) {
      const start = input.indexOf(this.#intro, pos)
      if (start === -1) {
        const keep = this.#partialIntroAt(input, pos)
        if (keep > pos) out.push({ text: input.slice(pos, keep) })
        this.#held = input.slice(keep)
        break
      }
      if (start > pos) out.push({ text: input.slice(pos, start) })
      const end = input.indexOf('\x07', start + this.#intro.length)
      if (end === -1) {
        if (input.length - start > MAX_MARKER) {
          out.push({ text: input.slice(start) })
        } else {
          this.#held = input.slice(start)
        }
        break
      }
      out.push({ marker: input.slice(start + this.#intro.length, end) })
      pos = end + 1
    }
    return merge(out)
  }

  /** Index where a possible beginning of a marker starts at the end of `input`; input.length when none. */
  #partialIntroAt(input: string, from: number): number {
    const last = input.lastIndexOf('\x1b')
    if (last < from) return input.length
    const tail = input.slice(last)
    return tail.length < this.#intro.length && this.#intro.startsWith(tail) ? last : input.length
  }
}

function merge(segments: Segment[]): Segment[] {
  const out: Segment[] = []
  for (const segment of segments) {
    const prev = out[out.length - 1]
    if ('text' in segment && prev !== undefined && 'text' in prev) prev.text += segment.text
    else out.push(segment)
  }
  return out
}
