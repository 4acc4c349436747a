import { type FacadeTool, type ToolAnswer, type ToolContext, stringArg } from '@tessera/kit'
import { type Frame, type JsonObject, type JsonValue, RefTable, TesseraError, type UiNode, outlineFrame } from '@tessera/protocol'
import { describeState, dumpStructure, highlightInteractive, suggestNext } from './ai-overlay.js'
import { KNOWN_APPS } from './desktop-apps.js'
import { fold, typingField, widgetsOf } from './frame-widgets.js'
import { aiShortcutOf } from './shortcut-registry.js'

const KIND = 'desktop'
// Which tile: the server's instructions say once that the focused one is meant when it is left out.
const tileId = { type: 'string' }


function tileOf(args: JsonObject, ctx: ToolContext): string {
  return ctx.tile(KIND, stringArg(args, 'tile_id'))
}

/** An action's answer as the seed's `{success}`: a completed action is success, anything else answers as the gateway put it. */
async function succeeded(ctx: ToolContext, request: Parameters<ToolContext['request']>[0], extra: (output: JsonObject) => JsonObject = () => ({})): Promise<ToolAnswer> {
  const result = await ctx.request(request)
  if (result.status !== 'completed') return { result }
  const output = (result.output ?? {}) as JsonObject
  const json: JsonObject = { success: true, ...extra(output) }
  return { json, text: typeof output.done === 'string' ? output.done : JSON.stringify(json) }
}

/** How well a widget's words answer a label: 3 same, 2 starts with it, 1 holds every word of it, 0 not at all. */
function labelScore(words: string, label: string): number {
  const have = fold(words)
  const want = fold(label)
  if (have === want) return 3
  if (have.startsWith(want)) return 2
  return want.split(' ').every((word) => have.includes(word)) ? 1 : 0
}

/** How usable a widget is now: enabled counts 2, inside a modal dialog 1. */
function usable(widget: { node: UiNode; inModal: boolean }): number {
  return (widget.node.states?.disabled === true ? 0 : 2) + (widget.inModal ? 1 : 0)
}

/** A widget's states as words: what it is, and `enabled` or `disabled`. */
function stateWords(node: UiNode): string[] {
  const words = Object.entries(node.states ?? {}).flatMap(([state, on]) => (on ? [state] : state === 'checked' ? ['unchecked'] : state === 'expanded' ? ['collapsed'] : []))
  words.push(node.states?.disabled === true ? 'disabled' : 'enabled')
  return [...new Set(words)]
}

/** The frame's tree cut at `depth` levels below its root. */
function cut(node: UiNode, depth: number): UiNode {
  if (node.children === undefined) return node
  if (depth <= 0) return { ...node, children: undefined }
  return { ...node, children: node.children.map((child) => cut(child, depth - 1)) }
}

/** How a tile runs, as its frame's state says: a vnc or wasm tile names its backend; any other runs natively. */
async function backendOf(ctx: ToolContext, tile: string): Promise<string> {
  const backend = await ctx.frame(tile).then((frame) => frame.state.backend).catch(() => undefined)
  return backend === 'vnc' || backend === 'wasm' ? backend : 'native'
}

const schema = (properties: JsonObject, required: string[] = []): JsonObject => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false })

/**
 * The seed's `gui_*` tools over desktop tiles, with its names, arguments and result fields.
 * Each runs through the gateway as the map's or the tile's actions; none grows with the apps:
 * widgets are reached by `@ref` (gui_find_widget) through `surface_act`.
 */
