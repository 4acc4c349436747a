import { type ErrorCode, isTesseraError } from '@tessera/protocol'
import { HttpProblemError } from '../auth/request-guard.js'

const STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_request: 400,
  invalid_input: 400,
  invalid_frame: 400,
  invalid_condition: 400,
  invalid_contract: 400,
  unsupported_version: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  timed_out: 504,
}

/** Every error on the wire: `{ error: { code, message, details } }` with a fitting status. */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpProblemError) {
    // A refused body may still be arriving: close the connection rather than leave the
    // client to reuse a socket whose request was cut short.
    const close: Record<string, string> = error.status === 413 ? { connection: 'close' } : {}
    return Response.json({ error: error.problem.error }, { status: error.status, headers: { ...(error.headers ?? {}), ...close } })
  }
  if (isTesseraError(error)) return Response.json({ error: error.toJSON() }, { status: STATUS[error.code] ?? 500 })
  const message = error instanceof Error ? error.message : String(error)
  return Response.json({ error: { code: 'internal', message } }, { status: 500 })
}
