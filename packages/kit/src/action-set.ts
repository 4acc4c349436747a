import { type ActionCall, type ActionContract, type JsonValue, type PerformContext, type Risk, type RiskAssessment, TesseraError } from '@tessera/protocol'
import type { DefinedAction } from './define-action.js'

/** A surface's actions by id: the contracts it offers and the one dispatch every surface shares. */
export class ActionSet<S> {
  readonly contracts: readonly ActionContract[]
  readonly #byId: ReadonlyMap<string, DefinedAction<S>>

  constructor(actions: ReadonlyArray<DefinedAction<S>>) {
    const byId = new Map<string, DefinedAction<S>>()
    for (const action of actions) {
      if (byId.has(action.contract.id)) throw new TesseraError('invalid_contract', `two actions are named "${action.contract.id}"`, { found: action.contract.id })
      byId.set(action.contract.id, action)
    }
    this.#byId = byId
    this.contracts = Object.freeze(actions.map((action) => action.contract))
  }

  get(id: string): DefinedAction<S> {
    const action = this.#byId.get(id)
    if (action === undefined) throw new TesseraError('not_found', `no action "${id}"`, { expected: [...this.#byId.keys()], found: id })
    return action
  }

  contract(id: string): ActionContract {
    return this.get(id).contract
  }

  /** The highest risk a call of this action can reach (a façade tool's MCP hints come from it). */
  maxRisk(id: string): Risk {
    return this.get(id).maxRisk
  }

  perform(surface: S, call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    return this.get(call.contract.id).perform(surface, call, ctx)
  }

  assess(surface: S, call: ActionCall): Promise<RiskAssessment | null> {
    return this.#byId.get(call.contract.id)?.assess(surface, call) ?? Promise.resolve(null)
  }

  timeoutFor(call: ActionCall): number | null {
    return this.#byId.get(call.contract.id)?.timeoutFor(call) ?? null
  }
}

export function actionSet<S>(actions: ReadonlyArray<DefinedAction<S>>): ActionSet<S> {
  return new ActionSet(actions)
}
