import { TesseraError } from '../errors.js'

/**
 * The two ways a condition goes wrong: it cannot be parsed (the contract is bad, reported
 * at registration) or it cannot be evaluated against this state (reported at run time).
 * Both say what was expected and what was found.
 */

/** Error details carry the source, but a hostile megabyte of it helps nobody. */
const MAX_SOURCE_IN_DETAILS = 2000
const MAX_SOURCE_IN_MESSAGE = 120

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text
}

export function invalidCondition(
  source: string,
  expected: string,
  found: string,
  position?: number,
): TesseraError {
  const at = position === undefined ? '' : ` at character ${position}`
  const details: Record<string, unknown> = { source: clip(source, MAX_SOURCE_IN_DETAILS), expected, found }
  if (position !== undefined) details.position = position
  return new TesseraError(
    'invalid_condition',
    `Invalid condition ${JSON.stringify(clip(source, MAX_SOURCE_IN_MESSAGE))}: expected ${expected}, found ${found}${at}.`,
    details,
  )
}

export function conditionError(source: string, path: string | undefined, expected: string, found: string): TesseraError {
  const details: Record<string, unknown> = { source: clip(source, MAX_SOURCE_IN_DETAILS), expected, found }
  if (path !== undefined) details.path = path
  const where = path === undefined ? '' : ` at ${clip(path, MAX_SOURCE_IN_MESSAGE)}`
  return new TesseraError(
    'condition_error',
    `Condition ${JSON.stringify(clip(source, MAX_SOURCE_IN_MESSAGE))} failed${where}: expected ${expected}, found ${found}.`,
    details,
  )
}
