import { z } from 'zod'
import { ErrorShape } from '../errors.js'
import { FrameDelta } from './frame-delta.js'
import { JsonPatch } from './json-patch.js'
import { JsonValue } from './json.js'

/** Every way one request can end; each is decided by exactly one gateway step. */
export const ActionStatus = z.enum([
  'no_frame',
  'stale_frame',
  'not_found',
  'disabled',
  'invalid_input',
  'precondition_failed',
  'condition_error',
  'denied',
  'rate_limited',
  'awaiting_approval',
  'failed',
  'timed_out',
  'completed',
  'postcondition_failed',
])
export type ActionStatus = z.infer<typeof ActionStatus>

export const ActionResult = z.object({
  requestId: z.string(),
  session: z.string(),
  surface: z.string(),
  action: z.string(),
  status: ActionStatus,
  output: JsonValue.optional(),
  /** RFC 6902 patch from the state before to the state after. */
  diff: JsonPatch.optional(),
  delta: FrameDelta.optional(),
  frameId: z.string().optional(),
  nextFrameId: z.string().optional(),
  approvalId: z.string().optional(),
  error: ErrorShape.optional(),
  /** Sequence numbers of the trace events this request produced. */
  events: z.array(z.number().int().nonnegative()),
})
export type ActionResult = z.infer<typeof ActionResult>
