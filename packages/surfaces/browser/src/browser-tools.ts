import type { z } from 'zod'
import { type FacadeTool, type ToolAnswer, type ToolContext, aDialog, dialogOpenLine, outlinePage, outlineReading, pageFence, stringArg } from '@tessera/kit'
import { type Frame, type JsonObject, type JsonValue, RefTable, TesseraError, findNode, isRef, ledgerIdOf } from '@tessera/protocol'
import { withActedNews } from './acted-news.js'
import { pageDelta, presenceIn } from './page-delta.js'
import { withScheme } from './web-address.js'
import { keyChord } from './key-names.js'
import { ClassChange, PageOutput, PressOutput, SHOT_MAX_HEIGHT, WAIT_STATES } from './browser-schemas.js'
import { type BodyLeft, DETAIL_PARTS, type RequestDetail } from './request-detail.js'
import type { JournalRequest } from './page-journal.js'

/**
 * The browser's MCP tools: the names and arguments of Playwright MCP's core tools (an element
 * is `target`, a ref from the snapshot or a selector as Playwright reads it; the older `ref` works too), so
 * prompts written for it work unchanged — plus `tile` where several browser tiles are open,
 * and `snapshot` to choose what comes back after an action (`delta`, the default: the lines
 * that changed; `full`: the page; `none`). Every call goes through the gateway.
 */

const KIND = 'browser'

// Said once in the server's instructions, not in every schema: each word of a tool list is read every session.
const tile = { type: 'string' }
const target = { type: 'string', description: '@ref or selector' }
const element = { type: 'string' }
const snapshot = { type: 'string', enum: ['delta', 'full', 'none'] }

function schema(properties: JsonObject, required: string[] = []): JsonObject {
  return { type: 'object', properties: { ...properties, tile, snapshot }, ...(required.length > 0 ? { required } : {}), additionalProperties: false }
}


/**
 * The element an argument names: a ref as it is, a selector resolved on the page (through the
 * gateway's `locate`) — one that takes an action; with `reach`, any element (where a drag
 * ends) or one to point at (click, hover, drag), made a target if the page gave no sign.
 */
async function elementOf(ctx: ToolContext, surface: string, args: JsonObject, key = 'target', legacy = 'ref', reach: 'target' | 'any' | 'pointer' = 'target'): Promise<string> {
  const named = stringArg(args, key) ?? stringArg(args, legacy)
  if (named === undefined || named.trim() === '') throw new TesseraError('invalid_input', `expected "${key}": a ref from the snapshot (@12) or a selector, found ${named === undefined ? 'nothing' : JSON.stringify(named)}`, { expected: key, found: named ?? null })
  if (isRef(named)) return ledgerIdOf(named) ?? named.replace(/^@/, '')
  // A page under an open dialog runs no script, so no selector can be looked up on it: say so, not that it has no such action.
  const dialog = ((await ctx.frame(surface)).state as JsonObject).dialog as JsonObject | undefined
  if (dialog !== undefined) throw new TesseraError('conflict', `${aDialog(String(dialog.type))} is open; answer it with browser_handle_dialog first`, { found: dialog.type ?? null })
  const located = await ctx.request({ surface, action: 'locate', input: { selector: named, ...(reach === 'target' ? {} : { reach }) } })
  // The page's own answer, with its code: a malformed selector is invalid input, two matches a conflict.
  if (located.status !== 'completed') throw new TesseraError(located.error?.code ?? 'not_found', located.error?.message ?? `the selector ${named} names no element`, { found: named })
  return String((located.output as JsonObject).target)
}

function modeOf(args: JsonObject, fallback: 'delta' | 'full' | 'none'): 'delta' | 'full' | 'none' {
  const mode = stringArg(args, 'snapshot') ?? fallback
  if (mode !== 'delta' && mode !== 'full' && mode !== 'none') throw new TesseraError('invalid_input', `expected "snapshot" to be delta, full or none, found "${mode}"`, { expected: ['delta', 'full', 'none'], found: mode })
  return mode
}

/**
 * What the action said besides the page: a note (a dialog, a tab, a download it caused) and
 * its own answer (the options chosen, the dialog answered). Where the page follows, its
 * header says where it is; with `snapshot: none` this line does.
 */
