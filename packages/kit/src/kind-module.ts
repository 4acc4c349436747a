import type { ActionContract, Frame, Surface } from '@tessera/protocol'
import type { z } from 'zod'
import type { FacadeTool } from './facade-tool.js'

/** What a kind needs from the hub to open a tile, and nothing more. */
export interface KindEnvironment {
  /** The tile id the hub chose. */
  id: string
  /** The hub's data folder (absolute). */
  dataDir: string
  /**
   * A path from configuration made absolute: relative to the config file's folder (or the
   * working directory), and `data:x` inside the data folder.
   */
  resolvePath(path: string): string
  /**
   * Opens another tile of this kind from a surface the kind makes (a tab a web page opened
   * becomes a tile of its own); resolves to the new tile's id, which it focuses.
   */
  openBeside?(make: (id: string) => Promise<Surface>): Promise<string>
  /**
   * Opens a surface of another kind that this tile owns and drives, seen by nobody else (not on
   * the map, not in the gateway): how a desktop tile reads a Chromium app's page with the
   * browser kind's frame builder without importing another surface. `id` is the part's own
   * (the tile's id with a suffix: where the part keeps files); the tile closes it.
   */
  openPart?(kind: string, config: Record<string, unknown>, id: string): Promise<Surface>
}

/**
 * A surface kind as one module: everything the hub needs to offer it, so a new kind is a
 * new package and no hub edit. The hub's surface manager opens tiles through `open`, the
 * map's `open` action takes `configSchema`'s input, and the tool catalog lists
 * `facadeTools` (and, with `perActionTools`, one tool per action a tile's frame offers).
 */
export interface SurfaceKindModule<C = unknown> {
  /** The name tiles, the map's `open` and façade tools know the kind by (`terminal`, `files`, `browser`…). */
  kind: string
  /** Shown on the map's open action and in tool descriptions. */
  title: string
  /** Tile ids of this kind are `<idPrefix>-<n>` unless configuration names them. */
  idPrefix: string
  /** Validates a tile's whole configuration: the hub's defaults for the kind, merged with what an open asked for. */
  configSchema: z.ZodType<C>
  /**
   * What an agent may ask for through the map's `open` (a terminal's cwd, say). Fields left
   * out here (a sandbox, a root) come only from the hub's configuration, which the agent
   * cannot write. Absent: an agent opens tiles of this kind with the defaults only.
   */
  openSchema?: z.ZodType<Record<string, unknown>>
  /** The kind's actions, known before any tile is open (façade tools list their schemas). */
  contracts: readonly ActionContract[]
  facadeTools?: readonly FacadeTool[]
  /**
   * What an agent should know once about this kind's tools (which tile they act on, what
   * they answer with), in a sentence: the hub's MCP instructions carry it for the sessions
   * that reach the kind, so a tool's description need not repeat it.
   */
  guide?: string
  /**
   * Give each action of each open tile its own MCP tool. Only for kinds whose actions are a
   * short list of business actions (an agent-native app); never for kinds whose actions
   * grow with the UI.
   */
  perActionTools?: boolean
  /**
   * The kind's own reading of a frame, where the hub's generic outline would say too much (a
   * web page: the viewport first, the rest folded). `surface_snapshot` answers with it.
   */
  outline?: (frame: Frame, options: OutlineRequest) => string
  open(config: C, env: KindEnvironment): Promise<Surface>
  /** Ends what the kind keeps between tiles (a desktop's parked apps) when the hub stops, after every tile is closed. */
  dispose?(): Promise<void>
}

/** What `surface_snapshot` asks of a kind's outline. */
export interface OutlineRequest {
  /** An @ref whose whole subtree to show instead of the default view. */
  expand?: string | undefined
  /** With expand: children to skip (paging through a long list). */
  offset?: number | undefined
}

/** Declares a kind module with its config type inferred from the schema. */
export function defineKind<C>(module: SurfaceKindModule<C>): SurfaceKindModule<C> {
  return module
}
