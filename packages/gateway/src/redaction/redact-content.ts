import type { JsonValue } from '@tessera/protocol'
import { scanSecrets } from './secret-scan.js'

/** The strings of a value are scanned as one text, a line each. */
const JOINER = '\n'

function collect(value: JsonValue, into: string[]): void {
  if (typeof value === 'string') into.push(value)
  else if (Array.isArray(value)) for (const item of value) collect(item, into)
  else if (value !== null && typeof value === 'object') for (const child of Object.values(value)) collect(child, into)
}

function rebuild(value: JsonValue, next: () => string): JsonValue {
  if (typeof value === 'string') return next()
  if (Array.isArray(value)) return value.map((item) => rebuild(item, next))
  if (value === null || typeof value !== 'object') return value
  const out: { [key: string]: JsonValue } = {}
  for (const [key, child] of Object.entries(value)) out[key] = rebuild(child, next)
  return out
}

/**
 * `value` with every secret found by content (secret-scan.ts) in its strings replaced by a
 * typed marker; the very same value when there is none, which is the common case and costs
 * one scan. The strings are scanned as one text, a line each, so a key block printed over
 * several screen lines is found as a whole; each line keeps its own place, its part of a
 * secret replaced.
 */
export function redactContent<T extends JsonValue>(value: T): T {
  const strings: string[] = []
  collect(value, strings)
  if (strings.length === 0) return value
  const text = strings.join(JOINER)
  const found = scanSecrets(text)
  if (found.length === 0) return value
  const redacted: string[] = []
  let offset = 0
  for (const original of strings) {
    const start = offset
    const end = start + original.length
    offset = end + JOINER.length
    let out = ''
    let at = start
    for (const finding of found) {
      if (finding.end <= start || finding.start >= end) continue
      const from = Math.max(finding.start, start)
      out += text.slice(at, from)
      // The marker goes where the secret starts; a line that only continues it loses that part.
      if (finding.start >= start) out += `[REDACTED:${finding.kind}]`
      at = Math.min(finding.end, end)
    }
    redacted.push(out + text.slice(at, end))
  }
  let index = 0
  return rebuild(value, () => redacted[index++] ?? '') as T
}
