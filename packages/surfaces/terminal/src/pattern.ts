import { agentPattern } from '@tessera/kit'
import { TesseraError } from '@tessera/protocol'

export interface PatternHit {
  match: string
  /** Index just past the match in the searched text. */
  end: number
}

export interface Pattern {
  find(text: string): PatternHit | null
  /**
   * How far before already-searched text a new match can start. A regex match is assumed
   * to span at most this much text that was searched before (64 KiB).
   */
  readonly overlap: number
}

const MAX_PATTERN = 1000
const REGEX_OVERLAP = 64 * 1024

/** Plain text, or `/regex/flags` (flags i, m, s, u; see agentPattern). */
export function compilePattern(source: unknown): Pattern {
  if (typeof source !== 'string' || source.length === 0 || source.length > MAX_PATTERN) {
    throw new TesseraError('invalid_input', `expected pattern to be a string of 1–${MAX_PATTERN} characters`, {
      expected: `string of 1–${MAX_PATTERN} characters`,
      found: typeof source === 'string' ? `${source.length} characters` : typeof source,
    })
  }
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(source)
  if (literal === null) {
    return {
      overlap: source.length,
      find(text) {
        const index = text.indexOf(source)
        return index === -1 ? null : { match: source, end: index + source.length }
      },
    }
  }
  const flags = literal[2] as string
  const bad = flags.replace(/[imsu]/g, '')
  if (bad.length > 0) {
    throw new TesseraError('invalid_input', `unsupported regex flags "${bad}" in ${source}; use i, m, s or u`, { expected: 'flags from imsu', found: flags })
  }
  // Run by a linear-time engine: the output it waits on is the shell's, and can be whatever a program printed.
  const regex = agentPattern(source, 'pattern', true, MAX_PATTERN)
  return {
    overlap: REGEX_OVERLAP,
    find(text) {
      const hit = regex.firstMatch(text)
      return hit === undefined ? null : { match: hit.text, end: hit.index + hit.text.length }
    },
  }
}
