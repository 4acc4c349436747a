import type { JsonObject } from '../schemas/json.js'
import type {
  BinaryNode,
  CallNode,
  ConditionAst,
  ConditionValue,
  LogicalNode,
  MemberNode,
} from './ast.js'
import { conditionError } from './condition-errors.js'
import { CONDITION_FUNCTIONS, type FunctionContext } from './functions.js'
import { describeFound, hasOwn, isConditionValue, isPlainObject, jsonEquals, readOwn } from './json-values.js'
import { FORBIDDEN_NAMES, MAX_DEPTH, MAX_STEPS, MAX_STRING_LENGTH } from './limits.js'
import { printCondition } from './print.js'

/**
 * Evaluation over plain JSON. The rules, chosen so a condition means the same thing to its
 * author, the gateway and a replay:
 *
 * - Names and members read own data properties only; the prototype chain is never walked.
 *   A missing property yields `undefined`; reading a property *of* `undefined` or `null` is
 *   a `condition_error` naming the path.
 * - `==` and `!=` behave like `===` and `!==`: JavaScript's loose equality coerces
 *   (`"1" == 1`, `null == undefined`), which is exactly the surprise a policy rule must not
 *   have. Equality is structural over JSON, since reference identity means nothing there.
 * - `<`, `<=`, `>`, `>=` compare two numbers or two strings; anything else is an error.
 *   Arithmetic takes finite numbers (and `+` two strings) and must give a finite result.
 * - `!`, `&&`, `||` and `? :` take booleans only: truthiness would make `0`, `""` and a
 *   missing field silently mean "no". `??` substitutes for `null` or `undefined`.
 * - Work is bounded by a step budget and produced strings by a length cap.
 */

export interface EvaluateOptions {
  /** The condition's source, quoted in errors; printed from the AST when absent. */
  readonly source?: string
  /** Overrides the step budget (default MAX_STEPS). */
  readonly maxSteps?: number
}

export function evaluateCondition(ast: ConditionAst, scope: JsonObject, options: EvaluateOptions = {}): ConditionValue {
  const run = new Run(ast, scope, options)
  if (!isPlainObject(scope)) run.fail(undefined, 'a JSON object as the scope', describeFound(scope))
  return run.evaluate(ast, 1)
}

/** Evaluates a condition that must come out `true` or `false`; anything else is an error. */
export function checkCondition(ast: ConditionAst, scope: JsonObject, options: EvaluateOptions = {}): boolean {
  const result = evaluateCondition(ast, scope, options)
  if (typeof result === 'boolean') return result
  return new Run(ast, scope, options).fail(undefined, 'the condition to evaluate to true or false', describeFound(result))
}

/** One evaluation's mutable state: the scope, the steps spent, and how to report a failure. */
class Run {
  private steps = 0
  private readonly maxSteps: number

  constructor(
    private readonly root: ConditionAst,
    private readonly scope: JsonObject,
    private readonly options: EvaluateOptions,
  ) {
    this.maxSteps = options.maxSteps ?? MAX_STEPS
  }

  fail(node: ConditionAst | undefined, expected: string, found: string): never {
    const source = this.options.source ?? safePrint(this.root)
    throw conditionError(source, node === undefined ? undefined : safePrint(node), expected, found)
  }

  charge(node: ConditionAst | undefined): void {
    this.steps++
    if (this.steps > this.maxSteps) {
      this.fail(node, `at most ${this.maxSteps} evaluation steps`, 'a condition that needs more')
    }
  }