function said(output: JsonValue | undefined, withUrl: boolean, asked: JsonObject): string | undefined {
  const o = (output ?? {}) as JsonObject
  const parts = ['dialog', 'waitedMs'].filter((key) => o[key] !== undefined).map((key) => `${key}: ${JSON.stringify(o[key])}`)
  if (Array.isArray(o.selected) && sameWords(o.selected, asked.values)) parts.unshift(`selected: ${JSON.stringify(o.selected)}`)
  if (typeof o.note === 'string') parts.push(`note: ${o.note}`)
  // With the page, its last line says which dialog is open and how to answer it.
  if (typeof o.dialogOpened === 'string' && withUrl) parts.push(`note: the page opened ${aDialog(o.dialogOpened)}; answer it with browser_handle_dialog`)
  if (withUrl) parts.unshift(`done${o.url === undefined ? '' : ` — at ${String(o.url)}`}`)
  return parts.length === 0 ? undefined : parts.join('; ')
}

interface Step {
  action: string
  input: JsonObject
  target?: string
}

/** Whether the options a choice names are the agent's own words, as it asked for them (any case): then they are no page's words to fence. */
function sameWords(selected: readonly JsonValue[], asked: JsonValue | undefined): boolean {
  const wanted = new Set((Array.isArray(asked) ? asked : []).map((value) => String(value).trim().toLowerCase()))
  return selected.every((name) => wanted.has(String(name).trim().toLowerCase()))
}

/** Runs steps through the gateway on one tile and answers with what the agent chose to see. */
async function run(ctx: ToolContext, surface: string, steps: Step[], mode: 'delta' | 'full' | 'none'): Promise<ToolAnswer> {
  const was = mode === 'delta' ? await ctx.frame(surface) : undefined
  const before = was === undefined ? undefined : outlinePage(was)
  const lines: string[] = []
  // What the clicks' classes said, where the tree may say nothing (acted-news.ts).
  const elementClasses = new Map<string, ClassChange>()
  let pageClasses: ClassChange | undefined
  // Elements whose classes a key changed, which no step named: their lines say so where nothing else of them changed.
  const restyled: string[] = []
  let held: HeldFields = []
  // Another document is read whole: its every element is new, and a delta from a small page to a long one read as a list of changes.
  let newDocument = false
  // The dialog an action opened: said by the page's last line, which a delta leaves out where one was open before too.
  let dialogOpened: string | undefined
  for (const step of steps) {
    const result = await ctx.request({ surface, action: step.action, input: step.input, ...(step.target === undefined ? {} : { target: step.target }) })
    if (result.status !== 'completed') return { result }
    const output = result.output as JsonObject | undefined
    const changed = ClassChange.safeParse(output?.classes)
    if (step.target !== undefined && changed.success) elementClasses.set(step.target.replace(/^@/, ''), changed.data)
    const page = ClassChange.safeParse(output?.pageClasses)
    if (page.success) pageClasses = page.data
    for (const { node, ...change } of PressOutput.shape.classesChanged.safeParse(output?.classesChanged).data ?? []) {
      elementClasses.set(node, change)
      restyled.push(node)
    }
    held = PageOutput.shape.held.safeParse(output?.held).data ?? []
    if (output?.newDocument === true) newDocument = true
    if (typeof output?.dialogOpened === 'string') dialogOpened = output.dialogOpened
    const line = said(result.output, mode === 'none', step.input)
    if (line !== undefined) lines.push(line)
    // Options chosen by a value, or by words the page labels otherwise, are named in the page's words: fenced.
    if (Array.isArray(output?.selected) && !sameWords(output.selected, step.input.values)) lines.push('selected:', ...fenced([JSON.stringify(output.selected)]))
    // What a script returned is the page's to say: fenced, as one line of JSON.
    if (output !== undefined && output.result !== undefined) lines.push('result:', ...fenced([JSON.stringify(output.result)]))
  }
  if (mode === 'none') return { text: [...lines, ...heldLines(held, held.length > 0 ? await ctx.frame(surface) : undefined)].join('\n') }
  const frame = await ctx.frame(surface)
  const after = outlinePage(frame)
  if (was === undefined || before === undefined || newDocument) return { text: [...lines, after, ...heldLines(held, frame)].join('\n') }
  const acted = steps.flatMap((step) => (step.target === undefined ? [] : [step.target]))
  const shown = presenceIn(frame)
  // On a huge page, what left the view may sit in a part left unread: the tile knows whether it lives.
  const present = (ref: string): boolean => shown.present(ref) || (ctx.holds(surface, { refs: [ref] }).refs?.length ?? 0) > 0
  const says = (text: string): boolean => shown.says(text) || (ctx.holds(surface, { texts: [text] }).texts?.length ?? 0) > 0
  // A part left unread is known by its words alone: a name said there, and nowhere read, may be the element's.
  const named = (role: string, name: string): boolean => shown.named(role, name) || (!shown.says(name) && says(name))
  const delta = pageDelta(before, after, { acted, present, says, named })
  const news = withActedNews(delta, [...acted, ...restyled], { frame: was, outline: before }, { frame, outline: after }, { elements: elementClasses, ...(pageClasses === undefined ? {} : { page: pageClasses }) })
  const dialogLine = dialogOpened === undefined ? undefined : dialogOpenLine(dialogOpened)
  const saysDialog = dialogLine === undefined || news.split('\n').includes(dialogLine)
  return { text: [...lines, news, ...(saysDialog ? [] : [dialogLine]), ...heldLines(held, frame)].join('\n') }
}

