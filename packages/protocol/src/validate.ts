import type { z } from 'zod'
import { type ErrorCode, TesseraError } from './errors.js'

export interface Issue {
  path: string
  message: string
}

function pointer(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map((part) => String(part)).join('.')
}

export function describeIssues(error: z.ZodError): Issue[] {
  return error.issues.slice(0, 20).map((issue) => ({ path: pointer(issue.path), message: issue.message }))
}

/**
 * Parses `value` with `schema` or throws a TesseraError whose message names the first
 * problem (where, what was expected) and whose details list up to 20 of them.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  code: ErrorCode = 'invalid_request',
): z.infer<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = describeIssues(result.error)
  const first = issues[0]
  const message = first ? `invalid ${what}: at ${first.path}: ${first.message}` : `invalid ${what}`
  throw new TesseraError(code, message, { expected: what, issues })
}
