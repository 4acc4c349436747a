import { createHash } from 'node:crypto'
import { type ActionContract, type JsonObject, type JsonValue, PAGE_WORDS, TesseraError, cutWhole } from '@tessera/protocol'
import type { Frame as PlaywrightFrame, Page } from 'playwright-core'

/** A tool a page registered with WebMCP, in one of its frames. */
export interface PageTool {
  /** The action id the tile offers it under: `webmcp.<name>`. */
  id: string
  name: string
  description: string
  inputSchema: JsonObject
  /** The page says running it has consequences (needs a person); a page can only raise risk this way. */
  consequential: boolean
  frame: PlaywrightFrame
}

/** Past these sizes a page's tool is left out: its schema or description would flood the agent. */
const MAX_SCHEMA_CHARS = 20_000
const MAX_DESCRIPTION = 500
const MAX_TOOLS = 64

/**
 * Lists the tools of one document, from the draft's `document.modelContext.getTools()` (native
 * Chromium with the WebMCP feature, or a polyfill) and the older `navigator.modelContext`
 * (`provideContext`, listed by its `modelContextTesting`), and asks to hear of changes.
 */
const LIST_TOOLS = `async () => {
  const contexts = []
  const own = document.modelContext
  if (own && typeof own.getTools === 'function') contexts.push(own)
  const legacy = navigator.modelContextTesting
  const tools = []
  for (const context of contexts) {
    if (!context.__tesseraWatched && typeof context.addEventListener === 'function') {
      Object.defineProperty(context, '__tesseraWatched', { value: true })
      context.addEventListener('toolchange', () => { const n = window.__tesseraChanged; if (typeof n === 'function') n().catch(() => {}) })
    }
    for (const tool of await context.getTools()) {
      // Native lists same-origin child frames' tools too: each frame reports its own.
      if ('window' in tool && tool.window !== window) continue
      tools.push({ name: tool.name, description: tool.description || '', inputSchema: typeof tool.inputSchema === 'string' ? JSON.parse(tool.inputSchema) : tool.inputSchema || {}, consequential: !!(tool.annotations && tool.annotations.consequentialHint) })
    }
  }
  if (contexts.length === 0 && legacy && typeof legacy.listTools === 'function') {
    for (const tool of await legacy.listTools()) tools.push({ name: tool.name, description: tool.description || '', inputSchema: typeof tool.inputSchema === 'string' ? JSON.parse(tool.inputSchema) : tool.inputSchema || {}, consequential: false })
  }
  return tools
}`

/** Runs one tool in its document: native takes an object, the polyfills a JSON string; the answer comes back as text. */
const CALL_TOOL = `async ({ name, args }) => {
  const own = document.modelContext
  if (own && typeof own.getTools === 'function') {
    const tool = (await own.getTools()).find((t) => t.name === name && (!('window' in t) || t.window === window))
    if (!tool) throw new Error('the page no longer offers the tool ' + name)
    try { return await own.executeTool(tool, args) } catch (error) {
      if (!/parse input/i.test(String(error && error.message))) throw error
      return await own.executeTool(tool, JSON.stringify(args))
    }
  }
  const legacy = navigator.modelContextTesting
  if (legacy && typeof legacy.executeTool === 'function') return await legacy.executeTool(name, JSON.stringify(args))
  throw new Error('the page offers no WebMCP tools any more')
}`

function actionIdOf(name: string): string {
  const plain = name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')
  const id = `webmcp.${plain}`
  // Names that lowercase alike or run long keep apart by a digest of the real name.
  return id.length <= 64 && plain === name ? id : `${id.slice(0, 55)}.${createHash('sha256').update(name).digest('hex').slice(0, 8)}`
}

function objectSchema(schema: unknown): JsonObject {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return { type: 'object', properties: {} }
  const object = schema as JsonObject
  return object.type === undefined ? { type: 'object', ...object } : object
}

/** Every WebMCP tool of every frame of the page, each a contract of the tile. */
export async function discoverPageTools(page: Page): Promise<PageTool[]> {
  const found: PageTool[] = []
  const seen = new Set<string>()
  // Every frame asked at once rather than one round trip after another, and read in frame order.
  const frames = page.frames().filter((frame) => !frame.isDetached() && frame.url().startsWith('http'))
  const lists = await Promise.all(frames.map((frame) => frame.evaluate(`(${LIST_TOOLS})()`).catch(() => []) as Promise<Array<{ name: unknown; description: unknown; inputSchema: unknown; consequential: unknown }>>))
  for (const [index, frame] of frames.entries()) {
    const tools = lists[index]
    for (const tool of Array.isArray(tools) ? tools : []) {
      if (typeof tool.name !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(tool.name) || found.length >= MAX_TOOLS) continue
      const inputSchema = objectSchema(tool.inputSchema)
      if (JSON.stringify(inputSchema).length > MAX_SCHEMA_CHARS) continue
      const id = actionIdOf(tool.name)
      if (seen.has(id)) continue
      seen.add(id)
      const description = typeof tool.description === 'string' ? cutWhole(tool.description.replace(/\s+/g, ' ').trim(), MAX_DESCRIPTION) : ''
      found.push({ id, name: tool.name, description, inputSchema, consequential: tool.consequential === true, frame })
    }
  }
  return found
}

/**
 * A page tool as a contract: a write at least (a page's word that it only reads cannot lower
 * that), and destructive with a person's approval when the page says it has consequences.
 */
export function pageToolContract(tool: PageTool): ActionContract {
  return {
    id: tool.id,
    kind: 'webmcp',
    title: `Page tool ${tool.name}`.slice(0, 200),
    risk: tool.consequential ? 'destructive' : 'write',
    requiresConfirmation: tool.consequential,
    inputSchema: tool.inputSchema,
    preconditions: [],
    postconditions: [],
  }
}

/** Runs a page tool; its answer parsed as JSON when it is JSON, else as the text it is. */
export async function callPageTool(tool: PageTool, input: JsonValue): Promise<JsonValue> {
  if (tool.frame.isDetached()) throw new TesseraError('not_found', `the frame that offered "${tool.name}" is gone; take a new snapshot`, { found: tool.name })
  let answer: unknown
  try {
    answer = await tool.frame.evaluate(`(${CALL_TOOL})(${JSON.stringify({ name: tool.name, args: input ?? {} })})`)
  } catch (error) {
    // What the page threw is its own words: fenced after the message (PAGE_WORDS), without Playwright's call name before them.
    const thrown = ((error as Error).message.split('\n')[0] ?? '').replace(/^[\w.]+: /, '')
    throw new TesseraError('conflict', `the page's tool "${tool.name}" threw an error`, { found: tool.name, [PAGE_WORDS]: [thrown] })
  }
  if (typeof answer !== 'string') return (answer ?? null) as JsonValue
  if (answer === 'undefined') return null
  try {
    return JSON.parse(answer) as JsonValue
  } catch {
    return answer
  }
}
