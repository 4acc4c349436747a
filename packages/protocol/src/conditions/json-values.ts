import type { JsonObject } from '../schemas/json.js'
import type { ConditionValue } from './ast.js'

/**
 * Reading plain JSON without ever touching the prototype chain or running caller code.
 * The scope is typed as JSON, but it arrives from apps at run time, so every read checks
 * what it actually got.
 */

export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** True for values the evaluator may hold: JSON values (shallowly) and `undefined`. */
export function isConditionValue(value: unknown): value is ConditionValue {
  switch (typeof value) {
    case 'undefined':
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(value)
    case 'object':
      return value === null || Array.isArray(value) || isPlainObject(value)
    default:
      return false
  }
}

export type OwnRead = { readonly found: true; readonly value: unknown } | { readonly found: false }

/**
 * An own data property, or nothing. Accessors are reported as not found rather than
 * invoked: JSON never has them, and calling one would run code the state smuggled in.
 */
export function readOwn(container: object, key: string | number): OwnRead {
  const descriptor = Object.getOwnPropertyDescriptor(container, key)
  if (descriptor === undefined || !('value' in descriptor)) return { found: false }
  return { found: true, value: descriptor.value }
}

export function hasOwn(container: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(container, key)
}

/**
 * Structural equality over JSON, with no coercion: `1` never equals `"1"`, key order does
 * not matter. Iterative, because state may nest far deeper than the call stack allows, and
 * `charge` is called per visited pair so the caller's step budget covers big comparisons.
 */
export function jsonEquals(a: unknown, b: unknown, charge: () => void): boolean {
  const pending: Array<[unknown, unknown]> = [[a, b]]
  while (pending.length > 0) {
    const [x, y] = pending.pop() as [unknown, unknown]
    charge()
    if (x === y) continue
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false
      for (let i = 0; i < x.length; i++) pending.push([ownValue(x, i), ownValue(y, i)])
      continue
    }
    if (isPlainObject(x)) {
      if (!isPlainObject(y)) return false
      const xKeys = Object.keys(x)
      if (xKeys.length !== Object.keys(y).length) return false
      for (const key of xKeys) {
        if (!hasOwn(y, key)) return false
        pending.push([ownValue(x, key), ownValue(y, key)])
      }
      continue
    }
    // Primitives that are not `===` differ; anything exotic is never equal to anything.
    return false
  }
  return true
}

function ownValue(container: object, key: string | number): unknown {
  const read = readOwn(container, key)
  return read.found ? read.value : undefined
}

/** A short description of a value for "expected …, found …" messages. */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'undefined (missing)'
  if (value === null) return 'null'
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value
    return `string ${JSON.stringify(shown)}`
  }
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`
  if (Array.isArray(value)) return `array(${value.length})`
  if (isPlainObject(value)) return 'object'
  if (typeof value === 'object') return 'a non-plain object'
  return typeof value
}
