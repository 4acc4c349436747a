import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { plainJson } from './plain-json.js'

describe('plainJson', () => {
  it('gives what a JSON round trip gives, for any JSON-like value with holes', () => {
    const leaf = fc.oneof(fc.string(), fc.boolean(), fc.double(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.constant(Number.NaN), fc.constant(() => 1))
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 5 }),
      object: fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), tie('node'), { maxKeys: 5 }),
    })).node
    fc.assert(
      fc.property(value, (v) => {
        const text = JSON.stringify(v)
        expect(plainJson(v)).toStrictEqual(text === undefined ? undefined : JSON.parse(text))
      }),
      { numRuns: 500 },
    )
  })

  it('writes negative zero as JSON does, as 0 (a case random numbers only sometimes draw)', () => {
    expect(Object.is(plainJson(-0), 0)).toBe(true)
    expect(plainJson([-0, { n: -0 }])).toStrictEqual(JSON.parse(JSON.stringify([-0, { n: -0 }])))
  })

  it('asks a value with toJSON for it, and refuses a bigint', () => {
    const when = new Date(0)
    expect(plainJson({ when })).toEqual({ when: when.toJSON() })
    expect(() => plainJson({ n: 1n })).toThrow(/bigint/)
  })
})
