import { randomBytes } from 'node:crypto'
import type { Principal } from '@tessera/protocol'

export const CONSOLE_COOKIE = 'tessera_console'
const TTL_MS = 12 * 60 * 60 * 1000

/**
 * Browser sessions created by redeeming a one-time login link: an HttpOnly, SameSite=Strict
 * cookie stands in for the token so the console never has to hold a secret in script.
 */
export class ConsoleSessions {
  readonly #sessions = new Map<string, { principal: Principal; expiresAt: number }>()

  open(principal: Principal, now = Date.now()): string {
    const secret = randomBytes(32).toString('base64url')
    this.#sessions.set(secret, { principal, expiresAt: now + TTL_MS })
    return secret
  }

  principal(secret: string | undefined, now = Date.now()): Principal | null {
    if (secret === undefined) return null
    const entry = this.#sessions.get(secret)
    if (entry === undefined) return null
    if (entry.expiresAt <= now) {
      this.#sessions.delete(secret)
      return null
    }
    return entry.principal
  }
}
