import { describe, expect, it } from 'vitest'
import { PrincipalRateLimiter, rateLimitProblem } from './principal-rate-limit.js'

describe('PrincipalRateLimiter', () => {
  it('allows a burst, then refuses with a retry time, then refills', () => {
    const limiter = new PrincipalRateLimiter({ burst: 3, perSecond: 2 })
    const t = 10_000
    expect(limiter.take('a', t)).toEqual({ ok: true })
    expect(limiter.take('a', t)).toEqual({ ok: true })
    expect(limiter.take('a', t)).toEqual({ ok: true })
    expect(limiter.take('a', t)).toEqual({ ok: false, retryAfterMs: 500 })
    expect(limiter.take('a', t + 499)).toMatchObject({ ok: false })
    expect(limiter.take('a', t + 500)).toEqual({ ok: true })
    expect(limiter.take('a', t + 500)).toMatchObject({ ok: false })
  })

  it('keeps principals apart', () => {
    const limiter = new PrincipalRateLimiter({ burst: 1, perSecond: 1 })
    expect(limiter.take('agent', 0).ok).toBe(true)
    expect(limiter.take('agent', 0).ok).toBe(false)
    expect(limiter.take('admin', 0).ok).toBe(true)
  })

  it('sustains the configured rate and never exceeds the burst after idling', () => {
    const limiter = new PrincipalRateLimiter({ burst: 5, perSecond: 10 })
    let allowed = 0
    for (let t = 0; t < 10_000; t += 10) if (limiter.take('p', t).ok) allowed++
    // 5 at once + 10/s over ~10 s.
    expect(allowed).toBeGreaterThanOrEqual(100)
    expect(allowed).toBeLessThanOrEqual(105)

    let burst = 0
    for (let i = 0; i < 20; i++) if (limiter.take('p', 1_000_000).ok) burst++
    expect(burst).toBe(5)
  })

  it('a clock that steps backwards does not mint tokens', () => {
    const limiter = new PrincipalRateLimiter({ burst: 1, perSecond: 1 })
    expect(limiter.take('p', 5000).ok).toBe(true)
    expect(limiter.take('p', 1000).ok).toBe(false)
    expect(limiter.take('p', 5999).ok).toBe(false)
    expect(limiter.take('p', 6000).ok).toBe(true)
  })

  it('stays bounded: idle principals are evicted, then the least recently seen', () => {
    const limiter = new PrincipalRateLimiter({ burst: 2, perSecond: 1, maxPrincipals: 100 })
    for (let i = 0; i < 1000; i++) limiter.take(`p${i}`, 0)
    expect(limiter.size).toBeLessThanOrEqual(100)

    // Long after, everyone has refilled; a sweep drops them all but the one just seen.
    for (let i = 0; i < 100; i++) limiter.take('late', 1_000_000 + i * 1000)
    expect(limiter.size).toBeLessThanOrEqual(2)
  })

  it('a recently active principal survives LRU eviction', () => {
    const limiter = new PrincipalRateLimiter({ burst: 1, perSecond: 0.001, maxPrincipals: 3 })
    limiter.take('hot', 0)
    limiter.take('a', 0)
    limiter.take('b', 0)
    limiter.take('hot', 1)
    limiter.take('c', 1)
    expect(limiter.take('hot', 2).ok).toBe(false)
  })

  it('rejects nonsense options', () => {
    expect(() => new PrincipalRateLimiter({ burst: 0 })).toThrow(RangeError)
    expect(() => new PrincipalRateLimiter({ perSecond: -1 })).toThrow(RangeError)
    expect(() => new PrincipalRateLimiter({ maxPrincipals: Number.NaN })).toThrow(RangeError)
  })

  it('rateLimitProblem is a 429 with Retry-After in whole seconds', () => {
    const p = rateLimitProblem('agent', 1200)
    expect(p.status).toBe(429)
    expect(p.error.code).toBe('rate_limited')
    expect(p.headers).toEqual({ 'retry-after': '2' })
    expect(p.error.details).toEqual({ principal: 'agent', retryAfterMs: 1200 })
  })
})
