import jsep from 'jsep'
import {
  BINARY_OPERATORS,
  LOGICAL_OPERATORS,
  UNARY_OPERATORS,
  type BinaryOperator,
  type ConditionAst,
  type LogicalOperator,
  type UnaryOperator,
} from './ast.js'
import { invalidCondition } from './condition-errors.js'
import { CONDITION_FUNCTIONS, CONDITION_FUNCTION_NAMES } from './functions.js'
import { FORBIDDEN_NAMES, MAX_DEPTH, MAX_NODES, MAX_SOURCE_LENGTH } from './limits.js'

/**
 * jsep keeps its operator table in module-global state shared with every other user of the
 * library, so we only ever add `in` (at JavaScript's relational precedence) and only if
 * nobody has yet; nothing is removed. Operators we do not support are refused when jsep's
 * tree is converted instead.
 */
if (!Object.prototype.hasOwnProperty.call(jsep.binary_ops, 'in')) {
  jsep.addBinaryOp('in', jsep.binary_ops['<'] ?? 7)
}

const BINARY = new Set<string>(BINARY_OPERATORS)
const LOGICAL = new Set<string>(LOGICAL_OPERATORS)
const UNARY = new Set<string>(UNARY_OPERATORS)
const FUNCTION_LIST = CONDITION_FUNCTION_NAMES.join(', ')

/** Words that signal JavaScript rather than a condition; named in errors instead of looked up. */
const KEYWORDS = new Set([
  'new',
  'this',
  'typeof',
  'instanceof',
  'void',
  'delete',
  'function',
  'class',
  'return',
  'var',
  'let',
  'const',
  'import',
  'export',
  'await',
  'yield',
  'async',
  'super',
])

/**
 * Parses a condition into the closed AST. Everything outside the language — and anything
 * too long, too deep or too big — is refused here with an `invalid_condition` error, so a
 * contract with a bad condition fails when it is registered rather than when it runs.
 */
export function parseCondition(source: string): ConditionAst {
  if (typeof source !== 'string') {
    throw invalidCondition(String(source), 'a condition string', typeof source)
  }
  if (source.length > MAX_SOURCE_LENGTH) {
    throw invalidCondition(source, `at most ${MAX_SOURCE_LENGTH} characters`, `${source.length} characters`)
  }
  if (source.trim() === '') throw invalidCondition(source, 'an expression', 'an empty condition')

  // jsep descends recursively; refusing deep brackets up front keeps it far from the stack limit.
  const tooDeepAt = excessNestingPosition(source)
  if (tooDeepAt !== undefined) {
    throw invalidCondition(source, `at most ${MAX_DEPTH} nested brackets`, 'deeper nesting', tooDeepAt)
  }

  let tree: jsep.Expression
  try {
    tree = jsep(source)
  } catch (error) {
    throw fromJsepError(source, error)
  }
  return convert(source, tree, 1, { nodes: 0 })
}

function excessNestingPosition(source: string): number | undefined {
  let depth = 0
  let quote: string | undefined
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]
    if (quote !== undefined) {
      if (ch === '\\') i++
      else if (ch === quote) quote = undefined
    } else if (ch === '"' || ch === "'") {
      quote = ch
    } else if (ch === '(' || ch === '[' || ch === '{') {
      depth++
      if (depth > MAX_DEPTH) return i
    } else if (ch === ')' || ch === ']' || ch === '}') {
      depth = Math.max(0, depth - 1)
    }
  }
  return undefined
}

function fromJsepError(source: string, error: unknown) {
  if (error instanceof RangeError) {
    return invalidCondition(source, `an expression nested at most ${MAX_DEPTH} levels deep`, 'deeper nesting')
  }
  const index = (error as { index?: unknown } | null)?.index
  const description = (error as { description?: unknown } | null)?.description
  const position = typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : undefined
  const found =
    position === undefined
      ? 'a syntax error'
      : position >= source.length
        ? 'the end of the condition'
        : JSON.stringify(source.slice(position, position + 10))
  const reason = typeof description === 'string' ? ` (${description})` : ''
  return invalidCondition(source, `a well-formed expression${reason}`, found, position)
}

