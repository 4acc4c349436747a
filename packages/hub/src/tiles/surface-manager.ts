import type { Gateway } from '@tessera/gateway'
import { type Frame, type Surface, TesseraError } from '@tessera/protocol'
import type { HubEvents } from '../hub/hub-events.js'
import type { Tile } from './tile.js'

const COLUMNS = 3
const GAP = 64

export interface AddOptions {
  x?: number
  y?: number
  width?: number
  height?: number
}

/**
 * The tiles of the map and the surfaces behind them. Attaching a surface here attaches it
 * to the gateway too: a tile an agent can see is always one the gateway guards.
 */
export class SurfaceManager {
  readonly #tiles = new Map<string, Tile>()
  readonly #unsubscribe = new Map<string, () => void>()
  readonly #gateway: Gateway
  readonly #events: HubEvents

  constructor(gateway: Gateway, events: HubEvents) {
    this.#gateway = gateway
    this.#events = events
  }

  async add(surface: Surface, options: AddOptions = {}): Promise<Tile> {
    this.#gateway.addSurface(surface)
    const index = this.#tiles.size
    const width = options.width ?? 1024
    const height = options.height ?? 768
    const tile: Tile = {
      id: surface.id,
      kind: surface.kind,
      title: surface.title ?? surface.id,
      x: options.x ?? (index % COLUMNS) * (width + GAP),
      y: options.y ?? Math.floor(index / COLUMNS) * (height + GAP),
      width,
      height,
      state: 'idle',
      focused: this.#tiles.size === 0,
      frameId: null,
    }
    this.#tiles.set(tile.id, tile)
    if (surface.subscribe) this.#unsubscribe.set(tile.id, surface.subscribe((frame) => this.#onFrame(tile.id, frame)))
    try {
      this.#onFrame(tile.id, await surface.snapshot())
    } catch (error) {
      this.#update(tile.id, { state: 'error', error: error instanceof Error ? error.message : String(error) })
    }
    return this.get(tile.id)
  }

  async remove(id: string): Promise<void> {
    const surface = this.#gateway.removeSurface(id)
    this.#unsubscribe.get(id)?.()
    this.#unsubscribe.delete(id)
    this.#tiles.delete(id)
    this.#events.emit('tileRemoved', id)
    await surface?.close()
  }

  list(): Tile[] {
    return [...this.#tiles.values()].map((tile) => ({ ...tile }))
  }

  get(id: string): Tile {
    const tile = this.#tiles.get(id)
    if (tile === undefined) throw new TesseraError('not_found', `no tile "${id}"`, { expected: [...this.#tiles.keys()], found: id })
    return { ...tile }
  }

  surface(id: string): Surface {
    const surface = this.#gateway.surfaces().find((candidate) => candidate.id === id)
    if (surface === undefined) throw new TesseraError('not_found', `no surface "${id}"`, { expected: [...this.#tiles.keys()], found: id })
    return surface
  }

  focus(id: string): Tile {
    this.get(id)
    for (const tile of this.#tiles.values()) if (tile.focused !== (tile.id === id)) this.#update(tile.id, { focused: tile.id === id })
    return this.get(id)
  }

  move(id: string, position: { x: number; y: number; width?: number; height?: number }): Tile {
    this.get(id)
    return this.#update(id, position)
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.#tiles.keys()]) await this.remove(id)
  }

  #onFrame(id: string, frame: Frame): void {
    if (!this.#tiles.has(id)) return
    this.#update(id, { frameId: frame.id, state: 'running' })
    this.#events.emit('frame', frame)
  }

  #update(id: string, change: Partial<Tile>): Tile {
    const tile = this.#tiles.get(id)
    if (tile === undefined) throw new TesseraError('not_found', `no tile "${id}"`)
    const next = { ...tile, ...change }
    this.#tiles.set(id, next)
    this.#events.emit('tile', { ...next })
    return next
  }
}
