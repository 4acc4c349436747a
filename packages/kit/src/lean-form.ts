import type { JsonObject, JsonValue } from '@tessera/protocol'
import type { z } from 'zod'
import { jsonSchemaOf } from './define-action.js'

/**
 * What a seed tool's completed call answers as structuredContent: its output without what
 * only repeats or decorates it. Clients such as Claude Code hand a model the JSON of
 * structuredContent *instead of* the text when both are present, so this form, not the text,
 * is often all a model reads: it must be as lean as the text. The whole output stays in the
 * trace and reaches a client that asks for it (`_meta: {"tessera/output": "full"}`).
 */
export interface LeanForm {
  /** JSON Schema (type object) of the lean form: the tool's outputSchema. */
  schema: JsonObject
  of(output: JsonValue): JsonObject
}

/** A lean form from its zod schema (the single source of the outputSchema) and a projection. */
export function leanForm<T extends JsonObject>(schema: z.ZodType<T>, of: (output: JsonValue) => T): LeanForm {
  return { schema: jsonSchemaOf(schema, 'output'), of }
}

export interface LeanFieldsOptions {
  /** Never sent: derivable (`success` is `exit_code === 0`), or for a tile's layout only. */
  drop?: readonly string[]
  /** Always sent, even false, null or empty (`exit_code`). */
  always?: readonly string[]
  /** Text fields sent without one final newline, as `$(…)` gives a command's output. */
  trim?: readonly string[]
}

/**
 * The common projection: every field except the dropped ones, sent only when it says
 * something — not false, null, an empty string, an empty list or an empty object — unless it
 * is one of `always`. A field left out therefore reads as false, null or empty.
 */
export function leanFields(output: JsonValue, options: LeanFieldsOptions = {}): JsonObject {
  const lean: JsonObject = {}
  for (const [key, raw] of Object.entries(outputFields<JsonObject>(output))) {
    if (raw === undefined || options.drop?.includes(key)) continue
    const value = options.trim?.includes(key) && typeof raw === 'string' ? withoutFinalNewline(raw) : raw
    if (options.always?.includes(key) || saysSomething(value)) lean[key] = value
  }
  return lean
}

/** An output's fields, to read by name (a tool's text or lean form); none when it is not an object. */
export function outputFields<T = Record<string, JsonValue | undefined>>(output: JsonValue): Partial<T> {
  return output !== null && typeof output === 'object' && !Array.isArray(output) ? (output as Partial<T>) : {}
}

function saysSomething(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === false || value === '') return false
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'object') return Object.keys(value).length > 0
  return true
}

export function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text
}
