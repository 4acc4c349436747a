import { createHash } from 'node:crypto'

const MAX = 64

/**
 * MCP tool names allow [A-Za-z0-9_-] up to 64 characters. `surface__action` reads well in
 * a client's tool list; a name that had to be cut or changed gets a short hash so two
 * actions can never share one.
 */
export function toolNameFor(surface: string, action: string): string {
  const raw = `${surface}__${action}`
  const clean = raw.replace(/[^A-Za-z0-9_-]/g, '_')
  if (clean === raw && clean.length <= MAX) return clean
  const suffix = createHash('sha256').update(raw).digest('hex').slice(0, 6)
  return `${clean.slice(0, MAX - 7)}_${suffix}`
}
