import type { JsonObject, JsonPatch } from '@tessera/protocol'
import fastJsonPatch from 'fast-json-patch'

/** RFC 6902 patch that turns `before` into `after`. */
export function stateDiff(before: JsonObject, after: JsonObject): JsonPatch {
  return fastJsonPatch.compare(before, after) as JsonPatch
}
