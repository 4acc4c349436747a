import type { Approval, TraceEvent } from '@tessera/protocol'
import type { HubEvent, MapViewport, Tile } from './hub-types'

/** An action running on a tile right now: its tile outlines the element it targets. */
export interface RunningAction {
  requestId: string
  surface: string
  frameId: string | null
  /** The element's `@ref`, when the action names one. */
  target: string | null
  actor: string
  action: string
}

export interface HubState {
  live: boolean
  tiles: Tile[]
  approvals: Approval[]
  /** The latest trace events seen live, newest last (bounded). */
  recent: TraceEvent[]
  /** Bumped per tile whenever its frame changed: a tile showing the frame fetches it again. */
  frameVersions: Record<string, number>
  running: RunningAction[]
  /** The shared view someone (an agent, `navigate_map`) asked for, with a counter so the same place twice still moves. */
  viewport: { to: MapViewport; seq: number } | null
}

export const INITIAL_STATE: HubState = { live: false, tiles: [], approvals: [], recent: [], frameVersions: {}, running: [], viewport: null }

const RECENT_LIMIT = 500
const ENDED = new Set(['completed', 'failed', 'rejected', 'denied', 'expired', 'awaiting_approval'])

export type HubAction = HubEvent | { type: 'live'; live: boolean } | { type: 'approvals'; approvals: Approval[] }

function upsertTile(tiles: Tile[], tile: Tile): Tile[] {
  const at = tiles.findIndex((candidate) => candidate.id === tile.id)
  if (at === -1) return [...tiles, tile]
  const next = tiles.slice()
  next[at] = tile
  return next
}

function trackRunning(running: RunningAction[], events: TraceEvent[]): RunningAction[] {
  let next = running
  for (const event of events) {
    if (event.requestId === null) continue
    if (event.type === 'dispatched' && event.surface !== null) {
      const data = (event.data ?? {}) as { target?: unknown }
      next = [...next.filter((r) => r.requestId !== event.requestId), { requestId: event.requestId, surface: event.surface, frameId: event.frameId, target: typeof data.target === 'string' ? data.target : null, actor: event.actor, action: event.action ?? '' }]
    } else if (ENDED.has(event.type)) next = next.filter((r) => r.requestId !== event.requestId)
  }
  return next
}

export function hubReducer(state: HubState, action: HubAction): HubState {
  switch (action.type) {
    case 'live':
      return { ...state, live: action.live }
    case 'hello':
      return { ...state, tiles: action.tiles, viewport: action.viewport === null ? state.viewport : { to: action.viewport, seq: (state.viewport?.seq ?? 0) + 1 } }
    case 'tile':
      return { ...state, tiles: upsertTile(state.tiles, action.tile) }
    case 'tileRemoved':
      return { ...state, tiles: state.tiles.filter((tile) => tile.id !== action.id), running: state.running.filter((r) => r.surface !== action.id) }
    case 'frame':
    case 'changed':
      return { ...state, frameVersions: { ...state.frameVersions, [action.surface]: (state.frameVersions[action.surface] ?? 0) + 1 } }
    case 'trace':
      return { ...state, recent: [...state.recent, ...action.events].slice(-RECENT_LIMIT), running: trackRunning(state.running, action.events) }
    case 'approval': {
      const others = state.approvals.filter((a) => a.id !== action.approval.id)
      return { ...state, approvals: [...others, action.approval].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) }
    }
    case 'approvals':
      return { ...state, approvals: action.approvals }
    case 'viewport':
      return { ...state, viewport: { to: action.viewport, seq: (state.viewport?.seq ?? 0) + 1 } }
  }
}
