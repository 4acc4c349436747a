import type { Gateway, TraceStore } from '@tessera/gateway'
import type { HubConfig } from '../config/hub-config.js'
import type { ToolCatalog } from '../mcp/tool-catalog.js'
import type { ToolList } from '../mcp/tool-list.js'
import type { MapSurface } from '../tiles/map-surface.js'
import type { SurfaceManager } from '../tiles/surface-manager.js'
import type { HubEvents } from './hub-events.js'

/** What the HTTP API and MCP sessions share: one gateway, one store, one map. */
export interface HubContext {
  config: HubConfig
  gateway: Gateway
  store: TraceStore
  surfaces: SurfaceManager
  /** The map as a surface: the tiles' places and the shared view. */
  map: MapSurface
  /** The tools every MCP session lists, built once from the kinds. */
  tools: ToolCatalog
  /** The tool list every MCP session answers `tools/list` with: one copy for the hub. */
  toolList: ToolList
  events: HubEvents
  /** Where humans resolve approvals, for messages to agents. */
  consoleUrl: () => string
}
