import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Frame } from '@tessera/protocol'
import type { Gateway } from '@tessera/gateway'
import type { HubEvents } from '../startup/hub-events.js'
import type { SurfaceManager } from '../tiles/surface-manager.js'
import type { ActionTool, ToolCatalog } from './tool-catalog.js'
import { ToolScope } from './tool-scope.js'

interface Listing {
  tools: Tool[]
  actions: Map<string, ActionTool>
  /** The tool names, sorted: clients hear of a change only when these change. */
  names: string
}

/**
 * The hub's tool list, built once and shared by every MCP session: the catalog's fixed tools
 * plus the action tools of open app tiles, from the frame cache. A tile opening or closing,
 * or a new frame of an app tile, rebuilds it; listeners hear when the names changed.
 */
export class ToolList {
  readonly #catalog: ToolCatalog
  readonly #surfaces: SurfaceManager
  readonly #gateway: Gateway
  readonly #listeners = new Set<() => void>()
  #listing: Promise<Listing> | null = null
  /** null until the first build: nobody can have listed an older set. */
  #names: string | null = null
  #pending: NodeJS.Timeout | null = null
  readonly #detach: () => void

  constructor(catalog: ToolCatalog, surfaces: SurfaceManager, gateway: Gateway, events: HubEvents) {
    this.#catalog = catalog
    this.#surfaces = surfaces
    this.#gateway = gateway
    const onFrame = (frame: Frame): void => {
      if (this.#perActionTile(frame.surface)) this.#rebuildSoon()
    }
    // A dropped frame of an app tile: rebuilt when next read, not snapshotted now.
    const onChanged = (surface: string): void => {
      if (this.#perActionTile(surface)) this.#listing = null
    }
    const onTiles = (): void => this.#rebuildSoon()
    events.on('frame', onFrame)
    events.on('changed', onChanged)
    events.on('tile', onTiles)
    events.on('tileRemoved', onTiles)
    this.#detach = () => {
      events.off('frame', onFrame)
      events.off('changed', onChanged)
      events.off('tile', onTiles)
      events.off('tileRemoved', onTiles)
    }
  }

  /** The tools a session with this scope lists. */
  async tools(scope: ToolScope = ToolScope.ALL): Promise<Tool[]> {
    const listing = await this.#current()
    return listing.tools.filter((tool) => scope.has(tool.name, this.#catalog.kindOf(tool.name) ?? listing.actions.get(tool.name)?.kind))
  }

  /** The action tool of an app tile by name; rebuilt once if unknown (the UI may just have changed). */
  async actionTool(name: string): Promise<ActionTool | undefined> {
    const known = (await this.#current()).actions.get(name)
    if (known !== undefined) return known
    this.#listing = null
    return (await this.#current()).actions.get(name)
  }

  /** Called when the set of tool names changed; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  close(): void {
    this.#detach()
    if (this.#pending) clearTimeout(this.#pending)
    this.#listeners.clear()
  }

  #perActionTile(surface: string): boolean {
    const tile = this.#surfaces.list().find((candidate) => candidate.id === surface)
    return tile !== undefined && this.#catalog.perAction(tile.kind)
  }

  #current(): Promise<Listing> {
    this.#listing ??= this.#build()
    return this.#listing
  }

  async #build(): Promise<Listing> {
    const frames: Array<{ kind: string; frame: Frame }> = []
    for (const tile of this.#surfaces.list()) {
      if (!this.#catalog.perAction(tile.kind)) continue
      try {
        frames.push({ kind: tile.kind, frame: await this.#gateway.frames.current(tile.id) })
      } catch {
        // A tile that cannot render offers no action tools; surfaces_list shows its error.
      }
    }
    const actions = this.#catalog.actionTools(frames)
    const names = actions.map((tool) => tool.tool.name).sort().join(',')
    const previous = this.#names
    this.#names = names
    if (previous !== null && previous !== names) for (const listener of [...this.#listeners]) listener()
    return { tools: [...this.#catalog.staticTools(), ...actions.map((tool) => tool.tool)], actions: new Map(actions.map((tool) => [tool.tool.name, tool])), names }
  }

  /** Frames and tiles come in bursts: one rebuild for each. */
  #rebuildSoon(): void {
    this.#listing = null
    if (this.#pending) return
    this.#pending = setTimeout(() => {
      this.#pending = null
      this.#listing ??= this.#build()
      // A failed rebuild is forgotten here and rebuilt (and reported) for the next reader.
      this.#listing.catch(() => (this.#listing = null))
    }, 50)
  }
}
