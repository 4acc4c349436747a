import { actionSet, defineAction } from '@tessera/kit'
import { type ActionCall, type Frame, type JsonObject, type JsonValue, type PerformContext, type Surface, TesseraError } from '@tessera/protocol'
import { box, buildFrame, text } from '@tessera/ui'
import { z } from 'zod'
import { HUB_ACTOR } from '../auth/hub-actor.js'
import type { SurfaceManager } from './surface-manager.js'
import type { Tile } from '@tessera/protocol'

/** A tile the hub's configuration describes: its kind, its configuration, where it sits. */
export interface TilePreset {
  kind: string
  /** The name `open {preset}` takes; default the id, else the kind. */
  name?: string
  id?: string
  title?: string
  x?: number
  y?: number
  width?: number
  height?: number
  [config: string]: unknown
}

const PLACEMENT = ['kind', 'name', 'id', 'title', 'x', 'y', 'width', 'height'] as const

export function presetName(preset: TilePreset): string {
  return preset.name ?? preset.id ?? preset.kind
}

const TileSummary = z.object({ id: z.string(), kind: z.string(), title: z.string(), x: z.number(), y: z.number(), width: z.number(), height: z.number(), focused: z.boolean(), state: z.string() })
const TileRef = z.strictObject({ tile: z.string().min(1).max(128).describe('The tile id (surfaces_list shows them).') })

/** Map coordinates are bounded so a typo cannot send the shared view to 1e308. */
const Coordinate = z.number().finite().min(-1_000_000).max(1_000_000)

/** Where to move the shared view: the map point for its centre, and the zoom (kept when left out). */
const NavigateInput = z.strictObject({
  x: Coordinate,
  y: Coordinate,
  // What the fields mean is said once, in navigate_map's description.
  zoom: z.number().finite().min(0.05).max(4).optional(),
})
/** What the people watching the map see: the map point at the centre of their view, and the zoom. */
export type MapViewport = { x: number; y: number; zoom: number }

function summary(tile: Tile): z.infer<typeof TileSummary> {
  return { id: tile.id, kind: tile.kind, title: tile.title, x: tile.x, y: tile.y, width: tile.width, height: tile.height, focused: tile.focused, state: tile.state }
}

const mapAction = defineAction<MapSurface>()

/**
 * The map's actions work for every kind: opening, focusing and closing a tile pass the
 * gateway and land in the trace like any other action.
 */
export const MAP_ACTIONS = actionSet<MapSurface>([
  mapAction({
    id: 'open',
    title: 'Open a tile of any kind',
    risk: 'write',
    input: z.strictObject({
      kind: z.string().min(1).max(64).optional().describe('The kind to open (terminal, files, app…); not needed with a preset.'),
      preset: z.string().min(1).max(128).optional().describe("A tile the hub's configuration describes, by name."),
      config: z.record(z.string(), z.unknown()).optional().describe("What the kind lets an agent choose (a terminal's cwd); the rest comes from the hub's configuration."),
      title: z.string().max(200).optional(),
      x: z.number().optional(),
      y: z.number().optional(),
    }),
    output: z.object({ tile: z.string(), kind: z.string(), x: z.number(), y: z.number(), note: z.string().optional() }),
    run: async (input, { surface, actor }) => surface.open(input, actor),
  }),
  mapAction({
    id: 'close',
    title: 'Close a tile and what runs in it',
    risk: 'write',
    input: TileRef,
    output: z.object({ success: z.literal(true) }),
    run: async (input, { surface }) => {
      await surface.manager.remove(surface.manager.get(input.tile).id)
      return { success: true as const }
    },
  }),
  mapAction({
    id: 'focus',
    title: 'Focus a tile',
    risk: 'read',
    input: TileRef,
    output: z.object({ success: z.literal(true) }),
    run: (input, { surface }) => {
      surface.manager.focus(input.tile)
      return { success: true as const }
    },
  }),
  mapAction({
    id: 'navigate',
    title: 'Move the shared view of the map',
    risk: 'read',
    input: NavigateInput,
    output: z.object({ x: z.number(), y: z.number(), zoom: z.number() }),
    run: (input, { surface }) => surface.navigate(input),
  }),
  mapAction({
    id: 'move',
    title: 'Move a tile on the map',
    risk: 'write',
    input: TileRef.extend({ x: Coordinate, y: Coordinate }),
    output: z.object({ tile: z.string(), x: z.number(), y: z.number() }),
    run: (input, { surface }) => {
      const tile = surface.manager.move(surface.manager.get(input.tile).id, { x: input.x, y: input.y })
      return { tile: tile.id, x: tile.x, y: tile.y }
    },
  }),
  mapAction({
    id: 'resize',
    title: 'Resize a tile on the map',
    risk: 'write',
    input: TileRef.extend({ width: z.number().finite().min(160).max(8192), height: z.number().finite().min(120).max(8192) }),
    output: z.object({ tile: z.string(), width: z.number(), height: z.number() }),
    run: (input, { surface }) => {
      const { id, x, y } = surface.manager.get(input.tile)
      const tile = surface.manager.move(id, { x, y, width: input.width, height: input.height })
      return { tile: tile.id, width: tile.width, height: tile.height }
    },
  }),
  mapAction({
    id: 'list',
    title: 'List the tiles',
    risk: 'read',
    input: z.strictObject({ kind: z.string().optional() }),
    output: z.object({ tiles: z.array(TileSummary) }),
    run: (input, { surface }) => ({ tiles: surface.manager.list(input.kind).map(summary) }),
  }),
])