type HeldFields = NonNullable<z.infer<typeof PageOutput>['held']>

/**
 * The fields that held back the form the last step tried to send, each as its line and what
 * the browser says of it. Fenced: a page may word that itself (`setCustomValidity`).
 */
function heldLines(held: HeldFields, frame: Frame | undefined): string[] {
  if (held.length === 0) return []
  const refs = frame === undefined ? undefined : RefTable.forFrame(frame)
  const fieldLine = ({ node, message }: HeldFields[number]): string => {
    const field = frame === undefined ? null : findNode(frame.tree, node)
    const ref = refs?.refOf(node)
    return `${field?.role ?? 'field'}${field?.name === undefined ? '' : ` ${JSON.stringify(field.name)}`}${ref === undefined ? '' : ` @${ref}`}: ${message}`
  }
  return ['the browser did not send the form; of its fields it says:', ...fenced(held.map(fieldLine))]
}

/** A request as the list says it: `POST http://…/api/items → 200 OK (fetch)`, `failed: net::ERR_…`, `downloaded as "downloads/report.csv"` or `pending`. */
function requestLine(request: JournalRequest): string {
  const answered =
    request.download !== undefined ? `downloaded as ${JSON.stringify(request.download)}` : request.failure !== undefined ? `failed: ${request.failure}` : request.status === undefined ? 'pending' : `${request.status} ${request.statusText ?? ''}`.trim()
  return `${request.method} ${oneWord(request.url)} → ${answered} (${request.type})`
}

/** A request's detail as lines: the request line, then each part asked for; what the site sent is the page's to say, so fenced. */
function requestText(surface: string, detail: RequestDetail): string {
  const lines = [requestLine(detail)]
  const headers = (title: string, list: Record<string, string> | undefined): void => {
    if (list !== undefined) lines.push(`${title}:`, ...Object.entries(list).map(([name, value]) => `  ${name}: ${value.replace(/\n/g, ', ')}`))
  }
  // A body left unsaid: its size and the site's media type (quoted: the site wrote it), and which part reads it.
  const left = (title: string, part: string, body: BodyLeft | undefined): void => {
    if (body !== undefined) lines.push(`${title}: ${body.bytes.toLocaleString('en')} bytes of ${JSON.stringify(body.type)}${body.reason === 'long' ? `; part "${part}" reads it` : ', not text'}`)
  }
  headers('request headers', detail.requestHeaders)
  if (detail.browserHeaders !== undefined) lines.push(`  … ${detail.browserHeaders} the browser sends with every request; part "request-headers" lists them`)
  if (detail.requestBody !== undefined) lines.push('request body:', detail.requestBody)
  left('request body', 'request-body', detail.requestBodyLeft)
  headers('response headers', detail.responseHeaders)
  if (detail.responseBody !== undefined) lines.push('response body:', detail.responseBody)
  left('response body', 'response-body', detail.responseBodyLeft)
  const notes = detail.notes.length === 0 ? '' : ` (${detail.notes.join('; ')})`
  return [`${surface}: request ${detail.index} since the page loaded${notes}`, ...fenced(lines)].join('\n')
}

/** Lines of the page's own words between fence lines (see pageFence). */
function fenced(lines: readonly string[]): string[] {
  const fence = pageFence()
  return [fence.open, ...lines, fence.close]
}

/** A URL or location as one line of the fence: the page may name its scripts (`//# sourceURL=`) with spaces. */
function oneWord(text: string): string {
  return text.replace(/\s/g, '%20')
}

/**
 * Refuses, saying why, an action the page offers only in a state it is not in (a dialog open, a
 * file chooser waiting): the gateway would only say the frame has no such action.
 */
async function offered(ctx: ToolContext, surface: string, action: string, why: string): Promise<void> {
  const frame = await ctx.frame(surface)
  if (!frame.contracts.some((contract) => contract.id === action)) throw new TesseraError('not_found', why, { expected: action, found: null })
}

/** Names of arguments Playwright MCP took before `target`, which the tools still read. */
const OLDER_NAMES = ['ref', 'startRef', 'endRef']

