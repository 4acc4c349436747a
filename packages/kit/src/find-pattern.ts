import { TesseraError } from '@tessera/protocol'
import { RE2JS } from 're2js'

/** Characters of a pattern an agent may give: a search, not a program. */
const PATTERN_CHARS = 500

/** `\k<name>` after an even run of backslashes: in a pattern with named groups (or the u flag), a backreference. */
const NAMED_BACKREFERENCE = /(?<!\\)(?:\\\\)*(\\k<[^>]*>)/
/** A named group, not a lookbehind. */
const NAMED_GROUP = /(?<!\\)\(\?<(?![=!])/

/** Where a pattern first matched a text: its UTF-16 index and the words it matched. */
export interface PatternMatch {
  readonly index: number
  readonly text: string
}

/**
 * An agent's regular expression, run by RE2's linear-time engine: the hub runs it in its own
 * thread over page texts of megabytes and terminal output, where JavaScript's backtracking
 * engine can take exponential time on a pattern as plain as `^(a|aa)*b` and stop every tile.
 */
export class AgentPattern {
  readonly #compiled: RE2JS
  readonly #native: RegExp
  readonly #argument: string
  #byLines: AgentPattern | undefined

  /** `native` is the JavaScript form of the pattern, already parsed; `lines` sets ^ and $ at each line's ends. */
  constructor(
    /** The pattern as the agent wrote it. */
    readonly given: string,
    native: RegExp,
    argument: string,
    lines: boolean,
  ) {
    this.#native = native
    this.#argument = argument
    const refused = (why: string): TesseraError =>
      new TesseraError('invalid_input', `expected "${argument}" to be a regular expression that runs in time linear in the text it reads (no lookahead or backreference; a lookbehind without a capturing group), found ${JSON.stringify(given)}: ${why}`, {
        expected: 'a regular expression in the syntax RE2 runs: no lookahead, no backreference',
        found: given,
      })
    // A named backreference RE2's translation would read as the letters `k<name>`: refused, as a numbered one is.
    const named = NAMED_BACKREFERENCE.exec(native.source)
    if (named !== null && (native.unicode || NAMED_GROUP.test(native.source))) throw refused(`invalid escape sequence: \`${named[1]}\``)
    try {
      this.#compiled = RE2JS.compile(RE2JS.translateRegExp(native), RE2JS.LOOKBEHINDS | (lines ? RE2JS.MULTILINE : 0))
    } catch (error) {
      throw refused((error as Error).message.replace(/^error parsing regexp: /, ''))
    }
  }

  /** Whether it matches anywhere in `text`. */
  test(text: string): boolean {
    return this.#compiled.test(text)
  }

  /** Its first match in `text`, if any. */
  firstMatch(text: string): PatternMatch | undefined {
    const matcher = this.#compiled.matcher(text)
    return matcher.find() ? { index: matcher.start(), text: matcher.group() ?? '' } : undefined
  }

  /** The same pattern as it runs on a text of many lines (a block of code, a log): `^` and `$` mark the ends of any of its lines, as in a search through a file. */
  byLines(): AgentPattern {
    if (this.#native.multiline) return this
    // Compiled once: a find asks for it for every text it looks through.
    this.#byLines ??= new AgentPattern(this.given, new RegExp(this.#native.source, `${this.#native.flags}m`), this.#argument, true)
    return this.#byLines
  }
}

/**
 * An agent's regular expression, as Playwright MCP's tools take one: `error` (case-sensitive)
 * or, where `slashesGiveFlags` (its find; not its URL filter, where `/api/` is a path),
 * `/error/i` with flags; global and sticky flags mean nothing to a test and are dropped.
 * Written in JavaScript's syntax and refused, with a typed error, where RE2 cannot run it in
 * linear time (a lookahead, a backreference).
 */
export function agentPattern(text: string, argument: string, slashesGiveFlags = true, maxChars = PATTERN_CHARS): AgentPattern {
  const slashed = slashesGiveFlags ? /^\/(.+)\/([a-z]*)$/s.exec(text) : null
  const source = slashed === null ? text : (slashed[1] as string)
  const flags = slashed === null ? '' : (slashed[2] as string).replace(/[gy]/g, '')
  const found = { expected: 'a regular expression', found: text }
  if (text.length > maxChars) throw new TesseraError('invalid_input', `expected "${argument}" to be a regular expression of at most ${maxChars} characters, found ${text.length}`, found)
  let native: RegExp
  try {
    native = new RegExp(source, flags)
  } catch (error) {
    throw new TesseraError('invalid_input', `expected "${argument}" to be a regular expression, found ${JSON.stringify(text)}: ${(error as Error).message}`, found)
  }
  return new AgentPattern(text, native, argument, native.multiline)
}

/** A text as a find's pattern reads it: runs of white space one space, its line breaks kept (a pattern's ^ and $ mark its lines' ends). */
export function byLineWords(text: string): string {
  return text.replace(/[^\S\n]+/g, ' ').replace(/ *\n */g, '\n').trim()
}