interface Budget {
  nodes: number
}

type Node = jsep.Expression

function convert(source: string, node: Node, depth: number, budget: Budget): ConditionAst {
  if (depth > MAX_DEPTH) {
    throw invalidCondition(source, `an expression nested at most ${MAX_DEPTH} levels deep`, 'deeper nesting')
  }
  budget.nodes++
  if (budget.nodes > MAX_NODES) {
    throw invalidCondition(source, `at most ${MAX_NODES} syntax nodes`, 'a larger expression')
  }
  const child = (next: Node): ConditionAst => convert(source, next, depth + 1, budget)
  const refuse = (expected: string, found: string): never => {
    throw invalidCondition(source, expected, found)
  }

  switch (node.type) {
    case 'Literal':
      return freeze({ kind: 'literal', value: literalValue(source, node) })

    case 'Identifier': {
      const name = nameOf(node)
      // jsep accepts any character above U+007F in a name (U+2028 included); only proper
      // identifiers may name a scope entry, so that every AST prints back to itself.
      if (name === undefined || !IDENTIFIER.test(name)) return refuse('a name', `the malformed identifier ${JSON.stringify(name ?? '')}`)
      checkName(source, name)
      if (KEYWORDS.has(name)) return refuse('a name from the scope', `the JavaScript keyword \`${name}\``)
      return freeze({ kind: 'identifier', name })
    }

    case 'MemberExpression': {
      if (node.optional === true) {
        return refuse('`.` or `[…]` member access', 'optional chaining `?.` (use `??` or `in` instead)')
      }
      const object = asNode(node.object)
      const property = asNode(node.property)
      if (object === undefined || property === undefined) return refuse('a member access', 'a malformed one')
      if (node.computed === true) {
        const converted = freeze({ kind: 'member', computed: true, object: child(object), property: child(property) })
        if (converted.property.kind === 'literal' && typeof converted.property.value === 'string') {
          checkName(source, converted.property.value)
        }
        return converted
      }
      const name = property.type === 'Identifier' ? nameOf(property) : undefined
      if (name === undefined) return refuse('a property name after `.`', describeJsep(property))
      if (!IDENTIFIER.test(name)) return refuse('a property name after `.`', `the malformed name ${JSON.stringify(name)}`)
      checkName(source, name)
      return freeze({ kind: 'member', computed: false, object: child(object), name })
    }

    case 'UnaryExpression': {
      const operator = node.operator
      const argument = asNode(node.argument)
      if (typeof operator !== 'string' || !UNARY.has(operator)) {
        return refuse(`one of the unary operators ${UNARY_OPERATORS.join(' ')}`, `\`${String(operator)}\``)
      }
      if (argument === undefined) return refuse('an operand', 'nothing')
      return freeze({ kind: 'unary', operator: operator as UnaryOperator, argument: child(argument) })
    }

    case 'BinaryExpression': {
      const operator = node.operator
      const left = asNode(node.left)
      const right = asNode(node.right)
      if (left === undefined || right === undefined) return refuse('two operands', 'a malformed operation')
      if (typeof operator === 'string' && LOGICAL.has(operator)) {
        return freeze({ kind: 'logical', operator: operator as LogicalOperator, left: child(left), right: child(right) })
      }
      if (typeof operator === 'string' && BINARY.has(operator)) {
        return freeze({ kind: 'binary', operator: operator as BinaryOperator, left: child(left), right: child(right) })
      }
      return refuse(
        `one of the operators ${[...BINARY_OPERATORS, ...LOGICAL_OPERATORS].join(' ')}`,
        `\`${String(operator)}\``,
      )
    }

    case 'ConditionalExpression': {
      const test = asNode(node.test)
      const consequent = asNode(node.consequent)
      const alternate = asNode(node.alternate)
      if (test === undefined || consequent === undefined || alternate === undefined) {
        return refuse('`test ? then : else`', 'a malformed conditional')
      }
      return freeze({ kind: 'conditional', test: child(test), consequent: child(consequent), alternate: child(alternate) })
    }

    case 'ArrayExpression': {
      const elements = Array.isArray(node.elements) ? node.elements : []
      const converted = elements.map((element) => {
        const next = asNode(element)
        return next === undefined ? refuse('an array element', 'an empty slot (`[a, , b]`)') : child(next)
      })
      return freeze({ kind: 'array', elements: Object.freeze(converted) })
    }

    case 'CallExpression': {
      const callee = asNode(node.callee)
      const name = callee?.type === 'Identifier' ? nameOf(callee) : undefined
      const fn = name === undefined ? undefined : CONDITION_FUNCTIONS.get(name)
      if (name === undefined || fn === undefined) {
        const what = callee === undefined ? 'a malformed call' : `a call of ${describeJsep(callee)}`
        return refuse(`a call of one of ${FUNCTION_LIST}`, what)
      }
      if (node.optional === true) return refuse(`a plain call of ${name}()`, 'an optional call `?.()`')
      const args = Array.isArray(node.arguments) ? node.arguments : []
      if (args.length < fn.minArgs || args.length > fn.maxArgs) {
        return refuse(fn.signature, `${args.length} argument${args.length === 1 ? '' : 's'}`)
      }
      const converted = args.map((arg) => {
        const next = asNode(arg)
        return next === undefined ? refuse('an argument', 'an empty slot') : child(next)
      })
      return freeze({ kind: 'call', callee: name, arguments: Object.freeze(converted) })
    }

    case 'Compound': {
      const body = Array.isArray(node.body) ? node.body.map(asNode) : []
      if (body.length === 0) return refuse('an expression', 'nothing')
      const keyword = body.find((part) => part?.type === 'Identifier' && KEYWORDS.has(nameOf(part) ?? ''))
      if (keyword !== undefined) return refuse('a single expression', describeJsep(keyword))
      return refuse('a single expression', `${body.length} expressions in a row (is an operator missing?)`)
    }

    default:
      return refuse('a literal, name, member access, operator or whitelisted call', describeJsep(node))
  }
}

