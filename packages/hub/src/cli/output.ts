import { isTesseraError } from '@tessera/protocol/errors'
import { printable, printableJson } from '@tessera/protocol/printable'

const useColor = process.stdout.isTTY === true && process.env.NO_COLOR === undefined

export function paint(code: number, text: string): string {
  return useColor ? `\u001b[${code}m${text}\u001b[0m` : text
}

/** Exit status for a failed check (e.g. a broken chain), as opposed to an error. */
export const EXIT_CHECK_FAILED = 2

/** Prints an error as `error [code]: message` with its details, and sets the exit code. */
export function reportError(error: unknown): void {
  if (isTesseraError(error)) {
    // A message or its details may quote what an agent or a program sent.
    process.stderr.write(`${paint(31, 'error')} [${printable(error.code)}]: ${printable(error.message)}\n`)
    if (error.details !== undefined) process.stderr.write(`${printableJson(error.details, 2)}\n`)
  } else if (error instanceof Error) {
    process.stderr.write(`${paint(31, 'error')}: ${printable(error.message)}\n`)
  } else {
    process.stderr.write(`${paint(31, 'error')}: ${printable(String(error))}\n`)
  }
  process.exitCode = 1
}
