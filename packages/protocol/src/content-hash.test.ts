import canonicalizeImport from 'canonicalize'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from './content-hash.js'

const reference = canonicalizeImport as unknown as (value: unknown) => string | undefined

describe('canonicalJson', () => {
  it('writes exactly the reference RFC 8785 text for any JSON value', () => {
    const json = fc.jsonValue({ maxDepth: 5 })
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(reference(value))
      }),
      { numRuns: 2000 },
    )
  })

  it('agrees where JavaScript key order differs from RFC 8785 order: array-index keys, unicode, -0, escapes', () => {
    const cases: unknown[] = [
      { 10: 'a', 9: 'b', a: 1, '': 2 },
      { b: { '2024': 1, x: [{ '1': true }] } },
      { é: 1, e: 2, '\u00ff': 3, '\ud83d\ude00': 4, Z: 5 },
      { n: -0, big: 1e21, small: 1e-7, s: 'quote " backslash \\ line\n tab\t \u0001 \ud800' },
      [undefined, null, { u: undefined, v: 1 }],
    ]
    for (const value of cases) expect(canonicalJson(value)).toBe(reference(value))
  })
})
