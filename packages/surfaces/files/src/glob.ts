import { TesseraError } from '@tessera/protocol'

/**
 * A glob matcher that cannot backtrack catastrophically.
 *
 * picomatch compiles `*a*a*a*b` to a regular expression with lazy `[^/]*?` groups, and V8
 * backtracks through it in polynomial time: against one 60-character file name that
 * pattern took 5.5 s (six stars) and 190 s (eight), blocking the hub's event loop. Agents
 * choose the pattern and anyone who can create files chooses the names, so find cannot
 * hand both to a backtracking engine. This matcher keeps picomatch's syntax and default
 * semantics for the subset below (the tests check it against picomatch on many inputs)
 * and matches in O(segments × states) per path with an O(name × segment) wildcard
 * algorithm per segment.
 *
 * Supported: `*`, `?`, `[abc]`, `[a-z]`, `[!a]`/`[^a]`, `**` as a whole segment, `{a,b}`
 * (nested) and `{1..9}`/`{a..e}` braces, `\` escapes. Not supported: extglobs (`+(a|b)`),
 * POSIX classes (`[[:alpha:]]`). Matching is case-sensitive. Without `dot`, `*`, `?`, `[…]`
 * and `**` never match a name that starts with "." (a pattern segment that starts with a
 * literal "." does). A pattern without "/" matches the name at any depth, as `**\/name`.
 *
 * The matcher is an NFA over path segments: a directory walk keeps the state set of each
 * directory and steps it once per child name, so a match costs one step, not a rematch of
 * the whole path, and a directory whose state set is empty is never opened.
 */

export const MAX_PATTERN_LENGTH = 1024
export const MAX_BRACE_ALTERNATIVES = 64
const MAX_EXPANDED_LENGTH = 16_384

export interface GlobOptions {
  /** Let wildcards and `**` match names that start with "." (hidden files). Default false. */
  dot?: boolean
}

/** A set of NFA states: sorted, distinct segment indices. */
export type GlobState = readonly number[]

export interface CompiledGlob {
  readonly pattern: string
  /** The state before any segment is consumed (the search base). */
  readonly initial: GlobState
  /** The state after descending into (or arriving at) an entry called `name`. */
  step(state: GlobState, name: string): GlobState
  /** True when the path that led to `state` matches the pattern. */
  accepts(state: GlobState): boolean
  /** True when some path below the one that led to `state` could still match. */
  canDescend(state: GlobState): boolean
  /** Convenience: does this "/"-separated relative path match? */
  matches(relativePath: string): boolean
}

type Token =
  | { readonly t: 'lit'; readonly c: number }
  | { readonly t: 'one' }
  | { readonly t: 'star' }
  | { readonly t: 'class'; readonly negate: boolean; readonly ranges: ReadonlyArray<readonly [number, number]> }

type Segment =
  | { readonly kind: 'end' }
  | { readonly kind: 'globstar' }
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'wild'; readonly tokens: readonly Token[]; readonly explicitDot: boolean; readonly suffix: string | null }

const DOT = 46

function invalidPattern(pattern: string, expected: string, found: string): TesseraError {
  const shown = pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern
  return new TesseraError('invalid_input', `invalid glob pattern "${shown}": expected ${expected}, found ${found}`, { expected, found })
}

