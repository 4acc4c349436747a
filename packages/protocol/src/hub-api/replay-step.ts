import type { ActionStatus } from '../schemas/action-result.js'
import type { Frame } from '../schemas/frame.js'
import type { JsonPatch } from '../schemas/json-patch.js'
import type { JsonValue } from '../schemas/json.js'

/** One recorded action as replay rebuilds it from the trace (`/api/replay/<session>`, `tessera replay`). */
export interface ReplayAction {
  requestId: string
  actor: string
  surface: string
  action: string
  /** The element the request named (`@ref`), when it named one. */
  target: string | null
  input: JsonValue
  /** The frame the action was evaluated against. */
  frameId: string | null
  status: ActionStatus | 'pending'
  nextFrameId: string | null
  diff: JsonPatch | null
  output: JsonValue | null
  approvalId: string | null
  /** Whether the surface was asked to perform it (only these changed state). */
  dispatched: boolean
  events: number[]
}

export type ReplayStep = { kind: 'frame'; seq: number; frame: Frame } | { kind: 'action'; seq: number; action: ReplayAction }