/** The map as `surfaces_list` names it beside the tiles: not a tile itself, but a surface an agent acts on. */
export const MAP_ENTRY = {
  id: 'map',
  kind: 'map',
  title: 'Map',
  state: 'running',
  actions: MAP_ACTIONS.contracts.map((contract) => contract.id),
} as const

export class MapSurface implements Surface {
  readonly id = 'map'
  readonly kind = 'app' as const
  readonly title = 'Map'
  readonly manager: SurfaceManager
  readonly #presets: readonly TilePreset[]
  #changed: ((frame?: Frame) => void) | null = null
  /** Who opened each tile still open: a principal may hold at most `#perPrincipal` (a shell, a browser context each). */
  readonly #openedBy = new Map<string, string>()
  readonly #perPrincipal: number
  readonly #onViewport: (viewport: MapViewport) => void
  /** Where the shared view was last sent; null until someone navigates (each console then fits the tiles). */
  #viewport: MapViewport | null = null

  constructor(manager: SurfaceManager, presets: readonly TilePreset[] = [], options: { tilesPerPrincipal?: number; onViewport?: (viewport: MapViewport) => void } = {}) {
    this.manager = manager
    this.#presets = presets
    this.#perPrincipal = options.tilesPerPrincipal ?? Number.POSITIVE_INFINITY
    this.#onViewport = options.onViewport ?? (() => undefined)
  }

  get viewport(): MapViewport | null {
    return this.#viewport === null ? null : { ...this.#viewport }
  }

