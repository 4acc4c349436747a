import { createHash, randomBytes } from 'node:crypto'
import type { Principal } from '@tessera/protocol'

/**
 * One-time console login codes. The hub prints a link on start so a human can open the
 * console without pasting a long-lived token into a browser; the console trades the code
 * for a session once, and the code is dead afterwards or after its TTL, whichever is first.
 *
 * In memory on purpose: a restart invalidates every pending link, which is the safe way
 * round for something printed to a terminal's scrollback.
 */

export const DEFAULT_LOGIN_TTL_MS = 10 * 60 * 1000
const CODE_PREFIX = 'lgn_'

export interface LoginLinksOptions {
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number
  /** Bounds memory if something issues codes in a loop; the oldest pending code is dropped. */
  maxPending?: number
}

interface Pending {
  principal: Principal
  expiresAt: number
}

export class LoginLinks {
  // Keyed by a digest of the code so a lookup never compares the secret itself byte by byte.
  private readonly pending = new Map<string, Pending>()
  private readonly now: () => number
  private readonly maxPending: number

  constructor(options: LoginLinksOptions = {}) {
    this.now = options.now ?? Date.now
    this.maxPending = options.maxPending ?? 64
  }

  issue(principal: Principal, ttlMs: number = DEFAULT_LOGIN_TTL_MS): string {
    if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) throw new RangeError(`login link TTL must be a positive number of ms, got ${ttlMs}`)
    this.sweep()
    while (this.pending.size >= this.maxPending) {
      const oldest = this.pending.keys().next()
      if (oldest.done === true) break
      this.pending.delete(oldest.value)
    }
    const code = CODE_PREFIX + randomBytes(32).toString('base64url')
    this.pending.set(digest(code), {
      principal: { id: principal.id, roles: [...principal.roles] },
      expiresAt: this.now() + ttlMs,
    })
    return code
  }

  /** The principal the code was issued for, at most once; null when unknown, used or expired. */
  redeem(code: string): Principal | null {
    if (typeof code !== 'string' || !code.startsWith(CODE_PREFIX) || code.length > 128) return null
    const key = digest(code)
    const entry = this.pending.get(key)
    if (entry === undefined) return null
    // Deleted before the expiry test: an expired code is as spent as a used one.
    this.pending.delete(key)
    if (this.now() >= entry.expiresAt) return null
    return { id: entry.principal.id, roles: [...entry.principal.roles] }
  }

  /** Pending, unexpired codes (for tests and diagnostics). */
  get size(): number {
    this.sweep()
    return this.pending.size
  }

  private sweep(): void {
    const now = this.now()
    for (const [key, entry] of this.pending) if (now >= entry.expiresAt) this.pending.delete(key)
  }
}

/**
 * The link printed to the console. The code travels in the fragment, which browsers never
 * send to a server: it stays out of access logs, proxies and Referer headers. The console
 * page reads it and POSTs it to the hub to redeem it.
 */
export function formatLoginLink(baseUrl: string, code: string): string {
  const url = new URL(baseUrl)
  url.hash = `code=${encodeURIComponent(code)}`
  return url.toString()
}

function digest(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex')
}
