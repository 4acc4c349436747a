import { statSync } from 'node:fs'
import type { Principal } from '@tessera/protocol'
import { TokenStore, type TokenAuthenticator } from './token-store.js'

/**
 * The running hub's view of tokens.json. `tessera token create|revoke` edits the file from
 * another process; the hub re-reads it when its modification time changes, so a revoked
 * token stops working on the next request without a restart.
 */
export class LiveTokens implements TokenAuthenticator {
  #store: TokenStore
  #mtimeMs: number
  #reloading: Promise<void> | null = null

  private constructor(store: TokenStore) {
    this.#store = store
    this.#mtimeMs = LiveTokens.#mtime(store.path)
  }

  static async open(dataDir: string): Promise<LiveTokens> {
    return new LiveTokens(await TokenStore.open(dataDir))
  }

  get store(): TokenStore {
    return this.#store
  }

  static #mtime(path: string): number {
    try {
      return statSync(path).mtimeMs
    } catch {
      return 0
    }
  }

  /** Re-reads the file if it changed since the last look. */
  async refresh(): Promise<void> {
    const mtime = LiveTokens.#mtime(this.#store.path)
    if (mtime === this.#mtimeMs) return
    this.#reloading ??= TokenStore.open(this.#store.dataDir)
      .then((store) => {
        this.#store = store
        this.#mtimeMs = mtime
      })
      .finally(() => {
        this.#reloading = null
      })
    await this.#reloading
  }

  authenticate(secret: string): Principal | null {
    return this.#store.authenticate(secret)
  }
}
