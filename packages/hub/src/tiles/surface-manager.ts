import { resolve } from 'node:path'
import type { Gateway } from '@tessera/gateway'
import { type JsonValue, type Surface, TesseraError } from '@tessera/protocol'
import type { HubEvents } from '../startup/hub-events.js'
import type { KindRegistry } from './kind-registry.js'
import type { Tile } from '@tessera/protocol'

const COLUMNS = 3
const GAP = 64

export interface AddOptions {
  /** The kind the tile is listed under; default the surface's own. */
  kind?: string
  x?: number
  y?: number
  width?: number
  height?: number
}

export interface OpenOptions extends AddOptions {
  /** The tile id; default `<idPrefix>-<n>`. */
  id?: string
  title?: string
}

export interface SurfaceManagerOptions {
  kinds: KindRegistry
  dataDir: string
  /** Where relative paths of configuration resolve: the config file's folder, or the working folder. */
  baseDir: string
  /** Configuration the hub gives every tile of a kind (a terminal's sandbox); an open cannot override it. */
  defaults?: Readonly<Record<string, Record<string, unknown>>>
}

/**
 * The one registry of tiles: the kinds that can be opened, the tiles that are, and the
 * surfaces behind them. Attaching a surface here attaches it to the gateway (and its frame
 * cache) too: a tile an agent can see is always one the gateway guards.
 */
export class SurfaceManager {
  readonly #tiles = new Map<string, Tile>()
  readonly #gateway: Gateway
  readonly #events: HubEvents
  readonly #options: SurfaceManagerOptions
  readonly #detach: () => void
  #counter = 0
  /** Each tile's surface, whose title is read again with every frame. */
  readonly #surfaces = new Map<string, Surface>()

  constructor(gateway: Gateway, events: HubEvents, options: SurfaceManagerOptions) {
    this.#gateway = gateway
    this.#events = events
    this.#options = options
    this.#detach = gateway.frames.onEvent((event) => {
      if (!this.#tiles.has(event.surface)) return
      if (event.kind === 'frame') {
        // A surface's title may follow what it shows (a browser tile's site): the tile's follows it.
        const title = this.#surfaces.get(event.surface)?.title
        this.#update(event.surface, { frameId: event.frame.id, state: 'running', ...(title === undefined ? {} : { title }) })
        this.#events.emit('frame', event.frame)
      } else this.#events.emit('changed', event.surface)
    })
  }

  get kinds(): KindRegistry {
    return this.#options.kinds
  }

  /** A path from configuration made absolute: `data:x` is inside the data folder, the rest relative to the config. */
  resolvePath(path: string): string {
    return path.startsWith('data:') ? resolve(this.#options.dataDir, path.slice('data:'.length)) : resolve(this.#options.baseDir, path)
  }

  /**
   * Opens a tile of `kind`: the kind's defaults from the hub, then `config`, checked against
   * the kind's schema (a typed `invalid_input` error names what was wrong).
   */
  async open(kind: string, config: Record<string, unknown>, options: OpenOptions = {}): Promise<Tile> {
    const module = this.#options.kinds.get(kind)
    const id = options.id ?? this.#nextId(module.idPrefix)
    if (this.#tiles.has(id)) throw new TesseraError('conflict', `a tile "${id}" is already open`, { found: id })
    const merged = { ...(this.#options.defaults?.[kind] ?? {}), ...config, ...(options.title === undefined ? {} : { title: options.title }) }
    const parsed = module.configSchema.safeParse(merged)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new TesseraError('invalid_input', `invalid ${kind} configuration: ${issue?.path.join('.') || 'config'}: ${issue?.message ?? 'rejected'}`, { expected: `${kind} configuration`, issues: parsed.error.issues as unknown as JsonValue })
    }
    const openBeside = async (make: (id: string) => Promise<Surface>): Promise<string> => {
      const tile = await this.add(await make(this.#nextId(module.idPrefix)), { kind: module.kind })
      this.focus(tile.id)
      return tile.id
    }
    const openPart = (partKind: string, partConfig: Record<string, unknown>, partId: string): Promise<Surface> => this.#openPart(partId, partKind, partConfig)
    const surface = await module.open(parsed.data as never, { id, dataDir: this.#options.dataDir, resolvePath: (path) => this.resolvePath(path), openBeside, openPart })
    return this.add(surface, { ...options, kind: module.kind })
  }

  /** A surface of another kind owned by a tile: checked against that kind's schema, opened, and handed to the tile alone. */
  async #openPart(id: string, kind: string, config: Record<string, unknown>): Promise<Surface> {
    const module = this.#options.kinds.get(kind)
    const parsed = module.configSchema.safeParse(config)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new TesseraError('invalid_input', `invalid ${kind} configuration for ${id}: ${issue?.path.join('.') || 'config'}: ${issue?.message ?? 'rejected'}`, { expected: `${kind} configuration`, issues: parsed.error.issues as unknown as JsonValue })
    }
    return module.open(parsed.data as never, { id, dataDir: this.#options.dataDir, resolvePath: (path) => this.resolvePath(path) })
  }

  async add(surface: Surface, options: AddOptions = {}): Promise<Tile> {
    this.#gateway.addSurface(surface)
    this.#surfaces.set(surface.id, surface)
    const index = this.#tiles.size
    const width = options.width ?? 1024
    const height = options.height ?? 768
    const tile: Tile = {
      id: surface.id,
      kind: options.kind ?? surface.kind,
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
    this.#events.emit('tile', { ...tile })
    try {
      await this.#gateway.frames.current(tile.id)
    } catch (error) {
      this.#update(tile.id, { state: 'error', error: error instanceof Error ? error.message : String(error) })
    }
    return this.get(tile.id)
  }

  async remove(id: string): Promise<void> {
    const surface = this.#gateway.removeSurface(id)
    this.#tiles.delete(id)
    this.#surfaces.delete(id)
    this.#events.emit('tileRemoved', id)
    await surface?.close()
  }

  list(kind?: string): Tile[] {
    return [...this.#tiles.values()].filter((tile) => kind === undefined || tile.kind === kind).map((tile) => ({ ...tile }))
  }

  /** The tile of `kind` a call means: the one named, else the focused one, else the first. */
  pick(kind: string, named?: string): string {
    const tiles = this.list(kind)
    const found = named === undefined ? (tiles.find((tile) => tile.focused) ?? tiles[0]) : tiles.find((tile) => tile.id === named)
    if (found === undefined) {
      throw new TesseraError('not_found', named === undefined ? `no ${kind} tile is open` : `no ${kind} tile "${named}"`, { expected: tiles.map((tile) => tile.id), found: named ?? null })
    }
    return found.id
  }

  get(id: string): Tile {    const tile = this.#tiles.get(id)
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

  /** Closes every tile, then what each kind keeps between tiles (parked apps). */
  async closeAll(): Promise<void> {
    for (const id of [...this.#tiles.keys()]) await this.remove(id)
    this.#detach()
    await Promise.all(this.#options.kinds.list().map((kind) => kind.dispose?.()))
  }

  #nextId(prefix: string): string {
    let id: string
    do id = `${prefix}-${++this.#counter}`
    while (this.#tiles.has(id))
    return id
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
