import { createHash } from 'node:crypto'
import canonicalizeImport from 'canonicalize'
import { TesseraError } from './errors.js'

// canonicalize ships CommonJS with a default export; under NodeNext it arrives wrapped.
const canonicalize = canonicalizeImport as unknown as (value: unknown) => string | undefined

/** RFC 8785 canonical JSON: same value → same bytes, whatever the key order. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value)
  if (text === undefined) {
    throw new TesseraError('invalid_request', 'expected a JSON value to canonicalize, found undefined')
  }
  return text
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

export function contentHash(value: unknown): string {
  return sha256Hex(canonicalJson(value))
}
