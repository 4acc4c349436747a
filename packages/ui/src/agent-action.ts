import {
  ActionContract,
  type ActionContractInput,
  type Risk,
  TesseraError,
  compileCondition,
  parseOrThrow,
} from '@tessera/protocol'

/** Risks whose effects leave the app or cannot be undone: a human confirms them unless told otherwise. */
const CONFIRM_BY_DEFAULT: ReadonlySet<Risk> = new Set<Risk>(['destructive', 'external'])

/**
 * Declares an action contract for `semantic.agentAction`. Everything is checked here, when
 * the app registers the action, so a bad contract or an unparseable condition fails in
 * the author's hands rather than in the gateway at run time.
 */
export function agentAction(input: ActionContractInput): ActionContract {
  const requiresConfirmation = input.requiresConfirmation ?? CONFIRM_BY_DEFAULT.has(input.risk)
  const contract = parseOrThrow(ActionContract, { ...input, requiresConfirmation }, 'action contract', 'invalid_contract')
  checkConditions(contract, 'preconditions')
  checkConditions(contract, 'postconditions')
  return contract
}

function checkConditions(contract: ActionContract, list: 'preconditions' | 'postconditions'): void {
  const sources = contract[list]
  sources.forEach((source, index) => {
    try {
      // Compiled only to prove it parses; the gateway compiles again where it evaluates.
      compileCondition(source)
    } catch (error) {
      if (!(error instanceof TesseraError)) throw error
      throw new TesseraError(
        error.code,
        `action "${contract.id}": ${list}[${index}] is not a valid condition: ${error.message}`,
        { ...error.details, action: contract.id, list, index },
      )
    }
  })
}
