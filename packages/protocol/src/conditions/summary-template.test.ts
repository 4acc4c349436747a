import { describe, expect, it } from 'vitest'
import { compileSummary, pathsRead } from './summary-template.js'
import { parseCondition } from './parse.js'

describe('summary templates', () => {
  it('fills expressions and formats money, numbers and percentages', () => {
    const scope = { claim: { amount: 1250.5, claimant: 'Ada', score: 0.125, count: 12345 }, input: { note: 'ok' } }
    expect(compileSummary('Pay {claim.amount | currency EUR} to {claim.claimant}').render(scope)).toBe('Pay €1,250.50 to Ada')
    expect(compileSummary('{claim.count | number} rows, {claim.score | percent} risk, {{literal}}').render(scope)).toBe('12,345 rows, 12.5% risk, {literal}')
    expect(compileSummary('{input.note} / {len(claim.claimant)}').render(scope)).toBe('ok / 3')
  })

  it('refuses a template it could not render, saying where', () => {
    expect(() => compileSummary('Pay {claim.amount')).toThrow(/never closed/)
    expect(() => compileSummary('Pay }')).toThrow(/closes nothing/)
    expect(() => compileSummary('Pay {claim.amount | currency euro}')).toThrow(/ISO 4217/)
    expect(() => compileSummary('Pay {claim.amount | bold}')).toThrow(/unknown format/)
    expect(() => compileSummary('Pay {claim.amount +}')).toThrow(/invalid summary template/)
  })

  it('never passes a control character through: it is shown as its escape', () => {
    expect(compileSummary('{x}').render({ x: '\u001b]52;c;Zm9v\u0007hidden\u001b[8m' })).toBe('\\x1b]52;c;Zm9v\\x07hidden\\x1b[8m')
  })

  it('lists the dotted paths a condition reads', () => {
    expect(pathsRead(parseCondition('claim.status === "ready" && claim.fraudScore < max(0.75, input.limit) && items[0].x'))).toEqual(['claim.status', 'claim.fraudScore', 'input.limit', 'items'])
  })
})
