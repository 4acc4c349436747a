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
        scope: { type: 'string', description: 'only the subtree at this @ref or node id' },
        max_nodes: { type: 'integer', minimum: 1, description: 'at most this many nodes, breadth first; the outline says how many were left out' },
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
      'Ask the gateway to run an action of a surface by id, with input matching its schema. Pass frameId (from the snapshot): the request is refused as stale only if its target changed since you looked. Risky actions wait for a human approval.',
    inputSchema: {
      type: 'object',
      properties: {
        surface: { type: 'string' },
        action: { type: 'string' },
        target: { type: 'string', description: 'the element (@ref) when the action runs on several' },
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
]