  evaluate(node: ConditionAst, depth: number): ConditionValue {
    this.charge(node)
    // The parser bounds depth already; this guards trees built or deserialised by hand.
    if (depth > MAX_DEPTH) this.fail(node, `an expression nested at most ${MAX_DEPTH} levels deep`, 'deeper nesting')
    switch (node.kind) {
      case 'literal':
        return this.checkValue(node, node.value)
      case 'identifier':
        return this.lookup(node, this.scope, this.checkName(node, node.name))
      case 'member':
        return this.member(node, depth)
      case 'unary': {
        const value = this.evaluate(node.argument, depth + 1)
        if (node.operator === '!') return !this.boolean(node.argument, value, '`!`')
        const number = this.number(node.argument, value, `\`${node.operator}\``)
        if (node.operator === '-') return -number
        if (node.operator === '+') return number
        return this.fail(node, 'one of the unary operators ! - +', `\`${String(node.operator)}\``)
      }
      case 'binary':
        return this.binary(node, depth)
      case 'logical':
        return this.logical(node, depth)
      case 'conditional': {
        const test = this.boolean(node.test, this.evaluate(node.test, depth + 1), '`? :`')
        return this.evaluate(test ? node.consequent : node.alternate, depth + 1)
      }
      case 'array':
        return node.elements.map((element) => {
          const value = this.evaluate(element, depth + 1)
          if (value === undefined) this.fail(element, 'a JSON value in an array literal', describeFound(value))
          return value
        })
      case 'call':
        return this.call(node, depth)
      default:
        return this.fail(node, 'a condition syntax node', `a node of kind ${JSON.stringify((node as { kind?: unknown }).kind)}`)
    }
  }

  private member(node: MemberNode, depth: number): ConditionValue {
    const object = this.evaluate(node.object, depth + 1)
    const key = node.computed ? this.evaluate(node.property, depth + 1) : node.name
    if (typeof key === 'string') this.checkName(node, key)
    if (object === undefined || object === null) {
      return this.fail(node, `${safePrint(node.object)} to be an object or array`, describeFound(object))
    }
    if (Array.isArray(object)) {
      if (key === 'length') return object.length
      if (typeof key !== 'number' || !Number.isInteger(key) || key < 0) {
        return this.fail(node, 'a non-negative integer index or `length` on an array', describeFound(key))
      }
      return this.lookup(node, object, key)
    }
    if (typeof object === 'string') {
      if (key === 'length') return object.length
      return this.fail(node, '`length`, the only property of a string', describeFound(key))
    }
    if (isPlainObject(object)) {
      if (typeof key !== 'string') return this.fail(node, 'a string key on an object', describeFound(key))
      return this.lookup(node, object, key)
    }
    return this.fail(node, `${safePrint(node.object)} to be an object or array`, describeFound(object))
  }

  private lookup(node: ConditionAst, container: object, key: string | number): ConditionValue {
    const read = readOwn(container, key)
    if (!read.found) return undefined
    return this.checkValue(node, read.value)
  }

