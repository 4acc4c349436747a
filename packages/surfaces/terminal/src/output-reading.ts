import { TesseraError } from '@tessera/protocol'
import type { OutputLog } from './output-log.js'
import type { Pattern } from './pattern.js'
import type { Screen } from './screen.js'

export interface OutputMatch {
  match: string
  /** Log offset just past the match (for a match on the screen: the end of the log). */
  end: number
}

/** An offset from a caller, or where the previous read or wait ended (`cursor`). */
export function resolveSince(since: number | 'last' | undefined, cursor: number): number {
  if (since === undefined || since === 'last') return cursor
  if (typeof since !== 'number' || !Number.isInteger(since) || since < 0) {
    throw new TesseraError('invalid_input', `expected since to be a non-negative integer offset or "last", found ${JSON.stringify(since)}`, {
      expected: 'non-negative integer or "last"',
      found: since,
    })
  }
  return since
}

/**
 * The pattern in the output log from `from` on. Anything that fully matched before `scanned`
 * was found last time, so only text that can reach new output is searched again.
 */
export function findInLog(log: OutputLog, pattern: Pattern, from: number, scanned: number): OutputMatch | null {
  const start = Math.max(from, log.start, scanned - pattern.overlap)
  const slice = log.read(start)
  const hit = pattern.find(slice.text)
  return hit === null ? null : { match: hit.match, end: slice.offset + hit.end }
}

/** The pattern on the visible screen (a full-screen program redraws rather than appends). */
export function findOnScreen(screen: Screen, log: OutputLog, pattern: Pattern): OutputMatch | null {
  const hit = pattern.find(screen.lines().join('\n'))
  return hit === null ? null : { match: hit.match, end: log.end }
}
