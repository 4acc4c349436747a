import { EventEmitter } from 'node:events'
import type { Approval, Frame, TraceEvent } from '@tessera/protocol'
import type { Tile } from '@tessera/protocol'

/** What the hub pushes to WebSocket clients and MCP sessions. */
export interface HubEventMap {
  tile: [tile: Tile]
  tileRemoved: [id: string]
  frame: [frame: Frame]
  /** A surface changed and its cached frame was dropped; the next reader takes the new one. */
  changed: [surface: string]
  trace: [events: TraceEvent[]]
  approval: [approval: Approval]
  /** Someone moved the shared view of the map (`navigate_map`): every console follows. */
  viewport: [viewport: { x: number; y: number; zoom: number }]
}

export class HubEvents extends EventEmitter<HubEventMap> {
  constructor() {
    super()
    // Every WebSocket client and MCP session subscribes; hundreds are expected.
    this.setMaxListeners(0)
  }
}
