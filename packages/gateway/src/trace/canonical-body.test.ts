import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from '@tessera/protocol'
import { plainCanonicalJson } from './canonical-body.js'

/** Objects whose keys exercise RFC 8785 ordering: array-index-like, astral, empty, lone surrogates. */
const awkwardKeys = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('', '10', '9', '0', '01', '\u{1F600}', '\uFFFF', '\uD800', 'a', 'B', 'é'),
)

const numbers = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 0.1 + 0.2),
)

const plainJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary' }),
    numbers,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value')),
    fc.dictionary(awkwardKeys, tie('value')),
  ),
})).value

function hasOwnProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return true
  return Object.values(value).some(hasOwnProtoKey)
}

describe('plainCanonicalJson', () => {
  it('produces the bytes of protocol canonicalJson for any plain JSON value', () => {
    fc.assert(
      fc.property(plainJson, (value) => {
        expect(plainCanonicalJson(value)).toBe(canonicalJson(value))
      }),
      { numRuns: 2000 },
    )
  })

  it('agrees with canonicalJson on fast-check JSON values, declining only own __proto__ keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const fast = plainCanonicalJson(value)
        if (fast === undefined) expect(hasOwnProtoKey(value)).toBe(true)
        else expect(fast).toBe(canonicalJson(value))
      }),
      { numRuns: 1000 },
    )
  })

  it.each<[string, unknown]>([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['undefined', undefined],
    ['an undefined property', { a: undefined }],
    ['an array hole', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['a function', () => 1],
    ['a bigint', 1n],
    ['a Date', new Date(0)],
    ['a class instance', new (class Point { x = 1 })()],
    ['an own __proto__ key', JSON.parse('{"__proto__": {"polluted": true}}')],
    ['a symbol key', { [Symbol('s')]: 1 }],
    ['a nested problem', { ok: [1, { bad: Number.NaN }] }],
  ])('declines %s, so the caller falls back to the full schema', (_label, value) => {
    expect(plainCanonicalJson(value)).toBeUndefined()
  })

  it('accepts objects without a prototype', () => {
    const bare = Object.assign(Object.create(null) as object, { b: 1, a: 2 })
    expect(plainCanonicalJson(bare)).toBe('{"a":2,"b":1}')
  })
})
