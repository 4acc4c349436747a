import type { ActionContract, Principal } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { PolicyEngine } from './policy-engine.js'
import { RateLimiter } from './rate-limiter.js'

const contract = (risk: ActionContract['risk'], requiresConfirmation = false): ActionContract => ({
  id: `do-${risk}`,
  kind: 'do',
  title: 'Do',
  risk,
  requiresConfirmation,
  preconditions: [],
  postconditions: [],
})
const agent: Principal = { id: 'a', roles: ['agent'] }
const query = (c: ActionContract, input: unknown = {}) => ({ actor: agent, surface: 's', contract: c, input: input as never, state: {} })

describe('PolicyEngine', () => {
  it('defaults: destructive and external need approval; read and write follow the contract', () => {
    const engine = new PolicyEngine()
    expect(engine.decide(query(contract('destructive')))).toMatchObject({ verdict: 'allow', needsApproval: true })
    expect(engine.decide(query(contract('external')))).toMatchObject({ verdict: 'allow', needsApproval: true })
    expect(engine.decide(query(contract('write')))).toMatchObject({ verdict: 'allow', needsApproval: false })
    expect(engine.decide(query(contract('write', true)))).toMatchObject({ verdict: 'allow', needsApproval: true })
  })

  it('first matching rule wins; matching by action, surface, risk, actor, role and condition', () => {
    const engine = new PolicyEngine({
      rules: [
        { id: 'big', effect: 'deny', risks: ['write'], when: 'input.amount > 100' },
        { id: 'ok', effect: 'allow_without_approval', surfaces: ['s'], roles: ['agent'], risks: ['external'] },
        { id: 'never', effect: 'deny', actors: ['someone-else'] },
      ],
    })
    expect(engine.decide(query(contract('write'), { amount: 500 }))).toMatchObject({ verdict: 'deny', rule: 'big' })
    expect(engine.decide(query(contract('write'), { amount: 5 }))).toMatchObject({ verdict: 'allow', rule: null })
    expect(engine.decide(query(contract('external')))).toMatchObject({ verdict: 'allow', needsApproval: false, rule: 'ok' })
  })

  it('a deny rule whose condition cannot be evaluated still denies; other rules surface the error', () => {
    const engine = new PolicyEngine({ rules: [{ id: 'strict', effect: 'deny', when: 'input.limits.max > 1' }] })
    expect(engine.decide(query(contract('write'), {}))).toMatchObject({ verdict: 'deny', rule: 'strict' })
    const lax = new PolicyEngine({ rules: [{ id: 'lax', effect: 'allow', when: 'input.limits.max > 1' }] })
    expect(() => lax.decide(query(contract('write'), {}))).toThrow(expect.objectContaining({ code: 'condition_error' }))
  })

  it('refuses a bad policy when it is loaded, not when a request arrives', () => {
    expect(() => new PolicyEngine({ rules: [{ id: 'x', effect: 'deny', when: 'constructor.constructor("x")()' }] })).toThrow(expect.objectContaining({ code: 'invalid_condition' }))
    expect(() => new PolicyEngine({ rules: [{ id: 'x', effect: 'maybe' as never }] })).toThrow(expect.objectContaining({ code: 'invalid_request' }))
  })
})

describe('RateLimiter', () => {
  it('allows n per window per principal and says how long to wait', () => {
    const limiter = new RateLimiter({ requests: 2, windowMs: 1000 })
    expect(limiter.take('a', 0)).toBe(0)
    expect(limiter.take('a', 100)).toBe(0)
    expect(limiter.take('a', 200)).toBe(800)
    expect(limiter.take('b', 200)).toBe(0)
    expect(limiter.take('a', 1001)).toBe(0)
  })
})
