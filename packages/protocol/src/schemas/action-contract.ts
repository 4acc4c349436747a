import { z } from 'zod'
import { compileSummary } from '../conditions/summary-template.js'
import { JsonObject } from './json.js'

export const Risk = z.enum(['read', 'write', 'external', 'destructive'])
export type Risk = z.infer<typeof Risk>

export const ActionId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'expected lowercase letters, digits, ".", "_" or "-", 1–64 characters')

/**
 * Intent-level metadata an app attaches to a node. Unknown fields are kept (newer apps
 * may add them) and never acted upon.
 */
export const ActionContract = z.looseObject({
  id: ActionId,
  kind: z.string().min(1).max(64),
  title: z.string().min(1).max(200),
  risk: Risk,
  requiresConfirmation: z.boolean().default(false),
  /**
   * What a person reads before approving: `{expression}` parts over the frame's state and
   * `input`, e.g. `Approve payout of {claim.amount | currency EUR} to {claim.claimant}`
   * (summary-template.ts). Without one, the approval says the title, target and input.
   */
  summary: z.string().min(1).max(300).optional(),
  inputSchema: JsonObject.optional(),
  /** JSON Schema of what the action answers when it completes (MCP clients validate structured results against it). */
  outputSchema: JsonObject.optional(),
  preconditions: z.array(z.string().max(2000)).max(32).default([]),
  postconditions: z.array(z.string().max(2000)).max(32).default([]),
  audit: JsonObject.optional(),
  /**
   * false: the action may run while another holds the surface (reading output,
   * interrupting a running command). Absent or true: one at a time per surface.
   */
  exclusive: z.boolean().optional(),
  /**
   * true: the action reads what the surface keeps (a log, the requests a page made) and changes
   * nothing of it, so the frame after it is the frame before, unless the surface changed on its
   * own meanwhile: no new snapshot is taken for it (seconds on a huge page).
   */
  observes: z.boolean().optional(),
}).superRefine((contract, ctx) => {
  // A template that cannot render is the contract author's error, found when the contract
  // is first offered, not when a person is waiting for an approval.
  if (contract.summary === undefined) return
  try {
    compileSummary(contract.summary)
  } catch (error) {
    ctx.addIssue({ code: 'custom', path: ['summary'], message: error instanceof Error ? error.message : String(error) })
  }
})
export type ActionContract = z.infer<typeof ActionContract>
export type ActionContractInput = z.input<typeof ActionContract>
