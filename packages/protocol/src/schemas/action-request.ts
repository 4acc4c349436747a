import { z } from 'zod'
import { ActionId } from './action-contract.js'
import { JsonValue } from './json.js'

/**
 * What an agent asks for. There is deliberately no field that approves or confirms: an
 * approval only comes from a human channel. Unknown fields (`confirmed: true`, say) are
 * kept in the trace and never acted upon.
 */
export const ActionRequest = z.looseObject({
  requestId: z.string().min(1).max(128).optional(),
  surface: z.string().min(1).max(128),
  action: ActionId,
  /**
   * Which element to act on when the action runs on several (an outline's `@ref`); may be
   * left out when the action has one target.
   */
  target: z.string().min(1).max(128).optional(),
  input: JsonValue.optional(),
  /**
   * The frame the agent looked at. A request on an older frame still runs when its target
   * still means the same (same contract, role, name and enabled state); otherwise it is
   * refused as stale.
   */
  frameId: z.string().max(128).optional(),
  session: z.string().min(1).max(128).optional(),
})
export type ActionRequest = z.infer<typeof ActionRequest>
