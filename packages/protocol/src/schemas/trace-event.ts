import { z } from 'zod'
import { JsonValue } from './json.js'

export const TraceEventType = z.enum([
  'session_started',
  'frame',
  'requested',
  'rejected',
  'awaiting_approval',
  'approved',
  'denied',
  'expired',
  'dispatched',
  'completed',
  'failed',
])
export type TraceEventType = z.infer<typeof TraceEventType>

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha-256 hex digest')
export const GENESIS_HASH = '0'.repeat(64)

/** The part of an event its author supplies; the store assigns seq and the chain. */
export const TraceEventDraft = z.object({
  session: z.string().min(1).max(128),
  time: z.string().datetime({ offset: true }),
  type: TraceEventType,
  actor: z.string().max(128),
  surface: z.string().max(128).nullable(),
  action: z.string().max(128).nullable(),
  frameId: z.string().nullable(),
  requestId: z.string().max(128).nullable(),
  /** Redacted payload: input, output, status, diff, frame — whatever the type carries. */
  data: JsonValue,
})
export type TraceEventDraft = z.infer<typeof TraceEventDraft>

/**
 * One link of a session's append-only chain:
 * hash = sha256(prevHash ‖ canonical JSON (RFC 8785) of the event without `hash`).
 */
export const TraceEvent = TraceEventDraft.extend({
  seq: z.number().int().nonnegative(),
  prevHash: sha256,
  hash: sha256,
})
export type TraceEvent = z.infer<typeof TraceEvent>
