import { type JsonObject, type JsonValue, sha256Hex } from '@tessera/protocol'
import type { StoredBlob } from './store.js'

/** How a large output goes to the trace. */
export interface TracedOutputLimits {
  /** JSON text up to this many characters stays in the event itself. */
  inlineChars: number
  /** Above `inlineChars`, the text is stored once as a blob of at most this many characters; the rest is cut, and the event says so. */
  maxChars: number
}

export const DEFAULT_TRACED_OUTPUT: TracedOutputLimits = { inlineChars: 65_536, maxChars: 1_048_576 }

/**
 * An action's (redacted) output as its trace event holds it: the value itself when small;
 * else a reference to a content-addressed blob (`{blob, chars}`; the same output read twice
 * is stored once), cut at `maxChars` with a note when longer. A 16 MiB file read no longer
 * writes 16 MiB per read into the trace. The agent's answer is not affected.
 */
export function tracedOutput(output: JsonValue, limits: TracedOutputLimits, blobs: StoredBlob[]): JsonValue {
  const text = JSON.stringify(output)
  if (text.length <= limits.inlineChars) return output
  const kept = text.length > limits.maxChars ? text.slice(0, limits.maxChars) : text
  const hash = sha256Hex(kept)
  blobs.push({ hash, text: kept })
  const reference: JsonObject = { blob: hash, chars: text.length }
  if (kept.length < text.length) reference.cut = { kept: kept.length, of: text.length, note: `output cut to ${kept.length} of ${text.length} characters (limits.traceOutputChars); the agent got all of it` }
  return { tracedOutput: reference }
}