function facade(name: string, description: string, inputSchema: JsonObject, risk: FacadeTool['risk'], body: (args: JsonObject, ctx: ToolContext, surface: string) => Promise<ToolAnswer>): FacadeTool {
  return { name, description, inputSchema, risk, olderNames: OLDER_NAMES, run: (args, ctx) => body(args, ctx, ctx.tile(KIND, stringArg(args, 'tile'), elementNamed(args))) }
}

/** The first element a call names (a ref or a selector, read on some tile's page), if any. */
function elementNamed(args: JsonObject): string | undefined {
  for (const key of ['target', ...OLDER_NAMES]) {
    const named = stringArg(args, key)
    if (named !== undefined) return named
  }
  const fields = Array.isArray(args.fields) ? args.fields : []
  for (const field of fields) {
    const named = typeof field === 'object' && field !== null && !Array.isArray(field) ? (stringArg(field, 'target') ?? stringArg(field, 'ref')) : undefined
    if (named !== undefined) return named
  }
  return undefined
}

/** The media features browser_emulate_media sets, with their values (MediaInput checks them). */
const MEDIA_FEATURES = [
  ['colorScheme', ['light', 'dark']],
  ['reducedMotion', ['reduce', 'no-preference']],
  ['forcedColors', ['active', 'none']],
  ['contrast', ['more', 'no-preference']],
  ['media', ['screen', 'print']],
] as const

const FIELD_ACTIONS: Readonly<Record<string, (value: string) => Step['action']>> = {
  textbox: () => 'fill',
  slider: () => 'fill',
  checkbox: () => 'check',
  radio: () => 'check',
  combobox: () => 'select',
}