export const GUI_TOOLS: readonly FacadeTool[] = [
  {
    name: 'gui_app_launch',
    description: 'Open a desktop app as a tile on its own display. backend: native (the app itself), wasm (its web build in Chromium), auto (the web build when it has one).',
    inputSchema: schema({ app: { type: 'string', enum: KNOWN_APPS.map((app) => app.name) }, backend: { type: 'string', enum: ['native', 'wasm', 'auto'] }, location: schema({ x: { type: 'number' }, y: { type: 'number' } }), config: { type: 'object' } }, ['app']),
    risk: 'write',
    async run(args, ctx) {
      const backend = stringArg(args, 'backend') ?? 'auto'
      // A vnc tile attaches to a VNC server a person configured, never one an agent names.
      if (backend !== 'native' && backend !== 'wasm' && backend !== 'auto') throw new TesseraError('invalid_input', `expected backend native, wasm or auto, found "${backend}": a vnc tile is configured by a person (desktop config vnc: {host, port})`, { expected: ['native', 'wasm', 'auto'], found: backend })
      const location = (args.location ?? {}) as JsonObject
      const input: JsonObject = { kind: KIND, config: { ...((args.config ?? {}) as JsonObject), app: stringArg(args, 'app') ?? '', backend } }
      if (typeof location.x === 'number') input.x = location.x
      if (typeof location.y === 'number') input.y = location.y
      const result = await ctx.request({ surface: 'map', action: 'open', input })
      if (result.status !== 'completed') return { result }
      const opened = result.output as { tile: string; x: number; y: number }
      const json: JsonObject = { tile_id: opened.tile, location: { x: opened.x, y: opened.y }, backend: await backendOf(ctx, opened.tile) }
      return { json, text: JSON.stringify(json) }
    },
  },
  {
    name: 'gui_app_list',
    description: 'The desktop app tiles: tile_id, app, backend, state, focused.',
    inputSchema: schema({}),
    risk: 'read',
    async run(_args, ctx) {
      const apps = await Promise.all(
        ctx.tiles(KIND).map(async (tile): Promise<JsonObject> => {
          const backend = await backendOf(ctx, tile.id)
          return { tile_id: tile.id, app: tile.title, backend, state: 'running', focused: tile.focused }
        }),
      )
      return { json: { apps }, text: apps.length === 0 ? 'no desktop app tiles; gui_app_launch opens one' : apps.map((app) => `${app.focused === true ? '*' : ' '} ${String(app.tile_id)} ${JSON.stringify(app.app)}`).join('\n') }
    },
  },
  {
    name: 'gui_app_focus',
    description: 'Focus a desktop tile: tools that leave tile_id out act on it.',
    inputSchema: schema({ tile_id: tileId }, ['tile_id']),
    risk: 'read',
    async run(args, ctx) {
      const previous = ctx.tiles(KIND).find((tile) => tile.focused)?.id ?? null
      return succeeded(ctx, { surface: 'map', action: 'focus', input: { tile: tileOf(args, ctx) } }, () => ({ previous_focus: previous }))
    },
  },
  {
    name: 'gui_app_close',
    description: 'Close a desktop tile and its app.',
    inputSchema: schema({ tile_id: tileId, force: { type: 'boolean' } }, ['tile_id']),
    risk: 'write',
    run: (args, ctx) => succeeded(ctx, { surface: 'map', action: 'close', input: { tile: tileOf(args, ctx) } }),
  },
  {
    name: 'gui_send_keys',
    description: 'Press key chords in the app: "Ctrl+S", "Return", "ctrl+a Delete". Ctrl+Alt+Shift+? / D / H / S are Tessera\'s: state, structure, highlight, suggestions.',
    inputSchema: schema({ tile_id: tileId, keys: { type: 'string' }, delay_ms: { type: 'number' } }, ['keys']),
    risk: 'write',
    async run(args, ctx) {
      const surface = tileOf(args, ctx)
      const keys = stringArg(args, 'keys') ?? ''
      const overlay = aiShortcutOf(keys)
      // The overlay's chords never reach the app: Tessera reads the tile and answers.
      if (overlay !== undefined) return overlayAnswer(overlay.id, surface, ctx)
      return succeeded(ctx, { surface, action: 'key', input: { key: keys } })
    },
  },
  {
    name: 'gui_send_text',
    description: 'Type text into the text field that has the focus.',
    inputSchema: schema({ tile_id: tileId, text: { type: 'string' }, delay_ms: { type: 'number' } }, ['text']),
    risk: 'write',
    async run(args, ctx) {
      const surface = tileOf(args, ctx)
      const text = stringArg(args, 'text') ?? ''
      const frame = await ctx.frame(surface)
      const focused = typingField(frame)
      // No text field has the keyboard (a spreadsheet's cell, a canvas): the text goes as keystrokes.
      if (focused === undefined) return succeeded(ctx, { surface, action: 'type_text', input: { text } }, () => ({ characters_sent: [...text].length }))
      return succeeded(ctx, { surface, action: 'type', target: RefTable.forFrame(frame).refOf(focused.node.id) ?? '', input: { text } }, () => ({ characters_sent: [...text].length }))
    },
  },
  {
    name: 'gui_click',
    description: 'Click at a point of the tile (x, y in the tile).',
    inputSchema: schema({ tile_id: tileId, x: { type: 'integer' }, y: { type: 'integer' }, button: { type: 'string', enum: ['left', 'right', 'middle'] }, double: { type: 'boolean' } }, ['x', 'y']),
    risk: 'write',
    run: (args, ctx) => {
      const input: JsonObject = { x: args.x as JsonValue, y: args.y as JsonValue }
      if (args.button !== undefined) input.button = args.button as JsonValue
      if (args.double !== undefined) input.double = args.double as JsonValue
      return succeeded(ctx, { surface: tileOf(args, ctx), action: 'click_at', input })
    },
  },
  {
    name: 'gui_screenshot',
    description: 'The tile as a PNG image.',
    inputSchema: schema({ tile_id: tileId, format: { type: 'string', enum: ['base64'] } }),
    risk: 'read',
    async run(args, ctx) {
      const surface = tileOf(args, ctx)
      const png = await ctx.capture(surface)
      const view = Buffer.from(png)
      // The PNG header says the size: width and height are bytes 16–23.
      const size = view.length >= 24 ? { width: view.readUInt32BE(16), height: view.readUInt32BE(20) } : { width: 0, height: 0 }
      return { image: { data: view.toString('base64'), mimeType: 'image/png' }, text: JSON.stringify({ ...size, timestamp: new Date().toISOString() }) }
    },
  },
  {
    name: 'gui_get_widget_tree',
    description: 'The widget tree as an outline: names, values, texts, @refs, boxes.',
    inputSchema: schema({ tile_id: tileId, depth: { type: 'integer', minimum: 1, maximum: 64 } }),
    risk: 'read',
    async run(args, ctx) {
      const frame = await ctx.frame(tileOf(args, ctx))
      const depth = typeof args.depth === 'number' ? args.depth : undefined
      const tree = depth === undefined ? frame : ({ ...frame, tree: cut(frame.tree, depth) } as Frame)
      return { text: `${outlineFrame(tree, { bounds: true }).text}\ntimestamp: ${new Date().toISOString()}` }
    },
  },
  {
    name: 'gui_find_widget',
    description: 'Widgets by role, label (fuzzy) and state (enabled, focused, checked…), best first, with @refs.',
    inputSchema: schema({ tile_id: tileId, role: { type: 'string' }, label: { type: 'string' }, state: { type: 'string' } }),
    risk: 'read',
    async run(args, ctx) {
      const role = stringArg(args, 'role')
      const label = stringArg(args, 'label')
      const state = stringArg(args, 'state')
      if (role === undefined && label === undefined && state === undefined) throw new TesseraError('invalid_input', 'expected a role, a label or a state to find widgets by, found none', { expected: ['role', 'label', 'state'], found: null })
      const frame = await ctx.frame(tileOf(args, ctx))
      const refs = RefTable.forFrame(frame)
      const found = widgetsOf(frame)
        .filter(({ node }) => node.kind !== 'text' || label !== undefined)
        .map((widget) => ({ ...widget, score: label === undefined ? 1 : labelScore(`${widget.node.name ?? ''} ${widget.node.kind === 'text' ? (widget.node.text ?? '') : ''}`, label) }))
        .filter(({ node, score }) => score > 0 && (role === undefined || fold(node.role ?? '') === fold(role)) && (state === undefined || stateWords(node).includes(fold(state))))
        // Best words first; between equals, one a person could use now: enabled, in a dialog that waits.
        .sort((a, b) => b.score - a.score || usable(b) - usable(a))
        .slice(0, 50)
      const widgets = found.map(({ node, actions }): JsonObject => {
        const bounds = frame.layout?.[node.id]
        return { ref: `@${refs.refOf(node.id) ?? ''}`, role: node.role ?? node.kind, name: node.name ?? node.text ?? '', ...(node.value === undefined ? {} : { value: node.value }), states: stateWords(node), actions, ...(bounds === undefined ? {} : { bounds: bounds as unknown as JsonObject }) }
      })
      const text = widgets.length === 0 ? 'no widget matches' : widgets.map((w) => `${String(w.role)} ${JSON.stringify(w.name)}${w.value === undefined ? '' : `: ${JSON.stringify(w.value)}`} ${String(w.ref)} (${(w.states as string[]).join(', ')})${(w.actions as string[]).length > 0 ? ` [${(w.actions as string[]).join(' ')}]` : ''}`).join('\n')
      return { json: { widgets }, text }
    },
  },
  {
    name: 'gui_get_shortcuts',
    description: 'The app\'s shortcuts: its schema\'s, its menus\', its toolkit\'s, and Tessera\'s ai-added ones.',
    inputSchema: schema({ tile_id: tileId, category: { type: 'string', description: 'all, built-in, ai-added, or file, edit…' } }),
    risk: 'read',
    async run(args, ctx) {
      const category = stringArg(args, 'category')
      const result = await ctx.request({ surface: tileOf(args, ctx), action: 'shortcuts', input: category === undefined ? {} : { category } })
      if (result.status !== 'completed') return { result }
      const shortcuts = ((result.output as JsonObject).shortcuts ?? []) as JsonObject[]
      const lean = shortcuts.map((s): JsonObject => ({ keys: s.keys ?? '', action: s.action ?? '', category: s.category ?? '', ...(s.description === undefined ? {} : { description: s.description }) }))
      const text = lean.length === 0 ? 'no shortcuts in that category' : lean.map((s) => `${String(s.keys)}  ${String(s.action)}  (${String(s.category)})${s.description === undefined ? '' : ` — ${String(s.description)}`}`).join('\n')
      return { json: { shortcuts: lean }, text }
    },
  },
  {
    name: 'gui_discover_capabilities',
    description: 'What the app can do: schema, widgets, menus and their shortcuts, custom actions; deep opens menus and popups to read them, then closes them.',
    inputSchema: schema({ tile_id: tileId, deep: { type: 'boolean' } }),
    risk: 'read',
    async run(args, ctx) {
      const result = await ctx.request({ surface: tileOf(args, ctx), action: 'discover', input: args.deep === true ? { deep: true } : {} })
      if (result.status !== 'completed') return { result }
      const report = result.output as JsonObject
      return { json: report, text: reportText(report) }
    },
  },
]

