import type { RateLimit } from './policy-config.js'

/** A sliding-window counter per principal; memory is bounded by the window's requests. */
export class RateLimiter {
  readonly #limit: RateLimit
  readonly #hits = new Map<string, number[]>()

  constructor(limit: RateLimit) {
    this.#limit = limit
  }

  /** Records a hit and returns ms until the next allowed one, or 0 when allowed now. */
  take(principal: string, now: number): number {
    const since = now - this.#limit.windowMs
    const hits = (this.#hits.get(principal) ?? []).filter((time) => time > since)
    if (hits.length >= this.#limit.requests) {
      this.#hits.set(principal, hits)
      return (hits[0] ?? now) + this.#limit.windowMs - now
    }
    hits.push(now)
    this.#hits.set(principal, hits)
    return 0
  }
}
