import { type ActionResult, type ActionStatus, type ErrorShape, TesseraError } from '@tessera/protocol'

/** How a step ends a request: its status, a typed error, and anything the result carries. */
export type StepEnd = { status: ActionStatus; error?: ErrorShape; extra?: Partial<ActionResult> }

export function toErrorShape(error: unknown, fallback: string): ErrorShape {
  if (error instanceof TesseraError) return error.toJSON()
  if (error instanceof Error) return { code: 'internal', message: `${fallback}: ${error.message}` }
  return { code: 'internal', message: fallback, details: { found: String(error) } }
}
