import type { ConditionAst, LiteralValue } from './ast.js'

/**
 * Turns an AST back into source. Used to name the failing sub-expression in runtime errors
 * and to round-trip generated trees in tests. Every compound operand is parenthesised, so
 * the output never depends on operator precedence and re-parses to the same tree.
 */
export function printCondition(ast: ConditionAst): string {
  switch (ast.kind) {
    case 'literal':
      return printLiteral(ast.value)
    case 'identifier':
      return ast.name
    case 'member':
      return ast.computed
        ? `${printMemberObject(ast.object)}[${printCondition(ast.property)}]`
        : `${printMemberObject(ast.object)}.${ast.name}`
    case 'unary':
      return `${ast.operator}${printOperand(ast.argument)}`
    case 'binary':
    case 'logical':
      return `${printOperand(ast.left)} ${ast.operator} ${printOperand(ast.right)}`
    case 'conditional':
      return `${printOperand(ast.test)} ? ${printOperand(ast.consequent)} : ${printOperand(ast.alternate)}`
    case 'array':
      return `[${ast.elements.map(printCondition).join(', ')}]`
    case 'call':
      return `${ast.callee}(${ast.arguments.map(printCondition).join(', ')})`
  }
}

function printOperand(ast: ConditionAst): string {
  const printed = printCondition(ast)
  const atomic =
    ast.kind === 'identifier' ||
    ast.kind === 'member' ||
    ast.kind === 'array' ||
    ast.kind === 'call' ||
    (ast.kind === 'literal' && !(typeof ast.value === 'number' && (ast.value < 0 || Object.is(ast.value, -0))))
  return atomic ? printed : `(${printed})`
}

/** `1.5.x` would lex as a malformed number, so numeric objects of a member get parentheses. */
function printMemberObject(ast: ConditionAst): string {
  return ast.kind === 'literal' && typeof ast.value === 'number' ? `(${printCondition(ast)})` : printOperand(ast)
}

function printLiteral(value: LiteralValue): string {
  if (typeof value === 'string') return printString(value)
  // String(-0) is "0"; keep the sign so the printed source means the same number.
  if (Object.is(value, -0)) return '-0'
  return String(value)
}

/** jsep understands only these escapes (no \u), so everything else is written raw. */
const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
}

function printString(value: string): string {
  return `"${value.replace(/[\\"\n\r\t\b\f\v]/g, (ch) => ESCAPES[ch] ?? ch)}"`
}
