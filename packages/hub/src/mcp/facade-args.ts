import { InputValidator } from '@tessera/gateway'
import { type JsonObject, type JsonValue, TesseraError } from '@tessera/protocol'

const validator = new InputValidator()

/**
 * Checks the kind of each argument a kind's tool was given against its schema, before the
 * tool reads them: `values: "Fast"` for a list is refused as that, not read as no values.
 * Which arguments are there is the tool's to judge: it takes older names its schema does not
 * list (Playwright MCP's `ref` for `target`), so neither required nor extra names are checked.
 */
export function checkFacadeArgs(tool: string, schema: JsonObject, args: JsonObject): void {
  const problems = validator.validate(kindsOnly(schema) as JsonObject, args)
  const first = problems[0]
  if (first === undefined) return
  const where = first.path.replace(/^input\.?/, '')
  throw new TesseraError('invalid_input', `${tool}: ${where === '' || where === '(input)' ? 'its arguments' : `"${where}"`} ${first.message}`, { expected: schema, issues: problems as unknown as JsonValue })
}

/**
 * The arguments a tool that knows every name it reads (FacadeTool.olderNames) was given and
 * does not read: said back as left out, never refused (a prompt written for a peer may pass
 * a name the tool has no use for).
 */
export function unreadArgs(schema: JsonObject, olderNames: readonly string[] | undefined, args: JsonObject): string | undefined {
  if (olderNames === undefined) return undefined
  const properties = schema.properties !== null && typeof schema.properties === 'object' && !Array.isArray(schema.properties) ? Object.keys(schema.properties) : []
  const unread = Object.keys(args).filter((name) => !properties.includes(name) && !olderNames.includes(name))
  if (unread.length === 0) return undefined
  return `note: ${unread.map((name) => JSON.stringify(name.slice(0, 60))).join(', ')} left out: this tool takes ${properties.join(', ')}`
}

/** A schema without what says which names must or must not be there, at any depth. */
function kindsOnly(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(kindsOnly)
  if (schema === null || typeof schema !== 'object') return schema
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' || key === 'additionalProperties') continue
    if (key === 'enum' || key === 'const') out[key] = value
    // The names under properties are arguments, never keywords: each one's schema is read on.
    else if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, kindsOnly(property)]))
    else out[key] = kindsOnly(value)
  }
  return out
}
