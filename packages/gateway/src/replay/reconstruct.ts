import { type ActionStatus, type Frame, type JsonPatch, type JsonValue, type ReplayAction, type ReplayStep, readFrame, TesseraError, type TraceEvent } from '@tessera/protocol'
import type { TraceStore } from '../trace/store.js'

export type { ReplayAction, ReplayStep } from '@tessera/protocol'

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
      yield { kind: 'frame', seq: event.seq, frame: await recordedFrame(store, event, body) }
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
        target: requestTarget(body),
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

function requestTarget(body: DataObject): string | null {
  const request = body.request
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return null
  const target = (request as DataObject).target
  return typeof target === 'string' ? target : null
}

function diverged(event: TraceEvent, found: unknown): TesseraError {
  return new TesseraError('replay_diverged', `frame recorded at seq ${event.seq} does not hash to its id`, { seq: event.seq, expected: event.frameId, found: found as string })
}

/**
 * The frame a `frame` event recorded: stored once by hash (`blob`), or inline in traces
 * written before frames were stored apart. Either way it must hash to the id the event
 * names — the trace is the evidence, so it must agree with itself. Frames of the previous
 * protocol are checked against their own id, then read in this version.
 */
async function recordedFrame(store: TraceStore, event: TraceEvent, body: DataObject): Promise<Frame> {
  let raw: unknown = body.frame
  if (typeof body.blob === 'string') {
    const text = await store.getBlob(body.blob)
    if (text === null) throw new TesseraError('replay_diverged', `frame recorded at seq ${event.seq} names blob ${body.blob.slice(0, 12)}…, which the store does not hold`, { seq: event.seq, found: body.blob })
    raw = JSON.parse(text)
  }
  const recordedId = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined
  if (recordedId !== event.frameId) throw diverged(event, recordedId)
  let frame: Frame
  try {
    frame = readFrame(typeof body.version === 'number' ? { ...(raw as object), version: body.version } : raw)
  } catch (error) {
    throw diverged(event, error instanceof Error ? error.message : String(error))
  }
  return frame
}

export async function collectReplay(store: TraceStore, session: string): Promise<ReplayStep[]> {
  const steps: ReplayStep[] = []
  for await (const step of reconstructSession(store, session)) steps.push(step)
  return steps
}
