import { isSensitive, type JsonValue, type UiNode } from '@tessera/protocol'
import { redactContent } from './redact-content.js'
import { looksSecret, REDACTED } from './secret-names.js'

export interface RedactOptions {
  /** Extra property names (exact) to redact wherever they appear. */
  sensitiveKeys?: ReadonlySet<string>
}

/**
 * Returns `value` with every secret-looking field's value replaced, and every secret found
 * in its strings by content (a key, a token, a private key block) replaced by a typed marker.
 */
export function redactJson(value: JsonValue, options: RedactOptions = {}): JsonValue {
  return redactContent(redactNamed(value, options))
}

function redactNamed(value: JsonValue, options: RedactOptions): JsonValue {
  if (Array.isArray(value)) return value.map((item) => redactNamed(item, options))
  if (value === null || typeof value !== 'object') return value
  const out: { [key: string]: JsonValue } = {}
  for (const [key, child] of Object.entries(value)) {
    const secret = looksSecret(key) || options.sensitiveKeys?.has(key) === true
    out[key] = secret && child !== null ? REDACTED : redactNamed(child, options)
  }
  return out
}

/**
 * Input schemas mark secret properties with `writeOnly: true`, `format: "password"` or
 * `"x-sensitive": true`; collect those names so the input can be redacted before tracing.
 */
export function sensitiveKeysOfSchema(schema: unknown, found = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return found
  const node = schema as Record<string, unknown>
  const properties = node.properties
  if (properties !== null && typeof properties === 'object') {
    for (const [name, prop] of Object.entries(properties as Record<string, unknown>)) {
      if (prop !== null && typeof prop === 'object') {
        const p = prop as Record<string, unknown>
        if (p.writeOnly === true || p.format === 'password' || p['x-sensitive'] === true) found.add(name)
        sensitiveKeysOfSchema(p, found)
      }
    }
  }
  if (node.items !== undefined) sensitiveKeysOfSchema(node.items, found)
  return found
}

/**
 * The input keys to redact before an input is traced or shown for approval: those the
 * contract's schema marks, and every key when the action runs on a secret element (text
 * typed into a password field is a secret whatever the action calls it).
 */
export function secretInputKeys(contract: { inputSchema?: unknown }, node: UiNode | undefined, input: JsonValue): Set<string> {
  const keys = sensitiveKeysOfSchema(contract.inputSchema)
  if (node !== undefined && isSensitive(node) && input !== null && typeof input === 'object' && !Array.isArray(input)) for (const key of Object.keys(input)) keys.add(key)
  return keys
}
