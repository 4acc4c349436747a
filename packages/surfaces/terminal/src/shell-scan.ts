/**
 * The structure a word parser (shell-quote) loses: where command lines end (unquoted
 * newlines), which text is code that runs inside another command (`$(…)`, backticks,
 * `<(…)`, `>(…)`, also inside double quotes and here-documents), and which lines are
 * here-document data rather than commands. Comments are dropped.
 */
export interface ScannedShell {
  /** Command lines, each substitution replaced by a placeholder word. */
  lines: string[]
  /** Source of every substitution found (nested ones are found when these are scanned in turn). */
  substitutions: string[]
  /**
   * Contents of `$((…))`. Arithmetic, normally; but bash re-reads text that is not valid
   * arithmetic as a command substitution of a subshell, so the classifier looks at it too.
   */
  arithmetic: string[]
  /** Things that keep the text from being a complete command (an unterminated quote…). */
  problems: string[]
}

/** Stands in for a substitution in a command line, so the outer command can be classified. */
export const SUBSTITUTION_PLACEHOLDER = '__tessera_substitution__'

interface HereDoc {
  delimiter: string
  stripTabs: boolean
  expands: boolean
}

export function scanShell(source: string): ScannedShell {
  const out: ScannedShell = { lines: [], substitutions: [], arithmetic: [], problems: [] }
  let line = ''
  let i = 0
  let pendingHereDocs: HereDoc[] = []
  const n = source.length

  const endLine = (): void => {
    if (line.trim().length > 0) out.lines.push(line)
    line = ''
  }

  /** At `$(`, `<(`, `>(` or `` ` ``: records the inner source and returns the index after the construct. */
  const substitution = (at: number): number => {
    if (source[at] === '`') {
      let j = at + 1
      let inner = ''
      while (j < n && source[j] !== '`') {
        if (source[j] === '\\' && j + 1 < n && '`$\\'.includes(source[j + 1] as string)) {
          inner += source[j + 1]
          j += 2
          continue
        }
        inner += source[j]
        j++
      }
      if (j >= n) out.problems.push('unterminated backtick substitution')
      out.substitutions.push(inner)
      return j + 1
    }
    const arithmetic = source.startsWith('$((', at)
    const open = arithmetic ? at + 3 : at + 2
    const close = findClose(source, open)
    if (close === -1) out.problems.push('unterminated substitution')
    const end = close === -1 ? n : close
    const inner = source.slice(open, end)
    if (arithmetic) {
      // Substitutions inside arithmetic run too.
      const nested = scanShell(inner)
      out.substitutions.push(...nested.substitutions)
      out.arithmetic.push(inner, ...nested.arithmetic)
      return Math.min(n, end + 2)
    }
    out.substitutions.push(inner)
    return end + 1
  }

  const readHereDocs = (): void => {
    for (const doc of pendingHereDocs) {
      let body = ''
      for (;;) {
        if (i >= n) {
          out.problems.push(`unterminated here-document (expected ${doc.delimiter})`)
          break
        }
        const eol = source.indexOf('\n', i)
        const raw = source.slice(i, eol === -1 ? n : eol)
        i = eol === -1 ? n : eol + 1
        if ((doc.stripTabs ? raw.replace(/^\t+/, '') : raw) === doc.delimiter) break
        body += `${raw}\n`
      }
      if (doc.expands) {
        const expanded = scanDoubleQuoted(body)
        out.substitutions.push(...expanded.substitutions)
        out.arithmetic.push(...expanded.arithmetic)
      }
    }
    pendingHereDocs = []
  }

  while (i < n) {
    const c = source[i] as string
    if (c === '\\') {
      if (source[i + 1] === '\n') {
        i += 2
        continue
      }
      line += source.slice(i, i + 2)
      i += 2
      continue
    }
    if (c === "'") {
      const close = source.indexOf("'", i + 1)
      if (close === -1) {
        out.problems.push('unterminated single quote')
        line += source.slice(i)
        i = n
        break
      }
      line += source.slice(i, close + 1)
      i = close + 1
      continue
    }
    if (c === '$' && source[i + 1] === "'") {
      let j = i + 2
      while (j < n && source[j] !== "'") j += source[j] === '\\' ? 2 : 1
      if (j >= n) out.problems.push('unterminated $\'…\' quote')
      line += source.slice(i, j + 1)
      i = j + 1
      continue
    }
    if (c === '"') {
      const quoted = scanDoubleQuoted(source, i + 1)
      out.substitutions.push(...quoted.substitutions)
      out.arithmetic.push(...quoted.arithmetic)
      out.problems.push(...quoted.problems)
      line += `"${quoted.text}"`
      i = quoted.end + 1
      continue
    }
    if (c === '`' || ((c === '$' || c === '<' || c === '>') && source[i + 1] === '(')) {
      i = substitution(i)
      line += SUBSTITUTION_PLACEHOLDER
      continue
    }
    if (c === '#' && (line.length === 0 || /[\s;&|()]$/.test(line))) {
      const eol = source.indexOf('\n', i)
      i = eol === -1 ? n : eol
      continue
    }
    if (c === '<' && source[i + 1] === '<' && source[i + 2] !== '<') {
      const doc = hereDocAt(source, i + 2)
      if (doc !== null) {
        pendingHereDocs.push(doc.doc)
        line += source.slice(i, doc.end)
        i = doc.end
        continue
      }
    }
    if (c === '\n') {
      endLine()
      i++
      if (pendingHereDocs.length > 0) readHereDocs()
      continue
    }
    line += c
    i++
  }
  endLine()
  if (pendingHereDocs.length > 0) readHereDocs()
  return out
}

