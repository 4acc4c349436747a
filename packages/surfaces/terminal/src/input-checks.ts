import { TesseraError } from '@tessera/protocol'

/** Checks on what a caller hands a shell session; it may be driven without a gateway, so it checks for itself. */

export function checkCommand(command: unknown): string {
  if (typeof command !== 'string') {
    throw new TesseraError('invalid_input', `expected command to be a string, found ${typeof command}`, { expected: 'string', found: typeof command })
  }
  if (command.includes('\0')) throw new TesseraError('invalid_input', 'expected a command without NUL bytes', { expected: 'no NUL', found: 'NUL' })
  const line = command.replace(/[\r\n]+$/, '')
  if (line.trim().length === 0) throw new TesseraError('invalid_input', 'expected a non-empty command', { expected: 'non-empty string', found: command })
  return line.replace(/\r\n?/g, '\n')
}

export function checkTimeout(timeoutMs: unknown): number {
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
    throw new TesseraError('invalid_input', `expected timeout_ms to be a positive number, found ${JSON.stringify(timeoutMs)}`, {
      expected: 'positive number of milliseconds',
      found: timeoutMs,
    })
  }
  return timeoutMs
}

export function checkCount(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TesseraError('invalid_input', `expected ${name} to be a non-negative integer, found ${JSON.stringify(value)}`, { expected: 'non-negative integer', found: value })
  }
  return value
}
