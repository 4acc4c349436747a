import type { JsonObject, JsonValue } from '@tessera/protocol'
import { contentHash } from '@tessera/protocol'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { linearRegExp } from './linear-regexp.js'

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
  readonly #ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, verbose: true, code: { regExp: linearRegExp } })
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
  // Which field was not expected, and which are: "must NOT have additional properties" names neither.
  if (error.keyword === 'additionalProperties') {
    const known = Object.keys((error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {})
    return `has "${String(error.params.additionalProperty)}", which it does not take${known.length === 0 ? '' : `; expected only ${known.map((key) => `"${key}"`).join(', ')}`}`
  }
  if (error.keyword === 'enum') return `expected one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}, found ${JSON.stringify(error.data)?.slice(0, 100) ?? 'nothing'}`
  // A value of the wrong kind: what it is, beside what the schema wants.
  if (error.keyword === 'type') return `expected ${String(error.params.type)}, found ${kindOf(error.data)} ${JSON.stringify(error.data)?.slice(0, 100) ?? ''}`.trimEnd()
  return error.message ?? 'is invalid'
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}