  private binary(node: BinaryNode, depth: number): ConditionValue {
    const left = this.evaluate(node.left, depth + 1)
    const right = this.evaluate(node.right, depth + 1)
    const op = node.operator
    switch (op) {
      case '===':
      case '==':
        return this.equals(left, right)
      case '!==':
      case '!=':
        return !this.equals(left, right)
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const bothNumbers = typeof left === 'number' && typeof right === 'number'
        const bothStrings = typeof left === 'string' && typeof right === 'string'
        if (!bothNumbers && !bothStrings) {
          return this.fail(node, `two numbers or two strings for \`${op}\``, `${describeFound(left)} and ${describeFound(right)}`)
        }
        const [a, b] = [left as number | string, right as number | string]
        return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b
      }
      case '+':
        if (typeof left === 'string' && typeof right === 'string') return this.producedString(node, left + right)
        return this.arithmetic(node, left, right, (a, b) => a + b)
      case '-':
        return this.arithmetic(node, left, right, (a, b) => a - b)
      case '*':
        return this.arithmetic(node, left, right, (a, b) => a * b)
      case '/':
        return this.arithmetic(node, left, right, (a, b) => a / b)
      case '%':
        return this.arithmetic(node, left, right, (a, b) => a % b)
      case 'in':
        return this.membership(node, left, right)
      default:
        return this.fail(node, 'a supported binary operator', `\`${String(op)}\``)
    }
  }

  private arithmetic(node: BinaryNode, left: ConditionValue, right: ConditionValue, apply: (a: number, b: number) => number): number {
    const strings = node.operator === '+' ? ' (or two strings)' : ''
    if (typeof left !== 'number' || typeof right !== 'number') {
      return this.fail(node, `two numbers${strings} for \`${node.operator}\``, `${describeFound(left)} and ${describeFound(right)}`)
    }
    const result = apply(left, right)
    if (!Number.isFinite(result)) {
      const found = (node.operator === '/' || node.operator === '%') && right === 0 ? 'division by zero' : String(result)
      return this.fail(node, 'a finite result', found)
    }
    return result
  }

  /** `x in array` is membership; `"key" in object` asks for an own key. */
  private membership(node: BinaryNode, left: ConditionValue, right: ConditionValue): boolean {
    if (Array.isArray(right)) return right.some((item: ConditionValue) => this.equals(left, item))
    if (isPlainObject(right)) {
      if (typeof left !== 'string') return this.fail(node, 'a string key on the left of `in` an object', describeFound(left))
      this.checkName(node, left)
      return hasOwn(right, left)
    }
    return this.fail(node, 'an array or object on the right of `in`', describeFound(right))
  }

  private logical(node: LogicalNode, depth: number): ConditionValue {
    const left = this.evaluate(node.left, depth + 1)
    if (node.operator === '??') {
      return left === null || left === undefined ? this.evaluate(node.right, depth + 1) : left
    }
    const op = `\`${node.operator}\``
    const decided = this.boolean(node.left, left, op)
    if (node.operator === '&&' ? !decided : decided) return decided
    return this.boolean(node.right, this.evaluate(node.right, depth + 1), op)
  }

  private call(node: CallNode, depth: number): ConditionValue {
    const fn = CONDITION_FUNCTIONS.get(node.callee)
    if (fn === undefined) return this.fail(node, 'a whitelisted function', `\`${node.callee}\``)
    if (node.arguments.length < fn.minArgs || node.arguments.length > fn.maxArgs) {
      return this.fail(node, fn.signature, `${node.arguments.length} arguments`)
    }
    const args = node.arguments.map((arg) => this.evaluate(arg, depth + 1))
    const context: FunctionContext = {
      fail: (expected, found) => this.fail(node, expected, describeFound(found)),
      equals: (a, b) => this.equals(a, b),
    }
    const result = fn.apply(args, context)
    return typeof result === 'string' ? this.producedString(node, result) : result
  }

  private equals(a: ConditionValue, b: ConditionValue): boolean {
    return jsonEquals(a, b, () => this.charge(undefined))
  }

  private boolean(node: ConditionAst, value: ConditionValue, operator: string): boolean {
    if (typeof value !== 'boolean') return this.fail(node, `a boolean for ${operator}`, describeFound(value))
    return value
  }

  private number(node: ConditionAst, value: ConditionValue, operator: string): number {
    if (typeof value !== 'number') return this.fail(node, `a number for ${operator}`, describeFound(value))
    return value
  }

  private producedString(node: ConditionAst, value: string): string {
    if (value.length > MAX_STRING_LENGTH) {
      return this.fail(node, `a string of at most ${MAX_STRING_LENGTH} characters`, `${value.length} characters`)
    }
    return value
  }

  private checkName<T>(node: ConditionAst, name: T): T {
    if (typeof name === 'string' && FORBIDDEN_NAMES.has(name)) {
      this.fail(node, 'a property name other than __proto__, constructor or prototype', `\`${name}\``)
    }
    return name
  }

  /** Values read from the scope are typed as JSON but arrive from apps; verify before use. */
  private checkValue(node: ConditionAst, value: unknown): ConditionValue {
    if (!isConditionValue(value)) return this.fail(node, 'a JSON value', describeFound(value))
    return value
  }
}

/** Printing a hand-built malformed tree must not turn one error into another. */
function safePrint(node: ConditionAst): string {
  try {
    const printed: unknown = printCondition(node)
    return typeof printed === 'string' ? printed : '<unprintable>'
  } catch {
    return '<unprintable>'
  }
}