/** Scans double-quoted text from `start` to its closing quote (or the end): only `\`, `$(…)` and backticks are special. */
function scanDoubleQuoted(source: string, start = 0): { text: string; end: number; substitutions: string[]; arithmetic: string[]; problems: string[] } {
  const substitutions: string[] = []
  const arithmetic: string[] = []
  const problems: string[] = []
  let text = ''
  let i = start
  const closing = start > 0
  while (i < source.length) {
    const c = source[i] as string
    if (c === '\\') {
      text += source.slice(i, i + 2)
      i += 2
      continue
    }
    if (closing && c === '"') return { text, end: i, substitutions, arithmetic, problems }
    if (c === '`' || (c === '$' && source[i + 1] === '(')) {
      const end = c === '`' ? backtickEnd(source, i) : source.startsWith('$((', i) ? findClose(source, i + 3) + 1 : findClose(source, i + 2)
      if (end < 0) problems.push('unterminated substitution')
      const stop = end < 0 ? source.length : end
      const body = c === '`' ? source.slice(i + 1, stop) : source.slice(i + 2, stop)
      if (source.startsWith('$((', i)) {
        const nested = scanShell(body.slice(1, -1))
        substitutions.push(...nested.substitutions)
        arithmetic.push(body.slice(1, -1), ...nested.arithmetic)
      } else substitutions.push(c === '`' ? body.replace(/\\([`$\\])/g, '$1') : body)
      text += SUBSTITUTION_PLACEHOLDER
      i = stop + 1
      continue
    }
    text += c
    i++
  }
  if (closing) problems.push('unterminated double quote')
  return { text, end: i, substitutions, arithmetic, problems }
}

function backtickEnd(source: string, at: number): number {
  let j = at + 1
  while (j < source.length && source[j] !== '`') j += source[j] === '\\' ? 2 : 1
  return j < source.length ? j : -1
}

/**
 * Index of the `)` that closes a construct whose body starts at `start`, skipping quotes,
 * nested parentheses and substitutions; -1 when it never closes.
 */
export function findClose(source: string, start: number): number {
  let depth = 0
  let i = start
  while (i < source.length) {
    const c = source[i] as string
    if (c === '\\') {
      i += 2
      continue
    }
    if (c === "'") {
      const close = source.indexOf("'", i + 1)
      if (close === -1) return -1
      i = close + 1
      continue
    }
    if (c === '"') {
      const quoted = scanDoubleQuoted(source, i + 1)
      i = quoted.end + 1
      continue
    }
    if (c === '`') {
      const end = backtickEnd(source, i)
      if (end === -1) return -1
      i = end + 1
      continue
    }
    if (c === '(') depth++
    if (c === ')') {
      if (depth === 0) return i
      depth--
    }
    i++
  }
  return -1
}

/** Parses the delimiter after `<<` (or `<<-`). */
function hereDocAt(source: string, start: number): { doc: HereDoc; end: number } | null {
  let i = start
  const stripTabs = source[i] === '-'
  if (stripTabs) i++
  while (source[i] === ' ' || source[i] === '\t') i++
  let delimiter = ''
  let quoted = false
  while (i < source.length && !/[\s;&|<>()]/.test(source[i] as string)) {
    const c = source[i] as string
    if (c === "'" || c === '"') {
      const close = source.indexOf(c, i + 1)
      if (close === -1) return null
      delimiter += source.slice(i + 1, close)
      quoted = true
      i = close + 1
      continue
    }
    if (c === '\\') {
      quoted = true
      delimiter += source[i + 1] ?? ''
      i += 2
      continue
    }
    delimiter += c
    i++
  }
  if (delimiter.length === 0) return null
  return { doc: { delimiter, stripTabs, expands: !quoted }, end: i }
}
