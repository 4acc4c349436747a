import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/** surface_act's ops, and the contracts each runs: a desktop's `type` and `key`, a browser's `fill` and `press`. */
export const ACT_OPS: Readonly<Record<string, readonly string[]>> = { click: ['click'], type: ['type', 'fill'], key: ['key', 'press'], select: ['select'], scroll: ['scroll'] }

/** Tools every hub offers, whatever surfaces are attached. */
export const GENERIC_TOOLS: Tool[] = [
  {
    name: 'surfaces_list',
    title: 'List surfaces',
    description: 'The tiles on the map: id, kind, title, state, focus.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'surface_snapshot',
    title: 'Snapshot a surface',
    description: 'A surface as a compact outline: a line per node, @refs to act on, [action risk] markers, then its state.',
    inputSchema: {
      type: 'object',
      properties: {
        surface: { type: 'string' },
        format: { type: 'string', enum: ['outline', 'json'] },
        bounds: { type: 'boolean', description: 'add <x,y wxh>' },
        scope: { type: 'string', description: 'only the subtree at this @ref' },
        max_nodes: { type: 'integer', minimum: 1, description: 'breadth first' },
        expand: { type: 'string', description: 'a folded @ref to show whole' },
        offset: { type: 'integer', minimum: 0, description: 'with expand: children to skip; of a long text, the line to read from' },
      },
      required: ['surface'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'action_request',
    title: 'Request an action',
    description: 'Run a surface\'s action with input per its schema. Pass the frameId you saw: refused only if the target changed since. Risky actions wait for a human.',
    inputSchema: {
      type: 'object',
      properties: {
        surface: { type: 'string' },
        action: { type: 'string' },
        target: { type: 'string', description: '@ref, when the action is on several' },
        input: { type: 'object' },
        frameId: { type: 'string' },
        wait_ms: { type: 'integer', minimum: 0, maximum: 600000, description: 'stay open for a person' },
      },
      required: ['surface', 'action'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  {
    name: 'surface_act',
    title: 'Act on a node',
    description: 'Click, type, key, select or scroll on a node by @ref; on an app, a click runs the action the node carries.',
    inputSchema: {
      type: 'object',
      properties: {
        surface: { type: 'string' },
        ref: { type: 'string' },
        op: { type: 'string', enum: Object.keys(ACT_OPS) },
        text: { type: 'string' },
        key: { type: 'string' },
        value: { type: 'string' },
        input: { type: 'object' },
        frameId: { type: 'string' },
        wait_ms: { type: 'integer', minimum: 0, maximum: 600000 },
      },
      required: ['surface', 'ref', 'op'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  {
    name: 'approval_status',
    title: 'Approval status',
    description: 'Whether a human approved or denied an action, and its result once it ran.',
    inputSchema: { type: 'object', properties: { approvalId: { type: 'string' } }, required: ['approvalId'], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'trace_tail',
    title: 'Trace tail',
    description: 'The latest trace events of a session (default: this one).',
    inputSchema: {
      type: 'object',
      properties: { session: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 200 } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
]
