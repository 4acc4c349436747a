import { z } from 'zod'

/** Plain JSON: what state, inputs and outputs are allowed to be, so they hash and diff. */
export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }

export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine(Number.isFinite, 'a finite number'),
    z.boolean(),
    z.null(),
    z.array(JsonValue),
    z.record(z.string(), JsonValue),
  ]),
)

export const JsonObject: z.ZodType<JsonObject> = z.record(z.string(), JsonValue)
