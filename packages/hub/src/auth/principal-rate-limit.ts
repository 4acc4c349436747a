import type { GuardProblem } from './request-guard.js'

/**
 * A token bucket per principal for HTTP requests: `burst` requests at once, refilled at
 * `perSecond`. Buckets rather than fixed windows so a client cannot double its rate at a
 * window boundary, and O(1) state per principal rather than a log of timestamps.
 *
 * This limits transport load. The gateway's policy has its own, per-action rate limits
 * and budgets; this one only keeps a single token from starving the hub.
 *
 * Memory stays bounded: a bucket that has refilled to full is indistinguishable from a
 * fresh one, so idle principals are dropped; if more than `maxPrincipals` are active at
 * once, the least recently seen is dropped (it only regains a fresh burst — principals are
 * token holders, so this is not a way for strangers to grow the map).
 */

export interface PrincipalRateLimitOptions {
  /** Bucket size: requests allowed back to back. */
  burst?: number
  /** Sustained requests per second. */
  perSecond?: number
  maxPrincipals?: number
}

export type TakeResult = { ok: true } | { ok: false; retryAfterMs: number }

interface Bucket {
  tokens: number
  at: number
}

export class PrincipalRateLimiter {
  readonly burst: number
  readonly perSecond: number
  readonly maxPrincipals: number
  // Map iteration order is insertion order; re-inserting on each take makes it LRU order.
  private readonly buckets = new Map<string, Bucket>()
  private takesSinceSweep = 0

  constructor(options: PrincipalRateLimitOptions = {}) {
    this.burst = positive('burst', options.burst ?? 60)
    this.perSecond = positive('perSecond', options.perSecond ?? 20)
    this.maxPrincipals = positive('maxPrincipals', options.maxPrincipals ?? 10_000)
  }

  take(principalId: string, now: number = Date.now()): TakeResult {
    const bucket = this.buckets.get(principalId)
    const tokens = bucket === undefined ? this.burst : this.refilled(bucket, now)
    // A clock that steps backwards must not mint tokens, nor stall refills forever.
    const at = bucket === undefined ? now : Math.max(bucket.at, now)
    this.buckets.delete(principalId)
    if (tokens >= 1) {
      this.buckets.set(principalId, { tokens: tokens - 1, at })
      this.maintain(now)
      return { ok: true }
    }
    this.buckets.set(principalId, { tokens, at })
    this.maintain(now)
    return { ok: false, retryAfterMs: Math.max(1, Math.ceil(((1 - tokens) / this.perSecond) * 1000)) }
  }

  /** Principals currently tracked (for tests and diagnostics). */
  get size(): number {
    return this.buckets.size
  }

  private refilled(bucket: Bucket, now: number): number {
    const elapsed = Math.max(0, now - bucket.at)
    return Math.min(this.burst, bucket.tokens + (elapsed * this.perSecond) / 1000)
  }

  private maintain(now: number): void {
    // Sweeping is O(n), so it runs once per maxPrincipals takes or when over the bound:
    // amortised O(1) per request.
    this.takesSinceSweep++
    if (this.buckets.size > this.maxPrincipals || this.takesSinceSweep >= this.maxPrincipals) {
      this.takesSinceSweep = 0
      for (const [id, bucket] of this.buckets) if (this.refilled(bucket, now) >= this.burst) this.buckets.delete(id)
    }
    while (this.buckets.size > this.maxPrincipals) {
      const oldest = this.buckets.keys().next()
      if (oldest.done === true) break
      this.buckets.delete(oldest.value)
    }
  }
}

/** The 429 to send when take() refuses; Retry-After is in whole seconds per RFC 9110. */
export function rateLimitProblem(principalId: string, retryAfterMs: number): GuardProblem {
  return {
    status: 429,
    error: {
      code: 'rate_limited',
      message: `too many requests from principal "${principalId}"; retry in ${retryAfterMs} ms`,
      details: { principal: principalId, retryAfterMs },
    },
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  }
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`)
  return value
}
