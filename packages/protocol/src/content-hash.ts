import { createHash } from 'node:crypto'
import canonicalizeImport from 'canonicalize'
import { TesseraError } from './errors.js'

// canonicalize ships CommonJS with a default export; under NodeNext it arrives wrapped.
const canonicalize = canonicalizeImport as unknown as (value: unknown) => string | undefined

/** Keys JavaScript orders before all others in an object, whatever the order they were set in. */
const ARRAY_INDEX = /^(0|[1-9]\d*)$/

/**
 * A copy of plain JSON with every object's keys inserted in RFC 8785 order, so the native
 * JSON.stringify writes the canonical text (its numbers and string escapes are RFC 8785's).
 * Returns undefined for anything it cannot vouch for — array-index keys (which objects
 * always list first), `__proto__`, non-plain objects — and the library then decides.
 */
function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) {
      const item = sortedCopy(value[i])
      if (item === undefined && value[i] !== undefined) return undefined
      out[i] = item
    }
    return out
  }
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return undefined
  const keys = Object.keys(value).sort()
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    if (key === '__proto__' || ARRAY_INDEX.test(key)) return undefined
    const raw = (value as Record<string, unknown>)[key]
    const item = sortedCopy(raw)
    if (item === undefined && raw !== undefined) return undefined
    out[key] = item
  }
  return out
}

/** RFC 8785 canonical JSON: same value → same bytes, whatever the key order. */
export function canonicalJson(value: unknown): string {
  // Twice as fast as the library on a large frame; the library stays the reference.
  const sorted = typeof value === 'object' && value !== null ? sortedCopy(value) : undefined
  if (sorted !== undefined) return JSON.stringify(sorted)
  const text = canonicalize(value)
  if (text === undefined) {
    throw new TesseraError('invalid_request', 'expected a JSON value to canonicalize, found undefined')
  }
  return text
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

export function contentHash(value: unknown): string {
  return sha256Hex(canonicalJson(value))
}
