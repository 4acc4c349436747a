import type { ActionContract, JsonValue } from '@tessera/protocol'
import type { InputValidator } from '../dispatch/input-validator.js'
import type { StepEnd } from './step-end.js'

/** The input against the contract's JSON Schema: null when it passes, `invalid_input` saying where when not. */
export function checkInput(validator: InputValidator, contract: ActionContract, input: JsonValue): StepEnd | null {
  if (contract.inputSchema === undefined) return null
  let problems
  try {
    problems = validator.validate(contract.inputSchema, input)
  } catch (error) {
    return { status: 'invalid_input', error: { code: 'invalid_contract', message: `action "${contract.id}" has an input schema that does not compile: ${(error as Error).message}` } }
  }
  if (problems.length === 0) return null
  const first = problems[0]
  return {
    status: 'invalid_input',
    error: { code: 'invalid_input', message: `invalid input for "${contract.id}": ${first?.path} ${first?.message}`, details: { expected: contract.inputSchema, issues: problems } },
  }
}