  navigate(input: { x: number; y: number; zoom?: number | undefined }): MapViewport {
    this.#viewport = { x: input.x, y: input.y, zoom: input.zoom ?? this.#viewport?.zoom ?? 1 }
    this.#onViewport({ ...this.#viewport })
    this.#changed?.()
    return { ...this.#viewport }
  }

  /** Refuses an open past the principal's limit, counting the tiles it opened that are still on the map. */
  #checkRoom(actor: string): void {
    // The tiles the configuration names are the person's choice, however many.
    if (actor === HUB_ACTOR) return
    const open = new Set(this.manager.list().map((tile) => tile.id))
    for (const id of this.#openedBy.keys()) if (!open.has(id)) this.#openedBy.delete(id)
    const held = [...this.#openedBy.values()].filter((who) => who === actor).length
    if (held >= this.#perPrincipal) {
      throw new TesseraError('rate_limited', `"${actor}" already has ${held} tiles open (limits.tilesPerPrincipal); close one first`, { expected: `at most ${this.#perPrincipal}`, found: held })
    }
  }

  async open(
    input: { kind?: string | undefined; preset?: string | undefined; config?: Record<string, unknown> | undefined; title?: string | undefined; x?: number | undefined; y?: number | undefined },
    actor = 'hub',
  ): Promise<{ tile: string; kind: string; x: number; y: number; note?: string }> {
    this.#checkRoom(actor)
    let kind = input.kind
    let config: Record<string, unknown> = {}
    let placement: Record<string, unknown> = {}
    if (input.preset !== undefined) {
      const preset = this.#presets.find((candidate) => presetName(candidate) === input.preset)
      if (preset === undefined) throw new TesseraError('not_found', `no tile preset "${input.preset}"`, { expected: this.#presets.map(presetName), found: input.preset })
      if (kind !== undefined && kind !== preset.kind) throw new TesseraError('invalid_input', `preset "${input.preset}" opens a ${preset.kind}, not a ${kind}`, { expected: preset.kind, found: kind })
      kind = preset.kind
      config = Object.fromEntries(Object.entries(preset).filter(([key]) => !(PLACEMENT as readonly string[]).includes(key)))
      placement = Object.fromEntries(Object.entries(preset).filter(([key]) => key !== 'kind' && key !== 'name' && (PLACEMENT as readonly string[]).includes(key)))
    }
    if (kind === undefined) throw new TesseraError('invalid_input', 'open needs a kind or a preset', { expected: { kind: this.manager.kinds.list().map((k) => k.kind) }, found: null })
    const module = this.manager.kinds.get(kind)
    if (input.config !== undefined && Object.keys(input.config).length > 0) {
      if (module.openSchema === undefined) throw new TesseraError('invalid_input', `a ${kind} tile takes no configuration from an agent`, { expected: 'no config', found: Object.keys(input.config) })
      const parsed = module.openSchema.safeParse(input.config)
      if (!parsed.success) throw new TesseraError('invalid_input', `invalid ${kind} config: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ')}`, { issues: parsed.error.issues as unknown as JsonValue })
      config = { ...config, ...parsed.data }
    }
    const tile = await this.manager.open(kind, config, {
      ...(placement as { id?: string; title?: string; x?: number; y?: number; width?: number; height?: number }),
      ...(input.title === undefined ? {} : { title: input.title }),
      ...(input.x === undefined ? {} : { x: input.x }),
      ...(input.y === undefined ? {} : { y: input.y }),
    })
    this.#openedBy.set(tile.id, actor)
    // What an agent (or the hub) just opened is what it means to work with next.
    this.manager.focus(tile.id)
    const note = this.manager.surface(tile.id).takeOpeningNote?.()
    return { tile: tile.id, kind, x: tile.x, y: tile.y, ...(note === undefined ? {} : { note }) }
  }

  async snapshot(): Promise<Frame> {
    const tiles = this.manager.list()
    return buildFrame({
      surface: this.id,
      route: '/map',
      viewport: { width: 800, height: 40 + 32 * tiles.length },
      state: { tiles: tiles.map(summary) as unknown as JsonValue[], viewport: this.#viewport, kinds: this.manager.kinds.list().map((k) => k.kind), presets: this.#presets.map(presetName) } satisfies JsonObject,
      tree: box({ key: 'map', role: 'application', name: 'Map', style: { width: 800, flexDirection: 'column' } }, [
        box(
          { key: 'tiles', role: 'list', name: 'Tiles', style: { flexDirection: 'column' } },
          tiles.map((tile) => text({ key: tile.id, role: 'listitem', text: `${tile.title} (${tile.kind}) at ${tile.x},${tile.y}${tile.focused ? ' — focused' : ''}`, style: { height: 32 } })),
        ),
      ]),
      contracts: MAP_ACTIONS.contracts,
    })
  }

  perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    return MAP_ACTIONS.perform(this, call, ctx)
  }

  /** Tiles come and go and take focus: the map's frame changes with them. */
  subscribe(onChange: (frame?: Frame) => void): () => void {
    this.#changed = onChange
    return () => {
      this.#changed = null
    }
  }

  /** Called by the hub when the set of tiles or the focus changed. */
  tilesChanged(): void {
    this.#changed?.()
  }

  async close(): Promise<void> {}
}
