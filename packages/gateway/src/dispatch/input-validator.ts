import type { JsonObject, JsonValue } from '@tessera/protocol'
import { contentHash } from '@tessera/protocol'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'

export interface InputProblem {
  path: string
  message: string
}

/**
 * Validates action inputs against the contract's JSON Schema. Compiled validators are
 * cached by schema content, so a contract seen on every frame compiles once.
 */
export class InputValidator {
  // verbose: each error carries the schema that failed and the value, for "expected …, found …".
  readonly #ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, verbose: true })
  readonly #cache = new Map<string, ValidateFunction>()

  validate(schema: JsonObject, input: JsonValue): InputProblem[] {
    const key = contentHash(schema)
    let validate = this.#cache.get(key)
    if (validate === undefined) {
      validate = this.#ajv.compile(schema)
      this.#cache.set(key, validate)
    }
    if (validate(input)) return []
    return (validate.errors ?? []).slice(0, 20).map((error) => ({
      path: error.instancePath === '' ? '(input)' : `input${error.instancePath.replaceAll('/', '.')}`,
      message: messageOf(error),
    }))
  }
}

/**
 * A pattern says nothing to a model ("must match pattern \"^(?:[hH]…\""): where the schema
 * describes the value it wants, the error says that and what it found instead.
 */
function messageOf(error: ErrorObject): string {
  const described = (error.parentSchema as { description?: unknown } | undefined)?.description
  if (error.keyword === 'pattern' && typeof described === 'string') return `expected ${described}, found ${JSON.stringify(error.data).slice(0, 200)}`
  return error.message ?? 'is invalid'
}
