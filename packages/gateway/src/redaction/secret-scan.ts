import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend'
import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types'
import { CONTENT_RULES } from './content-rules.js'

/** A secret found in a text: where, and what kind (the marker shows the kind). */
export interface SecretFinding {
  kind: string
  start: number
  end: number
}

/**
 * The shortest text that can hold a secret any rule finds (`NAME=` and a 10-character value,
 * a JWT, an AWS key id are all longer): shorter strings are not scanned at all.
 */
const MIN_SCANNED = 14

const SECRETLINT_PREFIX = '@secretlint/secretlint-rule-'
/** Marker kinds for secretlint's rules, where the rule's own name says less. */
const KIND_OF_RULE: Record<string, string> = {
  aws: 'aws-key',
  gcp: 'gcp-key',
  privatekey: 'private-key',
  'database-connection-string': 'connection-string',
  github: 'github-token',
  gitlab: 'gitlab-token',
  slack: 'slack-token',
  npm: 'npm-token',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  stripe: 'stripe-key',
}
/** Options for secretlint's rules: an AWS access key id counts on its own, not only beside its secret. */
const RULE_OPTIONS: Record<string, Record<string, unknown>> = { [`${SECRETLINT_PREFIX}aws`]: { enableIDScanRule: true } }

/** Where the running scan collects: rules report into it, and a scan is synchronous, so one at a time. */
let collecting: SecretFinding[] = []

const SOURCE_STUB = {
  hasBOM: false,
  filePath: undefined,
  physicalFilePath: undefined,
  contentType: 'text',
  ext: '',
  getFilePath: () => undefined,
  getPhysicalFilePath: () => undefined,
  // Only the comment filter, which is not run, asks for positions.
  locationToRange: (): [number, number] => [0, 0],
  rangeToLocation: () => ({ start: { line: 1, column: 0 }, end: { line: 1, column: 0 } }),
  positionToIndex: () => 0,
  indexToPosition: () => ({ line: 1, column: 0 }),
} as const

// The scanners of secretlint's recommended preset, made once and run synchronously on text
// (every one of them is synchronous unless given a .p12 or .json file name, which a scanned
// text never has). The preset's comment filter is left out on purpose: a
// `secretlint-disable` comment in a program's output must not turn scanning off.
const SECRETLINT_SCANNERS = (recommendedRules as SecretLintRuleCreator[])
  // Its basic-auth rule misses short passwords and loopback hosts: content-rules.ts has its own.
  .filter((rule) => rule.meta.type === 'scanner' && rule.meta.id !== `${SECRETLINT_PREFIX}basicauth`)
  .map((rule) => {
    const short = rule.meta.id.startsWith(SECRETLINT_PREFIX) ? rule.meta.id.slice(SECRETLINT_PREFIX.length) : rule.meta.id
    const kind = KIND_OF_RULE[short] ?? short
    const context = {
      sharedOptions: {},
      createTranslator: () => (messageId: string) => ({ message: messageId, messageId }),
      report: (descriptor: { range: readonly [number, number] }) => collecting.push({ kind, start: descriptor.range[0], end: descriptor.range[1] }),
      ignore: () => undefined,
    } as unknown as SecretLintRuleContext
    return { id: rule.meta.id, file: rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {}).file }
  })

function secretlintFindings(text: string, found: SecretFinding[]): void {
  const source: SecretLintSourceCode = { ...SOURCE_STUB, content: text }
  collecting = found
  try {
    for (const scanner of SECRETLINT_SCANNERS) {
      const ran = scanner.file?.(source)
      if (ran instanceof Promise) throw new Error(`secret scanning: the rule ${scanner.id} ran asynchronously on text; it cannot guard a synchronous write`)
    }
  } finally {
    collecting = []
  }
}

function contentRuleFindings(text: string, found: SecretFinding[]): void {
  for (const rule of CONTENT_RULES) {
    if (rule.requires !== undefined && !text.includes(rule.requires)) continue
    rule.pattern.lastIndex = 0
    for (let match = rule.pattern.exec(text); match !== null; match = rule.pattern.exec(text)) {
      if (rule.accept !== undefined && !rule.accept(match)) continue
      const secret = match.groups?.secret
      const start = secret === undefined ? match.index : match.index + match[0].indexOf(secret)
      found.push({ kind: rule.kind, start, end: start + (secret ?? match[0]).length })
    }
  }
}

/** Every secret in `text`, in order, overlapping findings merged (the first kind wins). */
export function scanSecrets(text: string): SecretFinding[] {
  if (text.length < MIN_SCANNED) return []
  const found: SecretFinding[] = []
  secretlintFindings(text, found)
  contentRuleFindings(text, found)
  if (found.length < 2) return found
  found.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: SecretFinding[] = []
  for (const finding of found) {
    const last = merged.at(-1)
    if (last !== undefined && finding.start < last.end) last.end = Math.max(last.end, finding.end)
    else merged.push({ ...finding })
  }
  return merged
}

/** `text` with each secret replaced by a typed marker, `[REDACTED:aws-key]`; the same string when there is none. */
export function redactSecrets(text: string): string {
  const found = scanSecrets(text)
  if (found.length === 0) return text
  let out = ''
  let at = 0
  for (const finding of found) {
    out += `${text.slice(at, finding.start)}[REDACTED:${finding.kind}]`
    at = finding.end
  }
  return out + text.slice(at)
}
