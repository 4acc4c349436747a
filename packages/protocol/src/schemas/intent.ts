import { z } from 'zod'
import { ActionId } from './action-contract.js'
import { JsonObject } from './json.js'

const common = {
  requestId: z.string().min(1).max(128),
  timestamp: z.string().datetime({ offset: true }),
}

export const ExecutionMode = z.enum(['execute', 'dry_run'])
export type ExecutionMode = z.infer<typeof ExecutionMode>

/** The chat agent proposes an action on a surface. */
export const ActionCallIntent = z.looseObject({
  type: z.literal('action_call'),
  ...common,
  surface: z.string().min(1).max(128),
  actionId: ActionId,
  inputs: JsonObject.default({}),
  executionMode: ExecutionMode.default('execute'),
  /** The frame the agent reasoned over. */
  frameId: z.string().optional(),
  /**
   * Kept for chat frontends that show a "confirmed" badge. The gateway never reads it:
   * confirmation is a human act on a channel the model cannot write to.
   */
  confirmed: z.boolean().optional(),
})

/** The chat agent lacks a parameter or cannot choose: it asks, and nothing changes. */
export const ClarificationIntent = z.looseObject({
  type: z.literal('clarification_request'),
  ...common,
  question: z.string().min(1).max(2000),
  choices: z.array(z.string().max(500)).max(20).optional(),
  actionId: ActionId.optional(),
})

export const Intent = z.discriminatedUnion('type', [ActionCallIntent, ClarificationIntent])
export type Intent = z.infer<typeof Intent>
export type ActionCallIntent = z.infer<typeof ActionCallIntent>
export type ClarificationIntent = z.infer<typeof ClarificationIntent>
