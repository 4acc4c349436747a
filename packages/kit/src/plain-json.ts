import { type JsonObject, type JsonValue, TesseraError } from '@tessera/protocol'

/**
 * What `JSON.parse(JSON.stringify(value))` gives, without writing and reading the text: an
 * action's output is made plain JSON once, and a find of 10,000 matches spent some 13 ms
 * doing it through text. Fields that are undefined, functions or symbols are left out (null
 * in an array), numbers that JSON cannot hold become null, a value with `toJSON` is asked for
 * it, and `__proto__` stays an ordinary field.
 */
export function plainJson(value: unknown): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      // JSON has no negative zero: it writes -0 as 0.
      return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null
    case 'bigint':
      throw new TesseraError('internal', 'an action answered a bigint, which JSON cannot hold', { expected: 'JSON', found: 'bigint' })
    case 'object': {
      if (value === null) return null
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return plainJson((value as { toJSON: () => unknown }).toJSON())
      if (Array.isArray(value)) return value.map((item) => plainJson(item) ?? null)
      const out: JsonObject = {}
      for (const [key, field] of Object.entries(value)) {
        const plain = plainJson(field)
        if (plain === undefined) continue
        if (key === '__proto__') Object.defineProperty(out, key, { value: plain, enumerable: true, writable: true, configurable: true })
        else out[key] = plain
      }
      return out
    }
    default:
      return undefined
  }
}
