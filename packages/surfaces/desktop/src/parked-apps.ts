import { setTimeout as sleep } from 'node:timers/promises'
import type { DesktopTile } from './desktop-tile.js'

/** After a parked app is handed out, the next one starts this much later: not while the taken one is still drawing its first frames on two cores. */
const REFILL_DELAY_MS = 3_000
/** A parked app nobody takes in this long is ended: it holds a display and a few hundred MB. */
const PARK_IDLE_MS = 10 * 60_000

interface Parked {
  tile: Promise<DesktopTile | undefined>
  idle: NodeJS.Timeout
}

/**
 * Apps whose schema says they start slowly (`keep_ready`: LibreOffice takes 3 s to show
 * a window here) are kept ready: once such an app has been opened, another copy is started in
 * a session of its own and parked, and the next launch takes it instead of waiting. Each parked
 * app is a whole tile (its own display and buses, a fresh profile), so taking one shares
 * nothing with the tile before it. At most one per app; ended when idle or when the hub stops.
 */
export class ParkedApps {
  readonly #parked = new Map<string, Parked>()
  readonly #refills = new Map<string, NodeJS.Timeout>()

  /** The parked app for this key, if one is ready or starting and still running; it is no longer parked. */
  async take(key: string): Promise<DesktopTile | undefined> {
    const parked = this.#parked.get(key)
    if (parked === undefined) return undefined
    this.#parked.delete(key)
    clearTimeout(parked.idle)
    const tile = await parked.tile
    if (tile?.running === true) return tile
    await tile?.close()
    return undefined
  }

  /** Starts another copy for this key a little later, unless one is parked or on its way. */
  refillLater(key: string, start: () => Promise<DesktopTile>): void {
    if (this.#parked.has(key) || this.#refills.has(key)) return
    const timer = setTimeout(() => {
      this.#refills.delete(key)
      if (this.#parked.has(key)) return
      // A copy that fails to start is simply not parked: the next launch starts cold and says why.
      const tile = start().catch(() => undefined)
      const idle = setTimeout(() => void this.#end(key), PARK_IDLE_MS)
      idle.unref()
      this.#parked.set(key, { tile, idle })
    }, REFILL_DELAY_MS)
    timer.unref()
    this.#refills.set(key, timer)
  }

  /** Resolves once the parked copy for this key has started (true) or failed (false); false when none is parked or due. */
  async whenReady(key: string): Promise<boolean> {
    // A copy due to start (after REFILL_DELAY_MS) is waited for, a little longer at most.
    for (const started = Date.now(); this.#refills.has(key) && Date.now() - started < REFILL_DELAY_MS * 2; ) await sleep(50)
    const tile = await this.#parked.get(key)?.tile
    return tile?.running === true
  }

  /** The keys of the apps parked or starting. */
  keys(): string[] {
    return [...this.#parked.keys()]
  }

  /** Ends every parked app and cancels every refill; waits until they are gone. */
  async closeAll(): Promise<void> {
    for (const timer of this.#refills.values()) clearTimeout(timer)
    this.#refills.clear()
    await Promise.all([...this.#parked.keys()].map((key) => this.#end(key)))
  }

  async #end(key: string): Promise<void> {
    const parked = this.#parked.get(key)
    if (parked === undefined) return
    this.#parked.delete(key)
    clearTimeout(parked.idle)
    await (await parked.tile)?.close()
  }
}

/** The parked apps of this process's hub. */
export const parkedApps = new ParkedApps()
