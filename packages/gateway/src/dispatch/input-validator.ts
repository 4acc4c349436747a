import type { JsonObject, JsonValue } from '@tessera/protocol'
import { contentHash } from '@tessera/protocol'
import { Ajv, type ValidateFunction } from 'ajv'

export interface InputProblem {
  path: string
  message: string
}

/**
 * Validates action inputs against the contract's JSON Schema. Compiled validators are
 * cached by schema content, so a contract seen on every frame compiles once.
 */
export class InputValidator {
  readonly #ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true })
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
      message: error.message ?? 'is invalid',
    }))
  }
}
