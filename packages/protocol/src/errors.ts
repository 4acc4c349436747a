import { z } from 'zod'
import { ERROR_CODES } from './tessera-error.js'

export { ERROR_CODES, PAGE_WORDS, TesseraError, isTesseraError, pageWordsOf } from './tessera-error.js'

/** The schemas of tessera-error.ts's codes and shape, for messages that carry an error. */
export const ErrorCode = z.enum(ERROR_CODES)
export type ErrorCode = z.infer<typeof ErrorCode>

export const ErrorShape = z.object({
  code: ErrorCode,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type ErrorShape = z.infer<typeof ErrorShape>

/** Describes a value for an error message without dumping it whole. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return `array(${value.length})`
  if (typeof value === 'string') return value.length > 40 ? `string "${value.slice(0, 40)}…"` : `string "${value}"`
  return typeof value
}