export const BROWSER_TOOLS: readonly FacadeTool[] = [
  {
    name: 'browser_navigate',
    description: 'Open a URL in the browser tile (opens one if none is). Answers with the page.',
    inputSchema: schema({ url: { type: 'string' } }, ['url']),
    risk: 'external',
    olderNames: [],
    async run(args, ctx) {
      const given = stringArg(args, 'url')
      if (given === undefined || given.trim() === '') throw new TesseraError('invalid_input', `expected "url": a web address (https://example.com, 127.0.0.1:8080/path), found ${given === undefined ? 'none' : JSON.stringify(given)}`, { expected: 'url', found: given ?? null })
      const url = withScheme(given)
      const mode = modeOf(args, 'full')
      if (ctx.tiles(KIND).length === 0) {
        const opened = await ctx.request({ surface: 'map', action: 'open', input: { kind: KIND, config: { url } } })
        if (opened.status !== 'completed') return { result: opened }
        const output = opened.output as JsonObject
        const surface = String(output.tile)
        const note = typeof output.note === 'string' ? `note: ${output.note}` : undefined
        const page = mode === 'none' ? `opened ${surface} at ${url}` : outlinePage(await ctx.frame(surface))
        return { text: note === undefined ? page : mode === 'none' ? `${page}; ${note}` : `${note}\n${page}` }
      }
      return run(ctx, ctx.tile(KIND, stringArg(args, 'tile')), [{ action: 'navigate', input: { url } }], mode === 'delta' ? 'full' : mode)
    },
  },
  // What changed, as for any action: another document reads whole all the same, a single-page app's route as a delta, nothing behind the page as unchanged.
  facade('browser_navigate_back', 'Go back to the previous page.', schema({}), 'read', (args, ctx, surface) => run(ctx, surface, [{ action: 'back', input: {} }], modeOf(args, 'delta'))),
  {
    name: 'browser_snapshot',
    description: 'The page as an outline: what is in view, @refs to act on, the rest folded — expand a fold or a cut text by the @ref after it (offset pages through long lists, or reads a long text from that line), or find elements anywhere on the page by their text.',
    inputSchema: { type: 'object', properties: { tile, target: { type: 'string', description: '@ref to expand' }, offset: { type: 'integer', minimum: 0 }, find: { type: 'string' }, boxes: { type: 'boolean', description: 'each element to act on says [box=x,y,width,height] from the viewport corner' } }, additionalProperties: false },
    risk: 'read',
    olderNames: ['expand'],
    async run(args, ctx) {
      const expand = stringArg(args, 'target') ?? stringArg(args, 'expand')
      const surface = ctx.tile(KIND, stringArg(args, 'tile'), expand)
      const offset = typeof args.offset === 'number' ? args.offset : undefined
      if (offset !== undefined && expand === undefined && stringArg(args, 'find') === undefined) throw new TesseraError('invalid_input', `expected "offset" with a "target" or a "find": "offset" reads from a line of the "target" (a long text's @ref) or from an item of it (a list's @ref), or lists a find's matches from that one on; found an offset of ${offset} and neither`, { expected: ['target', 'find'], found: null })
      const options = { expand, offset, find: stringArg(args, 'find'), boxes: args.boxes === true }
      return { text: await outlineReading(await ctx.frame(surface), options, (request) => ctx.frame(surface, request)) }
    },
  },
  facade(
    'browser_find',
    'Elements anywhere on the page whose text says some words (text, any case) or matches a regex ("/error/i" for flags), with their @refs.',
    { type: 'object', properties: { text: { type: 'string' }, regex: { type: 'string' }, offset: { type: 'integer', minimum: 0 }, tile }, additionalProperties: false },
    'read',
    async (args, ctx, surface) => {
      const text = stringArg(args, 'text')
      const regex = stringArg(args, 'regex')
      if ((text === undefined) === (regex === undefined)) throw new TesseraError('invalid_input', `expected one of "text" or "regex", found ${text === undefined ? 'neither' : 'both'}`, { expected: ['text', 'regex'], found: Object.keys(args) })
      const offset = typeof args.offset === 'number' ? args.offset : undefined
      const options = text === undefined ? { findPattern: regex, offset } : { find: text, offset }
      return { text: await outlineReading(await ctx.frame(surface), options, (request) => ctx.frame(surface, request)) }
    },
  ),
  facade('browser_click', 'Click an element.', schema({ element, target, doubleClick: { type: 'boolean' }, button: { type: 'string', enum: ['left', 'right', 'middle'] }, modifiers: { type: 'array', items: { type: 'string', enum: ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] } } }, ['target']), 'destructive', async (args, ctx, surface) => {
    const input: JsonObject = {}
    if (args.doubleClick === true) input.double = true
    if (typeof args.button === 'string') input.button = args.button
    if (Array.isArray(args.modifiers)) input.modifiers = args.modifiers
    return run(ctx, surface, [{ action: 'click', input, target: await elementOf(ctx, surface, args, 'target', 'ref', 'pointer') }], modeOf(args, 'delta'))
  }),
  facade('browser_mouse_click_xy', 'Click a point of the view (CSS pixels from its top left, as browser_take_screenshot shows it), for what has no @ref: a canvas, a map. Weighed as what is drawn there.', schema({ element, x: { type: 'number' }, y: { type: 'number' } }, ['x', 'y']), 'destructive', (args, ctx, surface) =>
    run(ctx, surface, [{ action: 'click_at', input: { x: args.x as JsonValue, y: args.y as JsonValue } }], modeOf(args, 'delta')),
  ),
  facade('browser_type', 'Type text into an editable element (replacing what it holds).', schema({ element, target, text: { type: 'string' }, submit: { type: 'boolean', description: 'press Enter after' }, slowly: { type: 'boolean' } }, ['target', 'text']), 'external', async (args, ctx, surface) => {
    const input: JsonObject = { text: stringArg(args, 'text') ?? '' }
    if (args.submit === true) input.submit = true
    if (args.slowly === true) input.slowly = true
    return run(ctx, surface, [{ action: 'fill', input, target: await elementOf(ctx, surface, args) }], modeOf(args, 'delta'))
  }),
  facade(
    'browser_fill_form',
    'Fill several fields at once.',
    schema(
      {
        fields: {
          type: 'array',
          items: { type: 'object', properties: { element, target, name: { type: 'string' }, type: { type: 'string', enum: ['textbox', 'checkbox', 'radio', 'combobox', 'slider'] }, value: { type: 'string', description: 'checkbox, radio: "true" or "false"' } }, required: ['target', 'type', 'value'] },
        },
      },
      ['fields'],
    ),
    'write',
    async (args, ctx, surface) => {
      const fields = Array.isArray(args.fields) ? (args.fields as JsonObject[]) : []
      if (fields.length === 0) throw new TesseraError('invalid_input', 'expected "fields": a list of {target, type, value}, found none', { expected: 'array', found: args.fields ?? null })
      const steps: Step[] = []
      const frame = await ctx.frame(surface)
      const takes = (target: string, contract: string): boolean => (frame.targets ?? []).some((spec) => spec.nodeId === target && spec.contract === contract)
      for (const field of fields) {
        const type = stringArg(field, 'type') ?? 'textbox'
        const value = stringArg(field, 'value') ?? ''
        const named = FIELD_ACTIONS[type]?.(value)
        if (named === undefined) throw new TesseraError('invalid_input', `field type "${type}" is not one of textbox, checkbox, radio, combobox, slider`, { expected: Object.keys(FIELD_ACTIONS), found: type })
        // Checked or not is said as Playwright MCP says it; anything else is no answer to guess from.
        if ((type === 'checkbox' || type === 'radio') && value !== 'true' && value !== 'false') {
          throw new TesseraError('invalid_input', `expected the ${type}'s value to be "true" or "false", found ${JSON.stringify(value)}`, { expected: ['true', 'false'], found: value })
        }
        const target = await elementOf(ctx, surface, field)
        // A field called a combobox that takes only text (a textbox with no list) is typed into.
        const action = named === 'select' && !takes(target, 'select') && takes(target, 'fill') ? 'fill' : named
        const input: JsonObject = action === 'fill' ? { text: value } : action === 'check' ? { checked: value !== 'false' } : { values: [value] }
        steps.push({ action, input, target })
      }
      return run(ctx, surface, steps, modeOf(args, 'delta'))
    },
  ),
  facade('browser_select_option', 'Choose options of a select element, or of a list the page draws (combobox, listbox; an autocomplete gets the value typed, then its option clicked): by value or label.', schema({ element, target, values: { type: 'array', items: { type: 'string' } } }, ['target', 'values']), 'write', async (args, ctx, surface) =>
    run(ctx, surface, [{ action: 'select', input: { values: (Array.isArray(args.values) ? args.values : []) as JsonValue[] } as JsonObject, target: await elementOf(ctx, surface, args) }], modeOf(args, 'delta')),
  ),
  facade('browser_press_key', 'Press a key (Enter, ArrowDown, Control+a, or a character) in the focused element.', schema({ key: { type: 'string' } }, ['key']), 'external', (args, ctx, surface) => {
    const key = stringArg(args, 'key') ?? ''
    // A key no keyboard has is the agent's mistake, said before any request is made (not as an action that failed).
    keyChord(key)
    return run(ctx, surface, [{ action: 'press', input: { key } }], modeOf(args, 'delta'))
  }),
  facade('browser_hover', 'Move the pointer over an element.', schema({ element, target }, ['target']), 'read', async (args, ctx, surface) => run(ctx, surface, [{ action: 'hover', input: {}, target: await elementOf(ctx, surface, args, 'target', 'ref', 'pointer') }], modeOf(args, 'delta'))),
  facade('browser_drag', 'Drag one element onto another.', schema({ startElement: element, startTarget: target, endElement: element, endTarget: target }, ['startTarget', 'endTarget']), 'write', async (args, ctx, surface) => {
    const from = await elementOf(ctx, surface, args, 'startTarget', 'startRef', 'pointer')
    const to = await elementOf(ctx, surface, args, 'endTarget', 'endRef', 'any')
    return run(ctx, surface, [{ action: 'drag', input: { to }, target: from }], modeOf(args, 'delta'))
  }),
  facade(
    'browser_drop',
    'Drop files (from the tile\'s folder) or data ({"text/plain": "hi"}) onto an element, as if dragged from outside the page.',
    schema({ element, target, paths: { type: 'array', items: { type: 'string' } }, data: { type: 'object', additionalProperties: { type: 'string' } } }, ['target']),
    'external',
    async (args, ctx, surface) => {
      const input: JsonObject = { element: await elementOf(ctx, surface, args, 'target', 'ref', 'any') }
      if (args.paths !== undefined) input.paths = args.paths as JsonValue
      if (args.data !== undefined) input.data = args.data as JsonValue
      return run(ctx, surface, [{ action: 'drop', input }], modeOf(args, 'delta'))
    },
  ),
  facade('browser_wait_for', 'Wait for text, or an element by role (name, state), to appear or go; seconds (≤ 30) only if nothing else works.', schema({ text: { type: 'string' }, textGone: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, state: { type: 'string', enum: [...WAIT_STATES] }, gone: { type: 'boolean' }, time: { type: 'number' } }), 'read', (args, ctx, surface) => {
    const input: JsonObject = {}
    for (const key of ['text', 'textGone', 'role', 'name', 'state', 'gone', 'time'] as const) if (args[key] !== undefined) input[key] = args[key] as JsonValue
    return run(ctx, surface, [{ action: 'wait_for', input }], modeOf(args, 'delta'))
  }),
  // Playwright MCP's `filename` is read too: the answer says the image is in it, no file written.
  { ...facade(
    'browser_take_screenshot',
    'An image of the visible page, the whole page (fullPage) or one element (target). For reading or acting, browser_snapshot.',
    { type: 'object', properties: { element, target, type: { type: 'string', enum: ['png', 'jpeg'] }, fullPage: { type: 'boolean' }, tile }, additionalProperties: false },
    'read',
    async (args, ctx, surface) => {
      const format = stringArg(args, 'type') ?? 'png'
      if (format !== 'png' && format !== 'jpeg') throw new TesseraError('invalid_input', `expected "type" to be png or jpeg, found "${format}"`, { expected: ['png', 'jpeg'], found: format })
      const named = args.target ?? args.ref
      const shot = { format, ...(args.fullPage === true ? { fullPage: true } : {}), ...(named === undefined ? {} : { element: await elementOf(ctx, surface, args, 'target', 'ref', 'any') }) } as const
      const { image, cut } = await ctx.shoot(surface, shot)
      // The image is the answer: nothing is written on the hub's disk for a file name Playwright MCP's callers may pass (nor is its scale needed: the page is drawn at one device pixel per CSS pixel).
      const what = shot.element !== undefined ? `@${shot.element} of ${surface}` : `${surface}${shot.fullPage === true ? ', the whole page' : ''}`
      const notes = [...(cut === undefined ? [] : [`its top ${SHOT_MAX_HEIGHT.toLocaleString('en')} px of ${cut.toLocaleString('en')}; scroll, or name an element, for the rest`]), ...(args.filename === undefined ? [] : ['in this answer; no file is written'])]
      return { image: { data: Buffer.from(image).toString('base64'), mimeType: `image/${format}` }, text: `screenshot of ${what}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}` }
    },
  ), olderNames: [...OLDER_NAMES, 'filename'] },
  facade('browser_tabs', 'List, open, select or close tabs.', schema({ action: { type: 'string', enum: ['list', 'new', 'close', 'select'] }, index: { type: 'integer', minimum: 0 }, url: { type: 'string' } }, ['action']), 'external', async (args, ctx, surface) => {
    const input: JsonObject = { action: stringArg(args, 'action') ?? 'list' }
    if (typeof args.index === 'number') input.index = args.index
    if (args.url !== undefined) input.url = withScheme(stringArg(args, 'url') ?? '')
    const result = await ctx.request({ surface, action: 'tabs', input })
    if (result.status !== 'completed') return { result }
    const tabs = ((result.output as JsonObject).tabs ?? []) as JsonObject[]
    // Each tab's title and address are its page's words: fenced, as a page's title is.
    const list = fenced(tabs.map((tab) => `${tab.current === true ? '*' : ' '} ${String(tab.index)} ${JSON.stringify(tab.title)} ${oneWord(String(tab.url))}`)).join('\n')
    // A tab the agent goes to is a page it has not read: it comes with the answer, as a navigation's does.
    const goneTo = input.action === 'select' || input.action === 'new'
    return { text: goneTo && modeOf(args, 'full') !== 'none' ? `${list}\n${outlinePage(await ctx.frame(surface))}` : list }
  }),
  facade('browser_handle_dialog', 'Accept or dismiss the open dialog (alert, confirm, prompt).', schema({ accept: { type: 'boolean' }, promptText: { type: 'string' } }, ['accept']), 'write', async (args, ctx, surface) => {
    const input: JsonObject = { accept: args.accept === true }
    if (args.promptText !== undefined) input.promptText = stringArg(args, 'promptText') ?? ''
    await offered(ctx, surface, 'handle_dialog', 'no dialog is open: handle_dialog answers an alert, confirm, prompt or beforeunload the page opened')
    return run(ctx, surface, [{ action: 'handle_dialog', input }], modeOf(args, 'delta'))
  }),
  facade('browser_file_upload', 'Choose files (from the tile\'s folder) for the open file chooser or a file field; no paths cancels.', schema({ paths: { type: 'array', items: { type: 'string' } }, target }), 'external', async (args, ctx, surface) => {
    const paths = (Array.isArray(args.paths) ? args.paths : []) as JsonValue[]
    const named = args.target ?? args.ref
    if (named === undefined) await offered(ctx, surface, 'upload', 'no file chooser is open: click the file field or the button that opens one first, or name the field as target')
    return run(ctx, surface, [{ action: 'upload', input: { paths }, ...(named === undefined ? {} : { target: await elementOf(ctx, surface, args) }) }], modeOf(args, 'delta'))
  }),
  facade(
    'browser_console_messages',
    'The page\'s console messages and uncaught errors since it loaded, at level or more severe (default info); all: since the tile opened.',
    { type: 'object', properties: { level: { type: 'string', enum: ['error', 'warning', 'info', 'debug'] }, all: { type: 'boolean' }, tile }, additionalProperties: false },
    'read',
    async (args, ctx, surface) => {
      const level = stringArg(args, 'level') ?? 'info'
      const result = await ctx.request({ surface, action: 'console', input: { level, ...(args.all === undefined ? {} : { all: args.all as JsonValue }) } })
      if (result.status !== 'completed') return { result }
      const messages = ((result.output as JsonObject).messages ?? []) as Array<{ level: string; text: string; where?: string }>
      const since = args.all === true ? 'since the tile opened' : 'since the page loaded'
      if (messages.length === 0) return { text: `${surface}: no console messages at ${level} or more severe ${since}` }
      const head = `${surface}: ${messages.length} console message${messages.length === 1 ? '' : 's'} at ${level} or more severe ${since}`
      return { text: [head, ...fenced(messages.map((message) => `[${message.level}] ${JSON.stringify(message.text)}${message.where === undefined ? '' : ` @ ${oneWord(message.where)}`}`))].join('\n') }
    },
  ),
  facade(
    'browser_network_requests',
    'Requests the page made since it loaded, with status; static adds images, fonts, styles, scripts; filter: a URL regex.',
    { type: 'object', properties: { static: { type: 'boolean' }, filter: { type: 'string' }, tile }, additionalProperties: false },
    'read',
    async (args, ctx, surface) => {
      const input: JsonObject = {}
      if (args.static !== undefined) input.static = args.static as JsonValue
      if (args.filter !== undefined) input.filter = args.filter as JsonValue
      const result = await ctx.request({ surface, action: 'requests', input })
      if (result.status !== 'completed') return { result }
      const requests = ((result.output as JsonObject).requests ?? []) as unknown as JournalRequest[]
      if (requests.length === 0) return { text: `${surface}: no requests${args.filter === undefined ? '' : ` matching ${JSON.stringify(args.filter)}`} since the page loaded` }
      return { text: [`${surface}: ${requests.length} request${requests.length === 1 ? '' : 's'} since the page loaded`, ...fenced(requests.map((request) => `${request.index} ${requestLine(request)}`))].join('\n') }
    },
  ),
  facade(
    'browser_network_request',
    'One request of browser_network_requests by its number: headers and short bodies (secrets redacted), or one part whole.',
    { type: 'object', properties: { index: { type: 'integer', minimum: 1 }, part: { type: 'string', enum: [...DETAIL_PARTS] }, tile }, required: ['index'], additionalProperties: false },
    'read',
    async (args, ctx, surface) => {
      const result = await ctx.request({ surface, action: 'request', input: { index: args.index as JsonValue, ...(args.part === undefined ? {} : { part: args.part as JsonValue }) } })
      if (result.status !== 'completed') return { result }
      return { text: requestText(surface, result.output as unknown as RequestDetail) }
    },
  ),
  facade(
    'browser_emulate_media',
    'Draw the page with CSS media features (dark colour scheme, reduced motion, print…); null clears one.',
    schema(Object.fromEntries(MEDIA_FEATURES.map(([name, values]): [string, JsonObject] => [name, { enum: [...values, null] }]))),
    'read',
    (args, ctx, surface) => {
      const input: JsonObject = {}
      for (const [name] of MEDIA_FEATURES) if (args[name] !== undefined) input[name] = args[name] as JsonValue
      return run(ctx, surface, [{ action: 'media', input }], modeOf(args, 'delta'))
    },
  ),
  facade('browser_resize', 'Resize the page\'s view (CSS pixels).', schema({ width: { type: 'integer' }, height: { type: 'integer' } }, ['width', 'height']), 'read', (args, ctx, surface) =>
    run(ctx, surface, [{ action: 'resize', input: { width: args.width as JsonValue, height: args.height as JsonValue } }], modeOf(args, 'delta')),
  ),
  facade(
    'browser_evaluate',
    'Run JavaScript in the page: () => …, or (element) => … on target. A person approves it first.',
    schema({ function: { type: 'string' }, element, target }, ['function']),
    'destructive',
    async (args, ctx, surface) => {
      const input: JsonObject = { function: stringArg(args, 'function') ?? '' }
      if (args.target !== undefined || args.ref !== undefined) input.element = await elementOf(ctx, surface, args, 'target', 'ref', 'any')
      return run(ctx, surface, [{ action: 'evaluate', input }], modeOf(args, 'delta'))
    },
  ),
  facade('browser_close', 'Close the browser tile.', { type: 'object', properties: { tile }, additionalProperties: false }, 'write', async (_args, ctx, surface) => {
    const result = await ctx.request({ surface: 'map', action: 'close', input: { tile: surface } })
    return result.status === 'completed' ? { text: `closed ${surface}` } : { result }
  }),
]
