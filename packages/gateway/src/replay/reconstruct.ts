import { type ActionStatus, type Frame, type JsonPatch, type JsonValue, frameId, TesseraError, type TraceEvent } from '@tessera/protocol'
import type { TraceStore } from '../trace/store.js'

export interface ReplayAction {
  requestId: string
  actor: string
  surface: string
  action: string
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

type DataObject = Record<string, JsonValue>

function data(event: TraceEvent): DataObject {
  return event.data !== null && typeof event.data === 'object' && !Array.isArray(event.data) ? (event.data as DataObject) : {}
}

const TERMINAL_STATUSES = new Set(['rejected', 'denied', 'awaiting_approval', 'completed', 'failed', 'expired'])

/**
 * Rebuilds a session's frames and actions in order from the trace alone. A frame whose
 * recorded content no longer hashes to its recorded id is an error: the trace is the
 * evidence, so it must agree with itself. Streams: memory holds only open requests.
 */
export async function* reconstructSession(store: TraceStore, session: string): AsyncGenerator<ReplayStep> {
  const open = new Map<string, ReplayAction>()
  for await (const event of store.read(session)) {
    const body = data(event)
    if (event.type === 'frame') {
      const frame = body.frame as unknown as Frame
      const id = frameId(frame)
      if (id !== event.frameId || frame.id !== id) {
        throw new TesseraError('replay_diverged', `frame recorded at seq ${event.seq} does not hash to its id`, { seq: event.seq, expected: event.frameId, found: id })
      }
      yield { kind: 'frame', seq: event.seq, frame }
      continue
    }
    if (event.requestId === null || event.surface === null || event.action === null) continue
    let action = open.get(event.requestId)
    if (event.type === 'requested' || action === undefined) {
      action = {
        requestId: event.requestId,
        actor: event.actor,
        surface: event.surface,
        action: event.action,
        input: body.input ?? {},
        frameId: event.frameId,
        status: 'pending',
        nextFrameId: null,
        diff: null,
        output: null,
        approvalId: null,
        dispatched: false,
        events: [],
      }
      open.set(event.requestId, action)
    }
    action.events.push(event.seq)
    if (event.frameId !== null) action.frameId = event.frameId
    if (typeof body.approvalId === 'string') action.approvalId = body.approvalId
    if (event.type === 'dispatched') {
      action.dispatched = true
      if (body.input !== undefined) action.input = body.input
    }
    if (!TERMINAL_STATUSES.has(event.type)) continue
    if (typeof body.status === 'string') action.status = body.status as ActionStatus
    else if (event.type === 'expired') action.status = 'denied'
    if (typeof body.nextFrameId === 'string') action.nextFrameId = body.nextFrameId
    if (Array.isArray(body.diff)) action.diff = body.diff as unknown as JsonPatch
    if (body.output !== undefined) action.output = body.output
    // An action awaiting approval stays open: its approval and dispatch come later.
    if (event.type !== 'awaiting_approval') {
      open.delete(event.requestId)
      yield { kind: 'action', seq: event.seq, action }
    }
  }
  for (const action of open.values()) yield { kind: 'action', seq: action.events.at(-1) ?? 0, action }
}

export async function collectReplay(store: TraceStore, session: string): Promise<ReplayStep[]> {
  const steps: ReplayStep[] = []
  for await (const step of reconstructSession(store, session)) steps.push(step)
  return steps
}
