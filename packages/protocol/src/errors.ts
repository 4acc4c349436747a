import { z } from 'zod'

/**
 * Every error Tessera reports has a stable machine-readable code, a sentence a human can
 * act on, and details that say what was expected and what was found.
 */
export const ErrorCode = z.enum([
  'invalid_frame',
  'invalid_request',
  'invalid_input',
  'invalid_contract',
  'invalid_condition',
  'condition_error',
  'unsupported_version',
  'not_found',
  'conflict',
  'forbidden',
  'unauthorized',
  'rate_limited',
  'timed_out',
  'store_error',
  'chain_broken',
  'replay_diverged',
  'internal',
])
export type ErrorCode = z.infer<typeof ErrorCode>

export const ErrorShape = z.object({
  code: ErrorCode,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type ErrorShape = z.infer<typeof ErrorShape>

export class TesseraError extends Error {
  readonly code: ErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message)
    this.name = 'TesseraError'
    this.code = code
    this.details = details
  }

  toJSON(): ErrorShape {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details }
  }
}

export function isTesseraError(value: unknown): value is TesseraError {
  return value instanceof TesseraError
}

/** Describes a value for an error message without dumping it whole. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return `array(${value.length})`
  if (typeof value === 'string') return value.length > 40 ? `string "${value.slice(0, 40)}…"` : `string "${value}"`
  return typeof value
}
