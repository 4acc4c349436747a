import {
  type ActionContract,
  type CompiledCondition,
  compileCondition,
  type JsonObject,
  type JsonValue,
  type Principal,
  parseOrThrow,
} from '@tessera/protocol'
import { PolicyConfig, type PolicyConfigInput, type PolicyRule } from './policy-config.js'

export interface PolicyQuery {
  actor: Principal
  surface: string
  contract: ActionContract
  input: JsonValue
  state: JsonObject
}

export type PolicyDecision =
  | { verdict: 'deny'; rule: string; reason: string }
  | { verdict: 'allow'; needsApproval: boolean; rule: string | null; reason: string }

interface CompiledRule {
  rule: PolicyRule
  when: CompiledCondition | null
}

function listed(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.includes(value)
}

/**
 * Rules are checked in order and the first that matches decides; with no match the
 * defaults apply: the contract's own `requiresConfirmation`, and approval for the risks
 * in `approvalRisks`. Rule conditions are compiled when the policy is loaded, so a bad
 * rule fails at start-up, not on the request it was meant to stop.
 */
export class PolicyEngine {
  readonly config: PolicyConfig
  readonly #rules: CompiledRule[]

  constructor(config: PolicyConfigInput = {}) {
    this.config = parseOrThrow(PolicyConfig, config, 'policy configuration', 'invalid_request')
    this.#rules = this.config.rules.map((rule) => ({
      rule,
      when: rule.when === undefined ? null : compileCondition(rule.when),
    }))
  }

  decide(query: PolicyQuery): PolicyDecision {
    const { contract } = query
    for (const { rule, when } of this.#rules) {
      if (!this.#matches(rule, when, query)) continue
      const reason = rule.reason ?? `policy rule "${rule.id}"`
      switch (rule.effect) {
        case 'deny':
          return { verdict: 'deny', rule: rule.id, reason }
        case 'require_approval':
          return { verdict: 'allow', needsApproval: true, rule: rule.id, reason }
        case 'allow_without_approval':
          return { verdict: 'allow', needsApproval: false, rule: rule.id, reason }
        case 'allow':
          return { verdict: 'allow', needsApproval: this.#defaultNeedsApproval(contract), rule: rule.id, reason }
      }
    }
    const needsApproval = this.#defaultNeedsApproval(contract)
    return {
      verdict: 'allow',
      needsApproval,
      rule: null,
      reason: needsApproval ? `${contract.risk} action "${contract.id}" needs a human approval` : 'default policy',
    }
  }

  #defaultNeedsApproval(contract: ActionContract): boolean {
    return contract.requiresConfirmation || this.config.approvalRisks.includes(contract.risk)
  }

  #matches(rule: PolicyRule, when: CompiledCondition | null, query: PolicyQuery): boolean {
    const { actor, contract } = query
    if (!listed(rule.actions, contract.id)) return false
    if (!listed(rule.surfaces, query.surface)) return false
    if (!listed(rule.risks, contract.risk)) return false
    if (!listed(rule.actors, actor.id)) return false
    if (rule.roles !== undefined && !rule.roles.some((role) => actor.roles.includes(role))) return false
    if (when === null) return true
    // A rule whose condition cannot be evaluated does not match; a deny rule that errors
    // must still deny, so errors count as a match for deny rules only.
    try {
      return when.check({
        actor: { id: actor.id, roles: actor.roles },
        surface: query.surface,
        action: contract.id,
        kind: contract.kind,
        risk: contract.risk,
        input: query.input,
        state: query.state,
      })
    } catch (error) {
      if (rule.effect === 'deny') return true
      throw error
    }
  }
}
