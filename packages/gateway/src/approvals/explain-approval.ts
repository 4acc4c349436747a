import {
  type ActionContract,
  compileCondition,
  compileSummary,
  contentHash,
  type JsonObject,
  type JsonValue,
  pathsRead,
  readableValue,
  type Risk,
  printable,
} from '@tessera/protocol'
import { redactJson } from '../redaction/redact-json.js'
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
 * The sentence is rendered from the redacted state and input, so a secret never reaches
 * it; everything is shown raw in terminals and pages, so control characters are removed.
 *
 * `seenHash` binds an approval to what was shown: the sentence, the risk, the
 * preconditions' values, and the unredacted values of every path the template and the
 * preconditions read (a redacted value that changed still changes the hash).
 */
export function explainApproval(options: {
  contract: ActionContract
  risk: Risk
  scope: JsonObject
  redactedInput: JsonValue
  targetName: string | undefined
  surface: string
}): { shown: ApprovalExplanation; seenHash: string } {
  const { contract, scope } = options
  let summary = defaultSummary(contract.title, options.targetName, options.surface, options.redactedInput)
  const paths = new Set<string>()
  if (contract.summary !== undefined) {
    try {
      const template = compileSummary(contract.summary)
      for (const path of template.paths) paths.add(path)
      summary = template.render(redactJson({ ...scope, input: options.redactedInput }) as JsonObject)
    } catch (error) {
      summary = `${summary} (summary template failed: ${error instanceof Error ? error.message : String(error)})`
    }
  }
  const shown: ApprovalExplanation = {
    summary: clip(printable(summary)),
    title: printable(contract.title),
    risk: options.risk,
    preconditions: contract.preconditions.map((condition) => {
      const read = conditionPaths(condition)
      for (const path of read) paths.add(path)
      return { condition, values: shownValues(read, scope) }
    }),
  }
  const raw = Object.fromEntries([...paths].sort().map((path) => [path, readPath(scope, path) ?? null]))
  return { shown, seenHash: contentHash({ shown: { summary: shown.summary, risk: shown.risk, preconditions: shown.preconditions }, raw }) }
}

function defaultSummary(title: string, targetName: string | undefined, surface: string, input: JsonValue): string {
  const on = targetName === undefined || targetName.length === 0 ? ` on ${surface}` : ` on "${targetName}" (${surface})`
  const fields = input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.entries(input) : []
  const shown = fields.slice(0, MAX_INPUT_FIELDS).map(([key, value]) => `${key} ${readableValue(value)}`)
  if (fields.length > MAX_INPUT_FIELDS) shown.push(`+${fields.length - MAX_INPUT_FIELDS} more`)
  return `${title}${on}${shown.length > 0 ? `: ${shown.join(', ')}` : ''}`
}

function conditionPaths(condition: string): string[] {
  try {
    return pathsRead(compileCondition(condition).ast)
  } catch {
    // A condition that does not parse failed when the contract was offered; nothing to show.
    return []
  }
}

/** The scalar values a person is shown; a field named like a secret is shown as redacted, as everywhere else. */
function shownValues(paths: readonly string[], scope: JsonObject): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {}
  for (const path of paths) {
    const value = readPath(scope, path)
    // Whole objects and lists are left to the frame; a person reads the scalars.
    if (value === undefined || (value !== null && typeof value === 'object')) continue
    if (path.split('.').some(looksSecret)) values[path] = REDACTED
    else values[path] = typeof value === 'string' ? clip(printable(value), 200) : value
  }
  return values
}

function readPath(scope: JsonObject, path: string): JsonValue | undefined {
  let value: JsonValue | undefined = scope
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined
    value = value[key]
  }
  return value
}

function clip(text: string, max = MAX_SUMMARY_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
