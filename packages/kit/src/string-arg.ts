import { type JsonObject, TesseraError } from '@tessera/protocol'

/** A façade tool's optional string argument: undefined when absent or null, a typed error when it is anything but a string. */
export function stringArg(args: JsonObject, key: string): string | undefined {
  const value = args[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new TesseraError('invalid_input', `expected "${key}" to be a string, found ${typeof value}`, { expected: 'string', found: value })
  return value
}
