import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/** Tools every hub offers, whatever surfaces are attached. */
export const GENERIC_TOOLS: Tool[] = [
  {
    name: 'surfaces_list',
    title: 'List surfaces',
    description: 'Every surface (tile) on the map: id, kind, title, state, focus and current frame id.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'surface_snapshot',
    title: 'Snapshot a surface',
    description:
      'The current frame of a surface as a compact outline: one line per meaningful node, @refs for what can be acted on, [action risk flags] for contracts, then the business state. format "json" returns the full frame instead.',
    inputSchema: {
      type: 'object',
      properties: {
        surface: { type: 'string', description: 'surface id from surfaces_list' },
        format: { type: 'string', enum: ['outline', 'json'], default: 'outline' },
        bounds: { type: 'boolean', default: false, description: 'append <x,y wxh> to each line' },
      },
      required: ['surface'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'action_request',
    title: 'Request an action',
    description:
      'Ask the gateway to run an action of a surface by id, with input matching its schema. Pass frameId (from the snapshot) to refuse acting on a UI that changed since you looked. Risky actions wait for a human approval.',
    inputSchema: {
      type: 'object',
      properties: {
        surface: { type: 'string' },
        action: { type: 'string' },
        input: { type: 'object', description: 'input for the action, per its inputSchema' },
        frameId: { type: 'string' },
      },
      required: ['surface', 'action'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  {
    name: 'surface_act',
    title: 'Act on a node',
    description:
      'Click, type, press a key, select or scroll on a node by its @ref from surface_snapshot. Goes through the same gateway as every action: on agent-native apps a click runs the action the node carries.',
    inputSchema: {
      type: 'object',
      properties: {
        surface: { type: 'string' },
        ref: { type: 'string', description: 'a ref such as n1k2 (with or without @)' },
        op: { type: 'string', enum: ['click', 'type', 'key', 'select', 'scroll'] },
        text: { type: 'string' },
        key: { type: 'string' },
        value: { type: 'string' },
        input: { type: 'object', description: 'input for the action the node carries, if any' },
        frameId: { type: 'string' },
      },
      required: ['surface', 'ref', 'op'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  {
    name: 'approval_status',
    title: 'Approval status',
    description: 'Whether a human has approved or denied a pending action, and the result once it ran.',
    inputSchema: { type: 'object', properties: { approvalId: { type: 'string' } }, required: ['approvalId'], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'trace_tail',
    title: 'Trace tail',
    description: 'The latest events of a trace session (this MCP session by default): what was requested, approved, denied, completed.',
    inputSchema: {
      type: 'object',
      properties: { session: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 200, default: 20 } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'run_in_new_terminal',
    title: 'Run in a new terminal',
    description: 'Open a terminal tile at x, y and run a command in it → {terminal_id, output} with output the CommandResult. Both steps pass the gateway.',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1 }, x: { type: 'number' }, y: { type: 'number' }, timeout_ms: { type: 'integer', minimum: 1 } },
      required: ['command'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  {
    name: 'find_and_edit',
    title: 'Find files and open them in an editor',
    description: 'Find files matching a glob in the file tile, then open them in nano or vim in a new terminal tile → {files_found, terminal_id}. Drive the editor with terminal_input and terminal_read.',
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string', minLength: 1 }, editor: { type: 'string', enum: ['nano', 'vim'], default: 'nano' }, path: { type: 'string' } },
      required: ['pattern'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
]
