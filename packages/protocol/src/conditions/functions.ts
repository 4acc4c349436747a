import type { ConditionValue } from './ast.js'
import { isPlainObject } from './json-values.js'

/**
 * The only functions a condition may call. Each is pure and deterministic (no `now()`, no
 * randomness) so a condition gives the same answer on replay as it did live.
 */

export interface FunctionContext {
  /** Throws a condition_error for this call, saying what was expected and what was found. */
  fail(expected: string, found: ConditionValue): never
  /** Deep JSON equality that draws on the evaluation step budget. */
  equals(a: ConditionValue, b: ConditionValue): boolean
}

export interface ConditionFunction {
  readonly minArgs: number
  readonly maxArgs: number
  /** How the function is called, for error messages. */
  readonly signature: string
  apply(args: readonly ConditionValue[], context: FunctionContext): ConditionValue
}

function stringArg(args: readonly ConditionValue[], index: number, name: string, context: FunctionContext): string {
  const value = args[index]
  if (typeof value !== 'string') return context.fail(`argument ${index + 1} of ${name}() to be a string`, value)
  return value
}

function numberArg(value: ConditionValue, what: string, context: FunctionContext): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return context.fail(`${what} to be a finite number`, value)
  return value
}

function extreme(name: 'min' | 'max', pick: (a: number, b: number) => number): ConditionFunction {
  return {
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    signature: `${name}(number, …) or ${name}(array of numbers)`,
    apply(args, context) {
      // One array argument reads naturally for state like `max(claim.amounts)`.
      const only = args[0]
      const values = args.length === 1 && Array.isArray(only) ? only : args
      if (values.length === 0) return context.fail(`a non-empty array for ${name}()`, only)
      let result = numberArg(values[0], `every value passed to ${name}()`, context)
      for (let i = 1; i < values.length; i++) {
        result = pick(result, numberArg(values[i], `every value passed to ${name}()`, context))
      }
      return result
    },
  }
}

const entries: ReadonlyArray<readonly [string, ConditionFunction]> = [
  [
    'len',
    {
      minArgs: 1,
      maxArgs: 1,
      signature: 'len(string | array | object)',
      apply([value], context) {
        // Strings count UTF-16 code units, matching `.length`, so the two never disagree.
        if (typeof value === 'string' || Array.isArray(value)) return value.length
        if (isPlainObject(value)) return Object.keys(value).length
        return context.fail('argument 1 of len() to be a string, array or object', value)
      },
    },
  ],
  [
    'lower',
    {
      minArgs: 1,
      maxArgs: 1,
      signature: 'lower(string)',
      apply(args, context) {
        return stringArg(args, 0, 'lower', context).toLowerCase()
      },
    },
  ],
  [
    'upper',
    {
      minArgs: 1,
      maxArgs: 1,
      signature: 'upper(string)',
      apply(args, context) {
        return stringArg(args, 0, 'upper', context).toUpperCase()
      },
    },
  ],
  [
    'includes',
    {
      minArgs: 2,
      maxArgs: 2,
      signature: 'includes(array | string, value)',
      apply([haystack, needle], context) {
        if (Array.isArray(haystack)) return haystack.some((item: ConditionValue) => context.equals(item, needle))
        if (typeof haystack === 'string') {
          if (typeof needle !== 'string') return context.fail('argument 2 of includes() to be a string when searching a string', needle)
          return haystack.includes(needle)
        }
        return context.fail('argument 1 of includes() to be an array or a string', haystack)
      },
    },
  ],
  [
    'startsWith',
    {
      minArgs: 2,
      maxArgs: 2,
      signature: 'startsWith(string, string)',
      apply(args, context) {
        return stringArg(args, 0, 'startsWith', context).startsWith(stringArg(args, 1, 'startsWith', context))
      },
    },
  ],
  [
    'endsWith',
    {
      minArgs: 2,
      maxArgs: 2,
      signature: 'endsWith(string, string)',
      apply(args, context) {
        return stringArg(args, 0, 'endsWith', context).endsWith(stringArg(args, 1, 'endsWith', context))
      },
    },
  ],
  [
    'abs',
    {
      minArgs: 1,
      maxArgs: 1,
      signature: 'abs(number)',
      apply([value], context) {
        return Math.abs(numberArg(value, 'argument 1 of abs()', context))
      },
    },
  ],
  [
    'round',
    {
      minArgs: 1,
      maxArgs: 1,
      signature: 'round(number)',
      apply([value], context) {
        // Math.round semantics: halves round towards +∞ (round(-2.5) is -2).
        return Math.round(numberArg(value, 'argument 1 of round()', context))
      },
    },
  ],
  ['min', extreme('min', Math.min)],
  ['max', extreme('max', Math.max)],
]

/** A Map, not an object, so a name like `constructor` can never find an inherited entry. */
export const CONDITION_FUNCTIONS: ReadonlyMap<string, ConditionFunction> = new Map(entries)

export const CONDITION_FUNCTION_NAMES: readonly string[] = [...CONDITION_FUNCTIONS.keys()]
