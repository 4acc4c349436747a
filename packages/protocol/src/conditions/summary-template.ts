import type { JsonObject } from '../schemas/json.js'
import { TesseraError } from '../errors.js'
import { printable } from '../printable.js'
import type { ConditionAst, ConditionValue } from './ast.js'
import { type CompiledCondition, compileCondition } from './compile.js'

/**
 * A contract's `summary`: the sentence a person reads before approving, such as
 * `Approve payout of {claim.amount | currency EUR} to {claim.claimant} for claim {claim.id}`.
 * Each `{…}` is an expression of the condition language over the same scope as the
 * preconditions (the frame's state, `input`, `actor`), optionally piped through a format:
 * `currency <ISO code>`, `number`, `percent`. `{{` and `}}` stand for literal braces.
 */

const FORMATS = ['currency', 'number', 'percent'] as const
type FormatName = (typeof FORMATS)[number]

interface Hole {
  readonly expression: CompiledCondition
  readonly format: FormatName | null
  readonly argument: string | null
}

type Part = string | Hole

export interface CompiledSummary {
  readonly source: string
  /** The dotted paths its expressions read. */
  readonly paths: readonly string[]
  render(scope: JsonObject): string
}

const MAX_VALUE_CHARS = 120

function invalid(source: string, message: string): TesseraError {
  return new TesseraError('invalid_contract', `invalid summary template ${JSON.stringify(source.slice(0, 200))}: ${message}`, {
    expected: 'text with {expression} or {expression | currency EUR|number|percent} parts',
    found: source.slice(0, 200),
  })
}

function parseHole(source: string, inside: string): Hole {
  const [expressionText = '', formatText] = inside.split('|', 2)
  let expression: CompiledCondition
  try {
    expression = compileCondition(expressionText.trim())
  } catch (error) {
    throw invalid(source, `{${inside}}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (formatText === undefined) return { expression, format: null, argument: null }
  const [name = '', argument, ...rest] = formatText.trim().split(/\s+/)
  if (!(FORMATS as readonly string[]).includes(name) || rest.length > 0) throw invalid(source, `unknown format "${formatText.trim()}"; expected one of ${FORMATS.join(', ')}`)
  const format = name as FormatName
  if (format === 'currency' && (argument === undefined || !/^[A-Z]{3}$/.test(argument))) throw invalid(source, `currency needs an ISO 4217 code such as EUR, found ${JSON.stringify(argument ?? '')}`)
  if (format !== 'currency' && argument !== undefined) throw invalid(source, `${format} takes no argument, found "${argument}"`)
  return { expression, format, argument: argument ?? null }
}

/** Parses a template once; an unknown format or a bad expression is an `invalid_contract` error. */
export function compileSummary(source: string): CompiledSummary {
  const parts: Part[] = []
  let text = ''
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    const next = source[i + 1]
    if ((char === '{' && next === '{') || (char === '}' && next === '}')) {
      text += char
      i++
    } else if (char === '{') {
      const end = source.indexOf('}', i + 1)
      if (end < 0) throw invalid(source, `the "{" at ${i} is never closed`)
      if (text.length > 0) parts.push(text)
      text = ''
      parts.push(parseHole(source, source.slice(i + 1, end)))
      i = end
    } else if (char === '}') {
      throw invalid(source, `the "}" at ${i} closes nothing (write "}}" for a brace)`)
    } else text += char
  }
  if (text.length > 0) parts.push(text)
  return Object.freeze({
    source,
    paths: [...new Set(parts.flatMap((part) => (typeof part === 'string' ? [] : pathsRead(part.expression.ast))))],
    render: (scope: JsonObject) =>
      printable(parts.map((part) => (typeof part === 'string' ? part : formatValue(part.expression.evaluate(scope), part))).join(''))
        .replace(/ {2,}/g, ' ')
        .trim(),
  })
}

function formatValue(value: ConditionValue, hole: Hole): string {
  if (hole.format !== null && typeof value === 'number') {
    if (hole.format === 'currency') {
      const whole = Number.isInteger(value)
      return new Intl.NumberFormat('en', { style: 'currency', currency: hole.argument ?? 'EUR', minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(value)
    }
    if (hole.format === 'percent') return new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(value)
    return new Intl.NumberFormat('en').format(value)
  }
  return readableValue(value)
}

/** A value as a person reads it in one line: strings bare, the rest as short JSON. */
export function readableValue(value: ConditionValue | undefined): string {
  if (value === undefined) return '(absent)'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text
}

/**
 * The dotted paths an expression reads (`claim.fraudScore`, `input.amount`), for showing
 * a person the values a precondition saw. Computed members (`a[i]`) end the path.
 */
export function pathsRead(ast: ConditionAst): string[] {
  const found = new Set<string>()
  const visit = (node: ConditionAst): void => {
    const path = staticPath(node)
    if (path !== null) {
      found.add(path)
      return
    }
    switch (node.kind) {
      case 'member':
        visit(node.object)
        if (node.computed) visit(node.property)
        return
      case 'unary':
        visit(node.argument)
        return
      case 'binary':
      case 'logical':
        visit(node.left)
        visit(node.right)
        return
      case 'conditional':
        visit(node.test)
        visit(node.consequent)
        visit(node.alternate)
        return
      case 'array':
        node.elements.forEach(visit)
        return
      case 'call':
        node.arguments.forEach(visit)
        return
      default:
        return
    }
  }
  visit(ast)
  return [...found]
}

function staticPath(node: ConditionAst): string | null {
  if (node.kind === 'identifier') return node.name
  if (node.kind === 'member' && !node.computed) {
    const base = staticPath(node.object)
    return base === null ? null : `${base}.${node.name}`
  }
  return null
}
