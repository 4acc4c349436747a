import { wellFormed } from '@tessera/protocol'

/** Content whose `data` is base64 (ASCII by construction): not walked, a screenshot is megabytes. */
const BINARY_CONTENT = new Set(['image', 'audio'])

/**
 * `value` with every string in it, keys included, free of half characters (see
 * `wellFormed`): what leaves the hub over MCP goes on into a model's request, where one half
 * of an emoji — a page's text cut at a limit, or written so by a hostile page — gets the
 * whole request refused. The last guard, whatever the surface and whatever cut the text.
 */
export function wholeText<T>(value: T): T {
  return walk(value) as T
}

function walk(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value)
  if (Array.isArray(value)) return value.map(walk)
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  if (typeof record.type === 'string' && BINARY_CONTENT.has(record.type)) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(record)) out[wellFormed(key)] = walk(inner)
  return out
}