export function compileGlob(pattern: string, options: GlobOptions = {}): CompiledGlob {
  if (typeof pattern !== 'string') throw new TesseraError('invalid_input', `expected the pattern to be a string, found ${typeof pattern}`, { expected: 'string', found: typeof pattern })
  if (pattern.length === 0) throw invalidPattern(pattern, 'a non-empty pattern such as "**/*.ts"', 'an empty string')
  if (pattern.length > MAX_PATTERN_LENGTH) throw invalidPattern(pattern, `at most ${MAX_PATTERN_LENGTH} characters`, `${pattern.length}`)
  if (pattern.includes('\0')) throw invalidPattern(pattern, 'no NUL bytes', 'a NUL byte')
  const dot = options.dot === true

  const segments: Segment[] = []
  const starts: number[] = []
  for (const alternative of expandBraces(pattern)) {
    const parts = splitPattern(alternative, pattern)
    starts.push(segments.length)
    for (const part of parts) segments.push(parseSegment(part))
    segments.push({ kind: 'end' })
  }

  const mark = new Uint8Array(segments.length)
  const closure = (seeds: number[]): GlobState => {
    // `**` may consume no segment, so a state before `**` is also a state after it.
    const out: number[] = []
    const stack = seeds.slice()
    while (stack.length > 0) {
      const s = stack.pop() as number
      if (mark[s] === 1) continue
      mark[s] = 1
      out.push(s)
      if ((segments[s] as Segment).kind === 'globstar') stack.push(s + 1)
    }
    for (const s of out) mark[s] = 0
    return out.sort((a, b) => a - b)
  }

  const initial = closure(starts)

  // A walk steps once per entry (100,000 for a big tree), and the states it reaches are few:
  // with up to 31 segments a state is a bit mask, and each reached state is built once.
  const small = segments.length <= 31
  const byMask = new Map<number, GlobState>()
  const EMPTY: GlobState = []

  const step = (state: GlobState, name: string): GlobState => {
    const hidden = name.charCodeAt(0) === DOT
    let mask = 0
    const next: number[] | null = small ? null : []
    for (const s of state) {
      const segment = segments[s] as Segment
      let reached = -1
      switch (segment.kind) {
        case 'end':
          break
        case 'globstar':
          if (dot || !hidden) reached = s
          break
        case 'literal':
          if (segment.text === name) reached = s + 1
          break
        case 'wild':
          if (matchWild(segment, name, dot)) reached = s + 1
          break
      }
      if (reached < 0) continue
      if (next === null) mask |= 1 << reached
      else next.push(reached)
    }
    if (next !== null) return next.length === 0 ? EMPTY : closure(next)
    if (mask === 0) return EMPTY
    let known = byMask.get(mask)
    if (known === undefined) {
      const seeds: number[] = []
      for (let s = 0; s < segments.length; s++) if ((mask & (1 << s)) !== 0) seeds.push(s)
      known = closure(seeds)
      byMask.set(mask, known)
    }
    return known
  }

  const accepts = (state: GlobState): boolean => state.some((s) => (segments[s] as Segment).kind === 'end')
  const canDescend = (state: GlobState): boolean => state.some((s) => (segments[s] as Segment).kind !== 'end')

  return {
    pattern,
    initial,
    step,
    accepts,
    canDescend,
    matches(relativePath: string): boolean {
      let state = initial
      for (const name of relativePath.split('/')) {
        if (name === '') continue
        state = step(state, name)
        if (state.length === 0) return false
      }
      return accepts(state)
    },
  }
}

/** Splits one brace-free alternative into segments; a pattern without "/" matches at any depth. */
function splitPattern(alternative: string, original: string): string[] {
  let text = alternative
  while (text.startsWith('./') || text.startsWith('/')) text = text.startsWith('./') ? text.slice(2) : text.slice(1)
  const parts = text.split('/').filter((part) => part !== '' && part !== '.')
  if (parts.length === 0) throw invalidPattern(original, 'a pattern that names something below the search path', `"${alternative}"`)
  if (parts.includes('..')) throw invalidPattern(original, 'a pattern below the search path (".." is not allowed; search from a higher path instead)', '".."')
  // Only a pattern written without any "/" matches at any depth; "/x", "./x" and "x/" are anchored.
  return alternative.includes('/') || parts[0] === '**' ? parts : ['**', ...parts]
}

function parseSegment(part: string): Segment {
  if (part === '**') return { kind: 'globstar' }
  const tokens: Token[] = []
  let wild = false
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i)
    if (c === 92 /* \ */ && i + 1 < part.length) {
      tokens.push({ t: 'lit', c: part.charCodeAt(++i) })
    } else if (c === 42 /* * */) {
      wild = true
      if (tokens[tokens.length - 1]?.t !== 'star') tokens.push({ t: 'star' })
    } else if (c === 63 /* ? */) {
      wild = true
      tokens.push({ t: 'one' })
    } else if (c === 91 /* [ */) {
      const parsed = parseClass(part, i)
      if (parsed === null) tokens.push({ t: 'lit', c })
      else {
        wild = true
        tokens.push(parsed.token)
        i = parsed.end
      }
    } else {
      tokens.push({ t: 'lit', c })
    }
  }
  if (!wild) return { kind: 'literal', text: String.fromCharCode(...tokens.map((token) => (token.t === 'lit' ? token.c : 0))) }
  const first = tokens[0]
  const explicitDot = first !== undefined && first.t === 'lit' && first.c === DOT
  // Fast path for the commonest shape, `*.ext`: one star followed by literals.
  const rest = tokens.slice(1)
  const suffix = first?.t === 'star' && rest.every((token) => token.t === 'lit') ? String.fromCharCode(...rest.map((token) => (token.t === 'lit' ? token.c : 0))) : null
  return { kind: 'wild', tokens, explicitDot, suffix }
}

/** `[...]` starting at `start`; null when it is not closed (then "[" is a literal). */
function parseClass(part: string, start: number): { token: Token; end: number } | null {
  let i = start + 1
  let negate = false
  if (part[i] === '!' || part[i] === '^') {
    negate = true
    i++
  }
  const ranges: Array<[number, number]> = []
  let first = true
  while (i < part.length) {
    let c = part.charCodeAt(i)
    if (c === 93 /* ] */ && !first) return { token: { t: 'class', negate, ranges }, end: i }
    first = false
    if (c === 92 && i + 1 < part.length) c = part.charCodeAt(++i)
    if (part[i + 1] === '-' && i + 2 < part.length && part[i + 2] !== ']') {
      let hi = part.charCodeAt(i + 2)
      let skip = 2
      if (hi === 92 && i + 3 < part.length) {
        hi = part.charCodeAt(i + 3)
        skip = 3
      }
      ranges.push(c <= hi ? [c, hi] : [hi, c])
      i += skip + 1
    } else {
      ranges.push([c, c])
      i++
    }
  }
  return null
}

