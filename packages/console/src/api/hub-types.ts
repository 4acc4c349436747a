import type { Approval, Tile, TraceEvent } from '@tessera/protocol'

// The JSON the hub's HTTP and WebSocket API sends (docs/hub.md, "HTTP API"), where protocol has no type for it.
export type { ReplayAction, ReplayStep, Tile } from '@tessera/protocol'

/** The JSON Schema of what opening a tile of a kind takes (`/api/kinds`). */
export interface OpenSchema {
  type: 'object'
  properties?: Record<string, { type?: string; enum?: string[]; description?: string; maxLength?: number }>
  required?: string[]
}

export interface MapViewport {
  x: number
  y: number
  zoom: number
}

export interface TraceSession {
  session: string
  events: number
  firstTime: string
  lastTime: string
  headHash: string
}

export type VerifyResult =
  | { session: string; ok: true; count: number; headHash: string }
  | { session: string; ok: false; count: number; firstBroken: { seq: number; reason: string; expected: string; found: string } }

/** What `/api/events` pushes. */
export type HubEvent =
  | { type: 'hello'; principal: string; tiles: Tile[]; viewport: MapViewport | null }
  | { type: 'tile'; tile: Tile }
  | { type: 'tileRemoved'; id: string }
  | { type: 'frame'; surface: string; frameId: string; version: number; route: string }
  | { type: 'changed'; surface: string }
  | { type: 'trace'; events: TraceEvent[] }
  | { type: 'approval'; approval: Approval }
  | { type: 'viewport'; viewport: MapViewport }
