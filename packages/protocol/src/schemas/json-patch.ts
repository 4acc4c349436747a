import { z } from 'zod'
import { JsonValue } from './json.js'

const path = z.string().regex(/^(\/.*)?$/, 'expected a JSON Pointer ("" or starting with "/")')

/** RFC 6902: the state diff format of every execution result. */
export const JsonPatchOperation = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), path, value: JsonValue }),
  z.object({ op: z.literal('remove'), path }),
  z.object({ op: z.literal('replace'), path, value: JsonValue }),
  z.object({ op: z.literal('move'), path, from: path }),
  z.object({ op: z.literal('copy'), path, from: path }),
  z.object({ op: z.literal('test'), path, value: JsonValue }),
])
export type JsonPatchOperation = z.infer<typeof JsonPatchOperation>

export const JsonPatch = z.array(JsonPatchOperation)
export type JsonPatch = z.infer<typeof JsonPatch>
