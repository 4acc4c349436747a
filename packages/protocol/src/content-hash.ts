import { createHash } from 'node:crypto'
import canonicalizeImport from 'canonicalize'
import { TesseraError } from './errors.js'

// canonicalize ships CommonJS with a default export; under NodeNext it arrives wrapped.
const canonicalize = canonicalizeImport as unknown as (value: unknown) => string | undefined

/** Keys JavaScript orders before all others in an object, whatever the order they were set in. */
const ARRAY_INDEX = /^(0|[1-9]\d*)$/

/** Thrown inside the writer when a value needs the library's judgement (see canonicalWrite). */
const DEFER = Symbol('defer to the library')

/**
 * Canonical texts of values that cannot change: a contract a surface offers in every frame
 * is written once, then spliced into each frame's text as it is.
 */
const frozenTexts = new WeakMap<object, string>()

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return
  Object.freeze(value)
  for (const inner of Object.values(value)) deepFreeze(inner)
}

/**
 * Freezes a JSON value for good and remembers its canonical text, so every canonicalJson
 * that contains it reuses the text. For values offered again and again, unchanged.
 */
export function freezeCanonical<T extends object>(value: T): T {
  deepFreeze(value)
  if (!frozenTexts.has(value)) frozenTexts.set(value, canonicalJson(value))
  return value
}

/**
 * Writes plain JSON in RFC 8785 form: keys in UTF-16 order, numbers and string escapes as
 * JSON.stringify writes them (which are RFC 8785's). Throws DEFER for anything it cannot
 * vouch for — array-index keys (which objects always list first), `__proto__`, non-plain
 * objects — and the library then decides.
 */
function canonicalWrite(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    // undefined, functions and symbols inside arrays are written as null, as JSON.stringify does.
    out.push(value === undefined || typeof value === 'function' || typeof value === 'symbol' ? 'null' : JSON.stringify(value))
    return
  }
  const known = frozenTexts.get(value)
  if (known !== undefined) {
    out.push(known)
    return
  }
  if (Array.isArray(value)) {
    out.push('[')
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',')
      canonicalWrite(value[i], out)
    }
    out.push(']')
    return
  }
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) throw DEFER
  const keys = Object.keys(value).sort()
  out.push('{')
  let first = true
  for (const key of keys) {
    if (key === '__proto__' || ARRAY_INDEX.test(key)) throw DEFER
    const inner = (value as Record<string, unknown>)[key]
    // Left out, as JSON.stringify leaves them out of objects.
    if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue
    if (!first) out.push(',')
    first = false
    out.push(JSON.stringify(key), ':')
    canonicalWrite(inner, out)
  }
  out.push('}')
}

/** RFC 8785 canonical JSON: same value → same bytes, whatever the key order. */
export function canonicalJson(value: unknown): string {
  // Several times faster than the library on a large frame; the library stays the reference.
  if (typeof value === 'object' && value !== null) {
    const out: string[] = []
    try {
      canonicalWrite(value, out)
      return out.join('')
    } catch (error) {
      if (error !== DEFER) throw error
    }
  }
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
