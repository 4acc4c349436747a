import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { ActionTarget, SurfaceKind } from '@tessera/protocol'

/**
 * The tools named in the seeds (`file_*`, `terminal_*`) as thin façades: each maps to one
 * action of a surface of the right kind, takes that action's own input schema (plus which
 * tile), and goes through the gateway like any other call.
 */
export interface SeedMapping {
  name: string
  kind: SurfaceKind
  action: string
  description: string
}

export const SEED_MAPPINGS: SeedMapping[] = [
  { name: 'file_list', kind: 'files', action: 'list', description: 'List a directory: FileInfo {name, path, file_type, size, permissions, modified, x, y, color} per entry.' },
  { name: 'file_navigate', kind: 'files', action: 'navigate', description: 'Move the file tile to a directory → {success, files_count}.' },
  { name: 'file_find', kind: 'files', action: 'find', description: 'Find files by glob (e.g. **/*.ts), bounded in count and depth → matches [{name, path, type}].' },
  { name: 'file_read', kind: 'files', action: 'read', description: 'Read a file → {content, truncated, encoding}; binary comes back as base64; bounded by max_bytes from offset.' },
  { name: 'file_write', kind: 'files', action: 'write', description: 'Write a whole file, atomically.' },
  { name: 'file_edit', kind: 'files', action: 'edit', description: 'Replace exact text in a file; fails unless the number of matches equals expected_count (default 1).' },
]

export function seedTool(mapping: SeedMapping, target: ActionTarget): Tool {
  const schema = (target.contract.inputSchema ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown>; [key: string]: unknown }
  const { risk } = target.contract
  return {
    name: mapping.name,
    description: `${mapping.description} (${risk} action "${target.id}")`,
    inputSchema: {
      ...schema,
      type: 'object',
      properties: { ...(schema.properties ?? {}), surface: { type: 'string', description: `which ${mapping.kind} tile; default: the focused one, else the first` } },
    },
    annotations: { readOnlyHint: risk === 'read', destructiveHint: risk === 'destructive', openWorldHint: risk === 'external' },
  }
}
