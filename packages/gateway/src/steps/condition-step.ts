import { type CompiledCondition, type JsonObject, compileCondition } from '@tessera/protocol'
import { type StepEnd, toErrorShape } from './step-end.js'

/** Conditions compiled once per source and kept: contracts repeat the same few. */
export class ConditionBook {
  readonly #compiled = new Map<string, CompiledCondition>()

  /**
   * Every condition over `scope`: null when all hold; `failStatus` naming the first that does
   * not; `condition_error` when one cannot be evaluated — never silently false.
   */
  check(sources: readonly string[], scope: JsonObject, failStatus: 'precondition_failed' | 'postcondition_failed'): StepEnd | null {
    for (const source of sources) {
      try {
        if (!this.#compile(source).check(scope)) {
          return { status: failStatus, error: { code: 'conflict', message: `${failStatus === 'precondition_failed' ? 'precondition' : 'postcondition'} does not hold: ${source}`, details: { condition: source } } }
        }
      } catch (error) {
        return { status: 'condition_error', error: toErrorShape(error, `condition could not be evaluated: ${source}`) }
      }
    }
    return null
  }

  #compile(source: string): CompiledCondition {
    let compiled = this.#compiled.get(source)
    if (compiled === undefined) {
      compiled = compileCondition(source)
      this.#compiled.set(source, compiled)
    }
    return compiled
  }
}
