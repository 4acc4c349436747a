import { z } from 'zod'
import { ErrorShape } from '../errors.js'
import { ActionStatus } from './action-result.js'
import { JsonPatch } from './json-patch.js'
import { JsonValue } from './json.js'

/** The chat-control view of an action's outcome: a sentence plus the state diff. */
export const ExecutionResult = z.object({
  requestId: z.string(),
  actionId: z.string(),
  status: ActionStatus,
  ok: z.boolean(),
  message: z.string(),
  output: JsonValue.optional(),
  stateDiff: JsonPatch,
  approvalId: z.string().optional(),
  error: ErrorShape.optional(),
})
export type ExecutionResult = z.infer<typeof ExecutionResult>
