import { type JsonValue, TesseraError } from '@tessera/protocol'

/**
 * Input checks for perform(). The gateway validates inputs against each contract's JSON
 * Schema first; these run anyway because a surface can be driven without a gateway, and
 * each error names the field, what was expected and what was found.
 */

export type InputObject = { readonly [key: string]: JsonValue }

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function invalid(action: string, field: string, expected: string, found: unknown): TesseraError {
  const shown = typeof found === 'string' ? (found.length > 40 ? `"${found.slice(0, 40)}…"` : `"${found}"`) : typeof found === 'number' ? String(found) : kindOf(found)
  return new TesseraError('invalid_input', `${action}: expected "${field}" to be ${expected}, found ${found === undefined ? 'nothing' : shown}`, { field, expected, found: found === undefined ? null : kindOf(found) })
}

export function objectInput(action: string, input: JsonValue | undefined, allowed: readonly string[]): InputObject {
  if (input === undefined || input === null) return {}
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new TesseraError('invalid_input', `${action}: expected an input object, found ${kindOf(input)}`, { expected: 'object', found: kindOf(input) })
  }
  const unknown = Object.keys(input).filter((key) => !allowed.includes(key))
  if (unknown.length > 0) {
    throw new TesseraError('invalid_input', `${action}: expected only the fields ${allowed.map((k) => `"${k}"`).join(', ')}, found ${unknown.map((k) => `"${k}"`).join(', ')}`, { expected: [...allowed], found: unknown })
  }
  return input
}

export function requiredString(action: string, input: InputObject, field: string): string {
  const value = input[field]
  if (typeof value !== 'string') throw invalid(action, field, 'a string', value)
  return value
}

export function optionalString(action: string, input: InputObject, field: string): string | undefined {
  const value = input[field]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw invalid(action, field, 'a string', value)
  return value
}

export function optionalBoolean(action: string, input: InputObject, field: string, fallback: boolean): boolean {
  const value = input[field]
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') throw invalid(action, field, 'true or false', value)
  return value
}

export function optionalInteger(action: string, input: InputObject, field: string, bounds: { min: number; max: number; fallback: number }): number {
  const value = input[field]
  if (value === undefined) return bounds.fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw invalid(action, field, `an integer from ${bounds.min} to ${bounds.max}`, value)
  }
  return value
}

export function optionalEnum<T extends string>(action: string, input: InputObject, field: string, values: readonly T[], fallback: T): T {
  const value = input[field]
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) throw invalid(action, field, `one of ${values.map((v) => `"${v}"`).join(', ')}`, value)
  return value as T
}
