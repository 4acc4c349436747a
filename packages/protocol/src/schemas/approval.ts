import { z } from 'zod'
import { Risk } from './action-contract.js'
import { ActionResult } from './action-result.js'
import { JsonValue } from './json.js'

export const ApprovalStatus = z.enum(['pending', 'approved', 'denied', 'expired', 'consumed'])
export type ApprovalStatus = z.infer<typeof ApprovalStatus>

/**
 * A human decision bound to exactly one (frame, action, input): approving it cannot be
 * reused for another frame, action or input, and it expires.
 */
export const Approval = z.object({
  id: z.string(),
  session: z.string(),
  requestId: z.string(),
  surface: z.string(),
  action: z.string(),
  frameId: z.string(),
  /** The element the action was to run on (`@ref`), when the request named or implied one. */
  target: z.string().optional(),
  /** Hash of the frame's state the human saw: without `seenHash`, the action runs only while that state holds. */
  stateHash: z.string().optional(),
  /**
   * Hash of what the person was shown (the summary and the preconditions' values) when the
   * contract has a summary template: the action runs while that reads the same and its
   * target means the same, even if unrelated parts of the state moved on.
   */
  seenHash: z.string().optional(),
  inputHash: z.string(),
  input: JsonValue,
  requester: z.string(),
  reason: z.string(),
  /** One sentence for the person deciding: the contract's summary template, else its title, target and input. */
  summary: z.string().optional(),
  /** The action's title and the risk it was judged at (a command can raise its action's). */
  title: z.string().optional(),
  risk: Risk.optional(),
  /** Each precondition and the values it read when the request was made: all held, or there would be no approval. */
  preconditions: z.array(z.object({ condition: z.string(), values: z.record(z.string(), JsonValue) })).optional(),
  status: ApprovalStatus,
  createdAt: z.string(),
  expiresAt: z.string(),
  resolvedBy: z.string().optional(),
  resolvedAt: z.string().optional(),
  note: z.string().optional(),
  /** The outcome of running the action once approved. */
  result: ActionResult.optional(),
})
export type Approval = z.infer<typeof Approval>
