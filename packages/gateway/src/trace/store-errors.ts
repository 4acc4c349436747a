import { TesseraError, isTesseraError } from '@tessera/protocol'
import type { TraceStoreKind } from './store.js'

export function closedStoreError(kind: TraceStoreKind): TesseraError {
  return new TesseraError('store_error', `the ${kind} trace store is closed`, {
    expected: 'an open store',
    found: 'closed',
  })
}

/**
 * Wraps a backend failure (SQLite, PostgreSQL, the file system) so callers see one error type
 * with the operation and the backend's own code; TesseraErrors pass through unchanged.
 */
export function storeError(
  kind: TraceStoreKind,
  operation: string,
  cause: unknown,
  details: Record<string, unknown> = {},
): TesseraError {
  if (isTesseraError(cause)) return cause
  const message = cause instanceof Error ? cause.message : String(cause)
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined
  const error = new TesseraError('store_error', `${kind} trace store could not ${operation}: ${message}`, {
    ...details,
    operation,
    ...(code === undefined ? {} : { backendCode: code }),
  })
  error.cause = cause
  return error
}