function tokenMatches(token: Token, c: number): boolean {
  switch (token.t) {
    case 'lit':
      return token.c === c
    case 'one':
      return c !== 47
    case 'class': {
      let inside = false
      for (const [lo, hi] of token.ranges) {
        if (c >= lo && c <= hi) {
          inside = true
          break
        }
      }
      return inside !== token.negate && c !== 47
    }
    case 'star':
      return false
  }
}

/**
 * The classic wildcard algorithm: on a mismatch, only the most recent star grows by one
 * character. Correct because a later star can absorb anything an earlier one could, so it
 * never revisits earlier stars: O(name × tokens) at worst, linear in practice.
 */
function matchWild(segment: Extract<Segment, { kind: 'wild' }>, name: string, dot: boolean): boolean {
  if (!dot && name.charCodeAt(0) === DOT && !segment.explicitDot) return false
  if (segment.suffix !== null) return name.endsWith(segment.suffix)
  const tokens = segment.tokens
  const n = name.length
  const m = tokens.length
  let p = 0
  let s = 0
  let starP = -1
  let starS = 0
  while (s < n) {
    const token = tokens[p]
    if (token !== undefined && token.t === 'star') {
      starP = p++
      starS = s
      continue
    }
    if (token !== undefined && tokenMatches(token, name.charCodeAt(s))) {
      // `?` and a class take a whole surrogate pair, as a character, not half of one.
      s += token.t !== 'lit' && isHighSurrogate(name.charCodeAt(s)) && isLowSurrogate(name.charCodeAt(s + 1)) ? 2 : 1
      p++
      continue
    }
    if (starP >= 0) {
      p = starP + 1
      starS++
      s = starS
      continue
    }
    return false
  }
  while (p < m && (tokens[p] as Token).t === 'star') p++
  return p === m
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}
function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}

/** Expands `{a,b}` and `{1..3}` braces; braces with neither a comma nor a range stay literal. */
export function expandBraces(pattern: string): string[] {
  const out: string[] = []
  let total = 0
  const visit = (text: string): void => {
    const brace = findBrace(text, pattern)
    if (brace === null) {
      total += text.length
      if (out.length >= MAX_BRACE_ALTERNATIVES || total > MAX_EXPANDED_LENGTH) {
        throw invalidPattern(pattern, `braces that expand to at most ${MAX_BRACE_ALTERNATIVES} alternatives of ${MAX_EXPANDED_LENGTH} characters in all`, 'more')
      }
      out.push(text)
      return
    }
    const prefix = text.slice(0, brace.open)
    const suffix = text.slice(brace.close + 1)
    for (const alternative of brace.alternatives) visit(prefix + alternative + suffix)
  }
  visit(pattern)
  return out
}

interface Brace {
  open: number
  close: number
  alternatives: string[]
}

function findBrace(text: string, pattern: string): Brace | null {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '\\') {
      i++
      continue
    }
    if (c !== '{') continue
    const close = matchingBrace(text, i)
    if (close === -1) return null
    const body = text.slice(i + 1, close)
    const parts = splitTopLevel(body)
    if (parts.length > 1) return { open: i, close, alternatives: parts }
    const range = expandRange(body, pattern)
    if (range !== null) return { open: i, close, alternatives: range }
    // A literal brace: an inner one may still expand.
  }
  return null
}

function matchingBrace(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const c = text[i]
    if (c === '\\') i++
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return i
  }
  return -1
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === '\\') i++
    else if (c === '{') depth++
    else if (c === '}') depth--
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i))
      start = i + 1
    }
  }
  parts.push(body.slice(start))
  return parts
}

function expandRange(body: string, pattern: string): string[] | null {
  const numeric = /^(-?\d{1,9})\.\.(-?\d{1,9})$/.exec(body)
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body)
  if (numeric === null && alpha === null) return null
  const [from, to] = numeric ? [Number(numeric[1]), Number(numeric[2])] : [(alpha as RegExpExecArray)[1]!.charCodeAt(0), (alpha as RegExpExecArray)[2]!.charCodeAt(0)]
  const count = Math.abs(to - from) + 1
  if (count > MAX_BRACE_ALTERNATIVES) throw invalidPattern(pattern, `a brace range of at most ${MAX_BRACE_ALTERNATIVES} values`, `{${body}} (${count} values)`)
  const direction = to >= from ? 1 : -1
  return Array.from({ length: count }, (_, i) => (numeric ? String(from + i * direction) : String.fromCharCode(from + i * direction)))
}
