import { TesseraError } from '@tessera/protocol'
import safeRegex from 'safe-regex2'

/** Characters of a pattern an agent may give: a search, not a program. */
const PATTERN_CHARS = 500

/**
 * An agent's regular expression, as Playwright MCP's tools take one: `error` (case-sensitive)
 * or, where `slashesGiveFlags` (its find; not its URL filter, where `/api/` is a path),
 * `/error/i` with flags; never global or sticky, so a test does not remember where the
 * last one stopped. One whose backtracking can grow exponentially (`(a+)+$`) is refused: it
 * runs in the hub's own thread, where a page text of a few hundred characters would stop
 * every tile.
 */
export function agentPattern(text: string, argument: string, slashesGiveFlags = true): RegExp {
  const slashed = slashesGiveFlags ? /^\/(.+)\/([a-z]*)$/s.exec(text) : null
  const source = slashed === null ? text : (slashed[1] as string)
  const flags = slashed === null ? '' : (slashed[2] as string).replace(/[gy]/g, '')
  const found = { expected: 'a regular expression', found: text }
  if (text.length > PATTERN_CHARS) throw new TesseraError('invalid_input', `expected "${argument}" to be a regular expression of at most ${PATTERN_CHARS} characters, found ${text.length}`, found)
  let pattern: RegExp
  try {
    pattern = new RegExp(source, flags)
  } catch (error) {
    throw new TesseraError('invalid_input', `expected "${argument}" to be a regular expression, found ${JSON.stringify(text)}: ${(error as Error).message}`, found)
  }
  if (!safeRegex(checkedForm(pattern))) throw new TesseraError('invalid_input', `expected "${argument}" to be a regular expression without nested repetition, found ${JSON.stringify(text)}, which can take exponential time`, { expected: 'a regular expression without nested repetition such as (a+)+', found: text })
  return pattern
}

/**
 * The pattern as its safety is checked: safe-regex2 cannot read a lookbehind and calls any
 * pattern with one unsafe (`(?<!a)b`); what repeats inside it repeats as in a plain group.
 */
function checkedForm(pattern: RegExp): RegExp {
  const source = pattern.source.replace(/(?<!\\)\(\?<[!=]/g, '(?:')
  try {
    return new RegExp(source, pattern.flags)
  } catch {
    return pattern
  }
}

/** A text as a find's pattern reads it: runs of white space one space, its line breaks kept (a pattern's ^ and $ mark its lines' ends). */
export function byLineWords(text: string): string {
  return text.replace(/[^\S\n]+/g, ' ').replace(/ *\n */g, '\n').trim()
}

/** A find's pattern as it runs on a text of many lines (a block of code, a log): `^` and `$` mark the ends of any of its lines, as in a search through a file. */
export function byLines(pattern: RegExp): RegExp {
  return pattern.flags.includes('m') ? pattern : new RegExp(pattern.source, `${pattern.flags}m`)
}
