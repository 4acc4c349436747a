import { Risk, Role } from '@tessera/protocol'
import { z } from 'zod'

/**
 * - deny: the request ends `denied`.
 * - require_approval: a human must approve, whatever the contract says.
 * - allow: proceeds; approval still follows the contract and the risk defaults.
 * - allow_without_approval: the explicit override that lets a destructive or external
 *   action run unconfirmed. It must be written down; nothing defaults to it.
 */
export const PolicyEffect = z.enum(['deny', 'require_approval', 'allow', 'allow_without_approval'])
export type PolicyEffect = z.infer<typeof PolicyEffect>

export const PolicyRule = z.object({
  id: z.string().min(1),
  effect: PolicyEffect,
  actions: z.array(z.string()).optional(),
  surfaces: z.array(z.string()).optional(),
  risks: z.array(Risk).optional(),
  actors: z.array(z.string()).optional(),
  roles: z.array(Role).optional(),
  /** A condition over { actor, surface, action, risk, kind, input, state }. */
  when: z.string().max(2000).optional(),
  reason: z.string().optional(),
})
export type PolicyRule = z.infer<typeof PolicyRule>

export const RateLimit = z.object({
  /** Requests allowed per principal within `windowMs`. */
  requests: z.number().int().positive(),
  windowMs: z.number().int().positive(),
})
export type RateLimit = z.infer<typeof RateLimit>

export const Budget = z.object({
  /** Actions that may complete per session, by risk; absent means unbounded. */
  perSessionByRisk: z.partialRecord(Risk, z.number().int().nonnegative()).optional(),
})
export type Budget = z.infer<typeof Budget>

export const PolicyConfig = z.object({
  rules: z.array(PolicyRule).default([]),
  /** Risks that need a human approval unless a rule overrides. */
  approvalRisks: z.array(Risk).default(['destructive', 'external']),
  rateLimit: RateLimit.optional(),
  budget: Budget.optional(),
  /** How long a pending approval stays valid. */
  approvalTtlMs: z.number().int().positive().default(10 * 60_000),
})
export type PolicyConfig = z.infer<typeof PolicyConfig>
export type PolicyConfigInput = z.input<typeof PolicyConfig>
