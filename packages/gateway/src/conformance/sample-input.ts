import type { JsonObject, JsonValue } from '@tessera/protocol'

/**
 * The smallest input that satisfies a simple JSON Schema: required properties only, the
 * default or first enum value where given. Enough to exercise an action generically.
 */
export function sampleInput(schema: JsonObject | undefined): JsonValue {
  if (schema === undefined) return {}
  if (schema.default !== undefined) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] ?? null
  if ('const' in schema) return schema.const ?? null
  switch (schema.type) {
    case 'string': {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0
      return 'sample text'.padEnd(Math.max(min, 11), '.')
    }
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1
    case 'boolean':
      return false
    case 'array':
      return []
    default: {
      const out: JsonObject = {}
      const properties = (schema.properties ?? {}) as Record<string, JsonObject>
      const required = Array.isArray(schema.required) ? schema.required : []
      for (const name of required) {
        if (typeof name === 'string') out[name] = sampleInput(properties[name])
      }
      return out
    }
  }
}
