import { describe, expect, it } from 'vitest'
import { estimateTokens } from './token-estimate.js'

describe('estimateTokens', () => {
  it('counts about four ASCII characters a token, rounded up', () => {
    expect(estimateTokens('')).toBe(0)
    expect(estimateTokens('abcd')).toBe(1)
    expect(estimateTokens('abcde')).toBe(2)
    expect(estimateTokens('x'.repeat(400))).toBe(100)
  })

  it('weighs other scripts and emoji more', () => {
    expect(estimateTokens('éé')).toBe(1)
    expect(estimateTokens('日本語')).toBe(3)
    expect(estimateTokens('😀')).toBe(2)
    expect(estimateTokens('日本語')).toBeGreaterThan(estimateTokens('abc'))
  })

  it('is deterministic and additive up to rounding', () => {
    const a = 'button "Approve payout" [approve-payout write confirm] @n9x0a'
    const b = 'state: {"claim":{"id":"c-1001"}}'
    expect(estimateTokens(a)).toBe(estimateTokens(a))
    expect(Math.abs(estimateTokens(a + b) - estimateTokens(a) - estimateTokens(b))).toBeLessThanOrEqual(1)
  })
})
