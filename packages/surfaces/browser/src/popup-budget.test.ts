import { describe, expect, it } from 'vitest'
import { MAX_POPUPS, PopupBudget } from './popup-budget.js'

describe('PopupBudget', () => {
  it('lets five windows stay within a minute, counts the rest, and starts again once the minute has passed', () => {
    const budget = new PopupBudget()
    for (let i = 0; i < MAX_POPUPS; i++) expect(budget.take(1_000 + i)).toBe(true)
    expect(budget.said('opened one')).toBe('opened one')
    expect(budget.take(2_000)).toBe(false)
    expect(budget.take(3_000)).toBe(false)
    expect(budget.said('opened one')).toBe('opened one; 2 more windows it opened within a minute were closed as they opened (at most 5 stay)')
    // A minute after the last that stayed, the count starts again.
    expect(budget.take(61_005)).toBe(true)
    expect(budget.said('opened one')).toBe('opened one')
  })
})
