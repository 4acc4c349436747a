import { z } from 'zod'
import { ActionId, Risk } from './action-contract.js'
import { JsonObject } from './json.js'

/**
 * Where one contract of `frame.contracts` can run: on a node, or on the whole surface. A
 * target holds no copy of its contract, so a page of 500 buttons sharing a `click`
 * contract carries that contract once.
 */
export const ActionTarget = z.looseObject({
  /** The id of the contract this target runs. */
  contract: ActionId,
  /**
   * The handle an agent passes back: the node's ref in this frame (see RefTable), or the
   * contract id for an action of the whole surface.
   */
  ref: z.string().min(1).max(128),
  /** The node that carries the action; absent when the action belongs to the whole surface. */
  nodeId: z.string().min(1).max(256).optional(),
  /** This element's own risk where it exceeds the contract's (a "Delete" button under a generic click); it never lowers it. */
  risk: Risk.optional(),
  /** Why this element's risk is above its contract's, in words for the person asked to approve: `its name says "delete"`. */
  riskReason: z.string().max(200).optional(),
  /** False while the node or an ancestor is disabled or hidden, or while the surface says the action cannot run. */
  enabled: z.boolean(),
  /** Input this target supplies (its node's `agentActionInput`); such a target is chosen by its ref only. */
  input: JsonObject.optional(),
})
export type ActionTarget = z.infer<typeof ActionTarget>
