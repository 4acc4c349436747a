import {
  type ActionContract,
  compileCondition,
  compileSummary,
  type JsonObject,
  type JsonValue,
  pathsRead,
  readableValue,
  type Risk,
  withoutControlCharacters,
} from '@tessera/protocol'
import { looksSecret, REDACTED } from '../redaction/secret-names.js'

export interface ApprovalExplanation {
  summary: string
  title: string
  risk: Risk
  preconditions: Array<{ condition: string; values: Record<string, JsonValue> }>
}

const MAX_SUMMARY_CHARS = 300
const MAX_INPUT_FIELDS = 4

/**
 * What a person needs to decide: one sentence (the contract's template, else the title,
 * the element and the input), the risk, and each precondition with the values it read.
 * `input` is the redacted input: a secret never reaches a summary. Everything here is
 * shown raw in terminals and pages, so control characters are removed.
 */
export function explainApproval(options: {
  contract: ActionContract
  risk: Risk
  scope: JsonObject
  redactedInput: JsonValue
  targetName: string | undefined
  surface: string
}): ApprovalExplanation {
  const { contract, scope } = options
  let summary = defaultSummary(contract.title, options.targetName, options.surface, options.redactedInput)
  if (contract.summary !== undefined) {
    try {
      // The template reads the redacted input too.
      summary = compileSummary(contract.summary).render({ ...scope, input: options.redactedInput })
    } catch (error) {
      summary = `${summary} (summary template failed: ${error instanceof Error ? error.message : String(error)})`
    }
  }
  return {
    summary: clip(withoutControlCharacters(summary)),
    title: withoutControlCharacters(contract.title),
    risk: options.risk,
    preconditions: contract.preconditions.map((condition) => ({ condition, values: valuesRead(condition, scope) })),
  }
}

function defaultSummary(title: string, targetName: string | undefined, surface: string, input: JsonValue): string {
  const on = targetName === undefined || targetName.length === 0 ? ` on ${surface}` : ` on "${targetName}" (${surface})`
  const fields = input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.entries(input) : []
  const shown = fields.slice(0, MAX_INPUT_FIELDS).map(([key, value]) => `${key} ${readableValue(value)}`)
  if (fields.length > MAX_INPUT_FIELDS) shown.push(`+${fields.length - MAX_INPUT_FIELDS} more`)
  return `${title}${on}${shown.length > 0 ? `: ${shown.join(', ')}` : ''}`
}

function valuesRead(condition: string, scope: JsonObject): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {}
  try {
    for (const path of pathsRead(compileCondition(condition).ast)) {
      const value = readPath(scope, path)
      if (value === undefined) continue
      // A field named like a secret is shown as redacted, as everywhere else.
      if (path.split('.').some(looksSecret)) values[path] = REDACTED
      else values[path] = typeof value === 'string' ? clip(withoutControlCharacters(value), 200) : value
    }
  } catch {
    // A condition that does not parse failed when the contract was offered; nothing to show.
  }
  return values
}

function readPath(scope: JsonObject, path: string): JsonValue | undefined {
  let value: JsonValue | undefined = scope
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined
    value = value[key]
  }
  // Whole objects and lists are left to the frame; a person reads the scalars.
  return value !== null && typeof value === 'object' ? undefined : value
}

function clip(text: string, max = MAX_SUMMARY_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
