import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { ActionContract, SurfaceKind } from '@tessera/protocol'
import { FILE_ACTIONS } from '@tessera/surface-files'
import { TERMINAL_ACTIONS } from '@tessera/surface-terminal'

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
  /** A fixed surface (the map) instead of a tile of `kind`. */
  surface?: string
  /** The argument that names the tile: `surface` (default) or `terminal_id`. */
  targetArg?: 'surface' | 'terminal_id'
}

export const SEED_MAPPINGS: SeedMapping[] = [
  { name: 'file_list', kind: 'files', action: 'list', description: 'List a directory: FileInfo {name, path, file_type, size, permissions, modified, x, y, color} per entry.' },
  { name: 'file_navigate', kind: 'files', action: 'navigate', description: 'Move the file tile to a directory → {success, files_count}.' },
  { name: 'file_find', kind: 'files', action: 'find', description: 'Find files by glob (e.g. **/*.ts), bounded in count and depth → matches [{name, path, type}].' },
  { name: 'file_read', kind: 'files', action: 'read', description: 'Read a file → {content, truncated, encoding}; binary comes back as base64; bounded by max_bytes from offset.' },
  { name: 'file_write', kind: 'files', action: 'write', description: 'Write a whole file, atomically.' },
  { name: 'file_edit', kind: 'files', action: 'edit', description: 'Replace exact text in a file; fails unless the number of matches equals expected_count (default 1).' },
  { name: 'terminal_create', kind: 'app', surface: 'map', action: 'create-terminal', description: 'Open a terminal tile (a real shell) at x, y → {terminal_id, x, y}.' },
  { name: 'terminal_list', kind: 'app', surface: 'map', action: 'list-terminals', description: 'Terminals: [{id, working_dir, focused, busy}].' },
  { name: 'terminal_focus', kind: 'app', surface: 'map', action: 'focus-terminal', description: 'Focus a terminal tile.' },
  { name: 'terminal_close', kind: 'app', surface: 'map', action: 'close-terminal', description: 'Close a terminal tile and its shell.' },
  { name: 'terminal_execute', kind: 'terminal', targetArg: 'terminal_id', action: 'execute', description: "Run a command in the terminal's own shell and wait for it → CommandResult {stdout, stderr, exit_code, success, duration_ms, truncated}. cwd and environment persist. Destructive commands wait for a human." },
  { name: 'terminal_start', kind: 'terminal', targetArg: 'terminal_id', action: 'start', description: 'Start a long-running or interactive program without waiting; then terminal_read, terminal_input, terminal_wait_for.' },
  { name: 'terminal_read', kind: 'terminal', targetArg: 'terminal_id', action: 'read', description: 'New output since an offset (default: since the last read), a line, or the tail.' },
  { name: 'terminal_input', kind: 'terminal', targetArg: 'terminal_id', action: 'input', description: 'Type into the running program (enter: true presses Enter).' },
  { name: 'terminal_wait_for', kind: 'terminal', targetArg: 'terminal_id', action: 'wait_for', description: 'Wait until output matches a text or /regex/ (e.g. a prompt), or times out.' },
  { name: 'terminal_interrupt', kind: 'terminal', targetArg: 'terminal_id', action: 'interrupt', description: 'Send Ctrl-C to the running program.' },
  { name: 'terminal_kill', kind: 'terminal', targetArg: 'terminal_id', action: 'kill', description: 'Kill the running program (and optionally restart the shell).' },
]

/** Contracts of a kind, for listing its tools before any tile of that kind is open. */
export function contractOfKind(kind: SurfaceKind, action: string): ActionContract | undefined {
  // FILE_ACTIONS is keyed by id; TERMINAL_ACTIONS is a list.
  const contracts: readonly ActionContract[] = kind === 'terminal' ? TERMINAL_ACTIONS : kind === 'files' ? Object.values(FILE_ACTIONS) : []
  return contracts.find((contract) => contract.id === action)
}

export function seedTool(mapping: SeedMapping, contract: ActionContract): Tool {
  const arg = mapping.targetArg ?? 'surface'
  const schema = (contract.inputSchema ?? { type: 'object', properties: {} }) as { properties?: Record<string, object>; [key: string]: unknown }
  const { risk } = contract
  return {
    name: mapping.name,
    description: `${mapping.description} (${risk} action "${contract.id}")`,
    inputSchema: {
      ...schema,
      type: 'object',
      properties: {
        ...(schema.properties ?? {}),
        ...(mapping.surface ? {} : { [arg]: { type: 'string', description: `which ${mapping.kind} tile; default: the focused one, else the first` } }),
      },
    },
    annotations: { readOnlyHint: risk === 'read', destructiveHint: risk === 'destructive', openWorldHint: risk === 'external' },
  }
}