/** A capability report as a model reads it: the figures first, then one line per shortcut, widget and custom action. */
function reportText(report: JsonObject): string {
  const caps = (report.capabilities ?? {}) as JsonObject
  const list = (key: string): JsonObject[] => (caps[key] ?? []) as JsonObject[]
  const explored = (report.explored ?? {}) as JsonObject
  const lines = [
    `${String(report.app_name)} (${String(report.toolkit)}): schema ${report.schema_available === true ? 'yes' : 'no'}, confidence ${String(report.exploration_confidence)}, ${list('menus').length} menus with ${String(explored.menu_items)} items (${String(explored.menus_opened)} opened, ${String(explored.popups_opened)} popups)${report.cached === true ? ', cached' : ''}`,
    'shortcuts:',
    ...list('shortcuts').map((s) => `  ${String(s.keys)}  ${String(s.action)}  (${String(s.category)}, ${String(s.source)})`),
    'widgets:',
    ...list('widgets').map((w) => `  ${String(w.role)} ${JSON.stringify(w.name ?? '')}${Array.isArray(w.actions) ? ` [${w.actions.join(' ')}]` : ''}${w.source === 'schema' ? ` (schema: ${String(w.id)})` : ''}`),
  ]
  const custom = list('custom_actions')
  if (custom.length > 0) lines.push('custom actions (action_request):', ...custom.map((a) => `  ${String(a.action)} {${(a.params as string[]).join(', ')}} ${String(a.risk)} — ${String(a.title)}`))
  return lines.join('\n')
}

/** One of the overlay's four answers, from the tile's frame (and for the highlight its pixels): reads, never an action on the app. */
async function overlayAnswer(id: string, surface: string, ctx: ToolContext): Promise<ToolAnswer> {
  const frame = await ctx.frame(surface)
  if (id === 'ai.describe') {
    const state = describeState(frame)
    return { json: state, text: JSON.stringify(state) }
  }
  if (id === 'ai.dump') return { text: dumpStructure(frame) }
  if (id === 'ai.highlight') {
    const { png, legend } = highlightInteractive(frame, await ctx.capture(surface))
    return { image: { data: png.toString('base64'), mimeType: 'image/png' }, text: legend.length === 0 ? 'no widget an action can reach has a place on the screen' : legend.join('\n') }
  }
  return { text: suggestNext(frame, surface).join('\n') }
}