function literalValue(source: string, node: Node): string | number | boolean | null {
  const value = node.value
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value
    throw invalidCondition(source, 'a finite number', `\`${String(node.raw)}\``)
  }
  throw invalidCondition(source, 'a string, number, boolean or null literal', describeJsep(node))
}

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u

function checkName(source: string, name: string): void {
  if (FORBIDDEN_NAMES.has(name)) {
    throw invalidCondition(source, 'a property name other than __proto__, constructor or prototype', `\`${name}\``)
  }
}

function nameOf(node: Node): string | undefined {
  return typeof node.name === 'string' ? node.name : undefined
}

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
    ? (value as Node)
    : undefined
}

/** Names a jsep node the way a condition author would recognise it. */
function describeJsep(node: Node): string {
  switch (node.type) {
    case 'ThisExpression':
      return '`this`'
    case 'Identifier':
      return KEYWORDS.has(nameOf(node) ?? '') ? `the JavaScript keyword \`${nameOf(node)}\`` : `\`${nameOf(node)}\``
    case 'MemberExpression':
      return 'a method (calls are only allowed on bare function names)'
    case 'CallExpression':
      return 'the result of a call'
    case 'Literal':
      return node.value instanceof RegExp ? 'a regular expression' : `the literal ${String(node.raw)}`
    case 'SequenceExpression':
      return 'a comma-separated sequence'
    case 'ArrowFunctionExpression':
      return 'an arrow function'
    case 'AssignmentExpression':
    case 'UpdateExpression':
      return 'an assignment'
    case 'NewExpression':
      return '`new`'
    case 'TemplateLiteral':
    case 'TaggedTemplateExpression':
      return 'a template literal'
    case 'ObjectExpression':
      return 'an object literal'
    case 'SpreadElement':
      return 'a spread `...`'
    default:
      return `a ${node.type}`
  }
}

function freeze<T extends ConditionAst>(node: T): T {
  return Object.freeze(node)
}
