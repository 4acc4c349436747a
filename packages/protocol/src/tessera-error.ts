/**
 * Every error Tessera reports has a stable machine-readable code, a sentence a human can
 * act on, and details that say what was expected and what was found. This module needs no
 * schema library, so a command-line tool can load it in a few milliseconds.
 */
export const ERROR_CODES = [
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
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export interface ErrorShape {
  code: ErrorCode
  message: string
  details?: Record<string, unknown> | undefined
}

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

/**
 * The key of an error's details that holds the words of a page or an app the error is about
 * (the options a list offers, the words of a banner over a button). They are the page's, not
 * the hub's: an agent reads them fenced as untrusted, so the message never quotes them.
 */
export const PAGE_WORDS = 'pageWords'

/** The page's words an error's details hold (PAGE_WORDS), if any. */
export function pageWordsOf(details: Record<string, unknown> | undefined): string[] | undefined {
  const words = details?.[PAGE_WORDS]
  return Array.isArray(words) && words.length > 0 ? words.map(String) : undefined
}

export function isTesseraError(value: unknown): value is TesseraError {
  return value instanceof TesseraError
}

