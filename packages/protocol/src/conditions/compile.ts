import type { JsonObject } from '../schemas/json.js'
import { TesseraError } from '../errors.js'
import type { ConditionAst, ConditionValue } from './ast.js'
import { checkCondition, evaluateCondition } from './evaluate.js'
import { parseCondition } from './parse.js'

/** A condition parsed once, ready to be evaluated against many states. */
export interface CompiledCondition {
  readonly source: string
  readonly ast: ConditionAst
  check(scope: JsonObject): boolean
  evaluate(scope: JsonObject): ConditionValue
}

export function compileCondition(source: string): CompiledCondition {
  const ast = parseCondition(source)
  // Carrying the original text means runtime errors quote what the author wrote.
  const options = { source }
  return Object.freeze({
    source,
    ast,
    check: (scope: JsonObject) => checkCondition(ast, scope, options),
    evaluate: (scope: JsonObject) => evaluateCondition(ast, scope, options),
  })
}

/**
 * Compiles a contract's list of conditions, all or nothing; a failure names which entry
 * was bad so the contract author can find it.
 */
export function compileConditions(sources: readonly string[]): CompiledCondition[] {
  return sources.map((source, index) => {
    try {
      return compileCondition(source)
    } catch (error) {
      if (!(error instanceof TesseraError)) throw error
      throw new TesseraError(error.code, `Condition ${index + 1} of ${sources.length}: ${error.message}`, {
        ...error.details,
        index,
      })
    }
  })
}
