import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { type FacadeTool, type ToolAnswer, type ToolContext, outlineReading } from '@tessera/kit'
import {
  type ActionResult,
  type Frame,
  type JsonObject,
  type JsonValue,
  outlineFrame,
  RefTable,
  type Principal,
  TesseraError,
  type TraceEvent,
  type UnreadRequest,
  resolvedTargets,
  scopeFrame,
} from '@tessera/protocol'
import type { HubContext } from '../startup/hub-context.js'
import { MAP_ENTRY } from '../tiles/map-surface.js'
import { awaitDecision, decisionMessage, settledResult } from './await-decision.js'
import { checkFacadeArgs, unreadArgs } from './facade-args.js'
import { type CallProgress, startCallProgress } from './call-progress.js'
import { ACT_OPS } from './generic-tools.js'
import { errorLines, isToolError, resultText } from './result-text.js'
import { serverInstructions } from './server-instructions.js'
import { ToolScope } from './tool-scope.js'
import { wholeText } from './whole-text.js'

const VERSION = '0.1.0'
const ACTING_ROLES = new Set(['agent', 'admin'])
/** The longest a call may stay open for a person: the default approval lifetime. */
const MAX_WAIT_MS = 600_000

/** What one tool call carries down to where it may wait. */
interface CallScope {
  /** The JSON-RPC id of the call: an elicitation travels on its stream. */
  callId: RequestId
  /** How long to stay open for a person's decision (`wait_ms`). */
  waitMs: number
  progress: CallProgress
  /** Aborted when the client cancels the call. */
  signal: AbortSignal
  /** The client asked for a seed tool's whole output as well (`_meta: {"tessera/output": "full"}`). */
  wantsFull: boolean
}

/** The request `_meta` key by which a program (the project's client) asks for whole outputs, and the answer's key that holds one. */
const FULL_OUTPUT = 'tessera/output'

function isJsonObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function objectArg(args: Record<string, unknown>, key: string): JsonValue | undefined {
  const value = args[key]
  return value === undefined ? undefined : (value as JsonValue)
}

/** Takes `wait_ms` out of a call's arguments (any tool accepts it): bounded, or the hub's default. */
function takeWaitMs(args: Record<string, unknown>, fallback: number): number {
  const value = args.wait_ms
  delete args.wait_ms
  if (value === undefined) return fallback
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_WAIT_MS) return value
  throw new TesseraError('invalid_request', `expected "wait_ms" to be an integer from 0 to ${MAX_WAIT_MS} (milliseconds), found ${JSON.stringify(value)}`, {
    expected: `integer 0..${MAX_WAIT_MS}`,
    found: value as JsonValue,
  })
}

function stringArg(args: Record<string, unknown>, key: string, required = true): string {
  const value = args[key]
  if (typeof value === 'string' && value.length > 0) return value
  if (!required && value === undefined) return ''
  throw new TesseraError('invalid_request', `expected "${key}" to be a non-empty string, found ${value === undefined ? 'nothing' : typeof value}`, { expected: 'string', found: value ?? null })
}

/** MCP's code for a resource that does not exist (the spec's, not JSON-RPC's). */
const RESOURCE_NOT_FOUND = -32002

function resourceNotFound(uri: string, why: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${why}`, { uri })
}

/** A URI path segment, percent-decoded; a malformed escape is the caller's error, not ours. */
function decodedSegment(segment: string, uri: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `malformed percent-encoding in the resource URI ${JSON.stringify(uri.slice(0, 200))}`, { uri })
  }
}

/** An answer with a note of the hub's first, on its text's first line. */
function withNote(answer: CallToolResult, note: string | undefined): CallToolResult {
  if (note === undefined) return answer
  const at = answer.content.findIndex((part) => part.type === 'text')
  const part = answer.content[at]
  if (part === undefined || part.type !== 'text') return { ...answer, content: [...answer.content, { type: 'text', text: note }] }
  return { ...answer, content: answer.content.map((one, i) => (i === at ? { ...part, text: `${note}\n${part.text}` } : one)) }
}

function errorResult(error: unknown): CallToolResult {
  const shape =
    error instanceof TesseraError ? error.toJSON() : { code: 'internal' as const, message: error instanceof Error ? error.message : String(error) }
  return { isError: true, content: [{ type: 'text', text: errorLines(shape).join('\n') }], structuredContent: { error: shape } }
}

/**
 * One MCP session: a low-level SDK server over the hub's tool catalog (generic tools, the
 * kinds' façade tools, per-action tools of app tiles). Frames are read through the hub's
 * frame cache only, so an idle session costs no snapshot. Every call goes through the
 * gateway as the session's principal and lands in the session's own trace.
 */
export class McpSession {
  readonly server: Server
  readonly principal: Principal
  readonly traceSession: string
  readonly #ctx: HubContext
  #inFlight = 0
  readonly #detach: () => void
  /** Approvals this session's calls opened: the session hears when each settles. */
  readonly #watched = new Set<string>()
  readonly #stopWatching: () => void
  readonly #tools: ToolScope
  /** Per kind, the tile this session last used: a call that names an element without a tile means that tile's page (see ToolContext.tile). */
  readonly #lastTiles = new Map<string, string>()

  /** `tools`: what this session lists and may call (the client's `?tools=`); every tool by default. */
  constructor(ctx: HubContext, principal: Principal, traceSession: string, tools: ToolScope = ToolScope.ALL) {
    this.#ctx = ctx
    this.#tools = tools
    this.principal = principal
    this.traceSession = traceSession
    this.server = new Server(
      { name: 'tessera', version: VERSION, title: 'Tessera hub' },
      {
        capabilities: { tools: { listChanged: true }, resources: { listChanged: false }, logging: {} },
        instructions: serverInstructions(ctx.tools.guides(tools)),
      },
    )
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.#ctx.toolList.tools(this.#tools) }))
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      this.#inFlight += 1
      const progress = startCallProgress(request.params._meta?.progressToken, extra.sendNotification)
      try {
        const args = { ...request.params.arguments }
        const waitMs = takeWaitMs(args, this.#ctx.config.approvals.waitMs)
        const wantsFull = request.params._meta?.[FULL_OUTPUT] === 'full'
        return wholeText(this.#shapedFor(request.params.name, await this.#call(request.params.name, args, { callId: extra.requestId, waitMs, progress, signal: extra.signal, wantsFull })))
      } catch (error) {
        return wholeText(this.#shapedFor(request.params.name, errorResult(error)))
      } finally {
        progress.stop()
        this.#inFlight -= 1
      }
    })
    this.server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await this.#resources() }))
    this.server.setRequestHandler(ReadResourceRequestSchema, async (request) => wholeText(await this.#readResource(request.params.uri)))
    this.#detach = ctx.toolList.onChange(() => void this.server.sendToolListChanged().catch(() => undefined))
    this.#stopWatching = ctx.gateway.approvals.onSettled((approval) => {
      if (!this.#watched.delete(approval.id)) return
      const ran = approval.status === 'consumed' && approval.result?.status === 'completed'
      const data = { message: decisionMessage(approval), approvalId: approval.id, status: approval.status, ...(approval.result ? { resultStatus: approval.result.status } : {}) }
      // On the session's standalone stream; a client not listening just misses it and can ask approval_status.
      void this.server.sendLoggingMessage({ level: ran ? 'info' : 'warning', logger: 'tessera.approvals', data }).catch(() => undefined)
    })
  }

  /**
   * A client checks any structuredContent of a tool with an outputSchema against it, errors
   * included; so a façade's envelope or error travels in `_meta` (`tessera/result`,
   * `tessera/error`) and its text, never as structuredContent.
   */
  #shapedFor(name: string, result: CallToolResult): CallToolResult {
    if (!result.isError || result.structuredContent === undefined || this.#ctx.tools.facade(name)?.outputSchema === undefined) return result
    const { structuredContent, ...rest } = result
    const key = 'error' in structuredContent ? 'tessera/error' : 'tessera/result'
    return { ...rest, _meta: { ...(rest._meta ?? {}), [key]: (structuredContent as { error?: unknown; result?: unknown }).error ?? (structuredContent as { result?: unknown }).result } }
  }

  /** A tool call is running (it may be waiting on an elicitation): not an idle session. */
  get busy(): boolean {
    return this.#inFlight > 0
  }

  async close(): Promise<void> {
    this.#detach()
    this.#stopWatching()
    await this.server.close()
  }

  // ── tools ──────────────────────────────────────────────────────────────────────

  #requireActing(): void {
    if (!this.principal.roles.some((role) => ACTING_ROLES.has(role))) {
      throw new TesseraError('forbidden', `"${this.principal.id}" may read but not act`, { expected: ['agent', 'admin'], found: this.principal.roles })
    }
  }

  /** A tool of a kind this session did not choose is not on its list, so not callable either. */
  #inScope(name: string, kind: string | undefined): void {
    if (!this.#tools.has(name, kind)) throw new TesseraError('not_found', `the tool "${name}" is not on this session's list (${this.#tools}); connect without ?tools= or name its kind "${kind}" there`, { expected: String(this.#tools), found: name })
  }

  async #call(name: string, args: Record<string, unknown>, scope: CallScope): Promise<CallToolResult> {
    if (this.#ctx.tools.excluded(name)) throw new TesseraError('not_found', `the tool "${name}" is switched off on this hub (tools.exclude)`, { found: name })
    switch (name) {
      case 'surfaces_list':
        // The tiles, then the map that opens, lists, focuses and closes them.
        return this.#json({ surfaces: [...this.#ctx.surfaces.list(), MAP_ENTRY] as unknown as JsonValue })
      case 'surface_snapshot':
        return this.#snapshot(args)
      case 'action_request':
        this.#requireActing()
        return this.#request(stringArg(args, 'surface'), stringArg(args, 'action'), objectArg(args, 'input'), args.frameId, scope, typeof args.target === 'string' ? args.target : undefined)
      case 'surface_act':
        this.#requireActing()
        return this.#act(args, scope)
      case 'approval_status':
        return this.#approvalStatus(stringArg(args, 'approvalId'))
      case 'trace_tail':
        return this.#traceTail(args)
      default: {
        const facade = this.#ctx.tools.facade(name)
        if (facade) {
          this.#inScope(name, this.#ctx.tools.kindOf(name))
          this.#requireActing()
          checkFacadeArgs(name, facade.inputSchema, args as JsonObject)
          const answer = await this.#facadeAnswer(facade, await facade.run(args as JsonObject, this.#toolContext(scope)), scope.wantsFull)
          return withNote(answer, unreadArgs(facade.inputSchema, facade.olderNames, args as JsonObject))
        }
        const tool = await this.#ctx.toolList.actionTool(name)
        if (tool === undefined) {
          throw new TesseraError('not_found', `no tool "${name}"; the UI may have changed — list tools or take a snapshot`, { found: name })
        }
        this.#inScope(name, tool.kind)
        this.#requireActing()
        return this.#request(tool.surface, tool.action, args as JsonValue, undefined, scope)
      }
    }
  }

  /** What a façade tool may use: gateway requests as this session's principal, tile lookup, cached frames. */
  #toolContext(scope: CallScope): ToolContext {
    const surfaces = this.#ctx.surfaces
    return {
      request: async (request) => {
        const body: JsonObject = { surface: request.surface, action: request.action }
        if (request.target !== undefined) body.target = request.target
        if (request.input !== undefined) body.input = request.input
        if (request.frameId !== undefined) body.frameId = request.frameId
        return this.#hearBack(await this.#ctx.gateway.request(body, this.principal, { session: this.traceSession }), scope)
      },
      tile: (kind, named, element) => {
        const picked = surfaces.pick(kind, named)
        const last = this.#lastTiles.get(kind)
        if (named === undefined && element !== undefined && last !== undefined && last !== picked && surfaces.list(kind).some((tile) => tile.id === last)) {
          throw new TesseraError('conflict', `${picked} is focused now, not ${last}, the ${kind} tile you last used: ${JSON.stringify(element)} names an element of the page you read there, and the same ref on ${picked} is another element. Pass tile: "${last}" to act there, or read ${picked} first`, { expected: last, found: picked })
        }
        this.#lastTiles.set(kind, picked)
        return picked
      },
      tiles: (kind) => surfaces.list(kind).map((tile) => ({ id: tile.id, kind: tile.kind, title: tile.title, focused: tile.focused })),
      frame: (tile, unread) => (unread === undefined ? this.#ctx.gateway.frames.current(tile) : this.#ctx.gateway.frames.readUnread(tile, unread)),
      holds: (tile, ask) => surfaces.surface(tile).holds?.(ask) ?? {},
      capture: async (tile) => {
        const surface = surfaces.surface(tile)
        if (surface.capture === undefined) throw new TesseraError('not_found', `tile "${tile}" has no pixels to capture`, { found: tile })
        return surface.capture()
      },
      shoot: async (tile, options) => {
        const surface = surfaces.surface(tile)
        if (surface.shoot === undefined) throw new TesseraError('not_found', `tile "${tile}" takes no shot beyond its view`, { found: tile })
        return surface.shoot(options)
      },
    }
  }

  /**
   * A façade answers like the tool it stands for: a completed call with its output alone — the
   * lean form as structuredContent (valid against the tool's outputSchema), and as text the
   * kind's raw rendering or else that same JSON; anything else with the gateway's envelope.
   * The whole result, delta and ids included, is in the trace; the whole output also in
   * `_meta` when the client asked for it.
   */
  async #facadeAnswer(facade: FacadeTool, answer: ToolAnswer, wantsFull: boolean): Promise<CallToolResult> {
    if ('image' in answer) return { content: [{ type: 'image', data: answer.image.data, mimeType: answer.image.mimeType }, { type: 'text', text: answer.text }] }
    if (!('json' in answer) && !('result' in answer)) return { content: [{ type: 'text', text: answer.text }] }
    if ('json' in answer) {
      const full = wantsFull && answer.full !== undefined ? { _meta: { [FULL_OUTPUT]: answer.full } } : {}
      return { content: [{ type: 'text', text: answer.text ?? JSON.stringify(answer.json) }], structuredContent: answer.json, ...full }
    }
    const result = answer.result
    if (result.status !== 'completed') {
      const envelope = await this.#resultAnswer(result)
      // Not the tool's output, so not shaped like it: an approval still pending is marked as
      // an error too, and #shapedFor moves the envelope to `_meta`.
      return facade.outputSchema === undefined ? envelope : { ...envelope, isError: true }
    }
    const output = result.output ?? null
    const lean = facade.lean ? facade.lean(output) : isJsonObject(output) ? output : undefined
    const text = facade.text ? facade.text(output) : JSON.stringify(lean ?? output)
    return {
      content: [{ type: 'text', text }],
      ...(lean === undefined ? {} : { structuredContent: lean }),
      ...(wantsFull ? { _meta: { [FULL_OUTPUT]: output } } : {}),
    }
  }

  async #request(surface: string, action: string, input: JsonValue | undefined, frameId: unknown, scope: CallScope, target?: string): Promise<CallToolResult> {
    const request: JsonObject = { surface, action }
    if (target !== undefined) request.target = target
    if (input !== undefined) request.input = input
    if (frameId !== undefined) request.frameId = frameId as JsonValue
    return this.#resultAnswer(await this.#hearBack(await this.#ctx.gateway.request(request, this.principal, { session: this.traceSession }), scope))
  }

  async #resultAnswer(result: ActionResult): Promise<CallToolResult> {
    return {
      isError: isToolError(result),
      content: [{ type: 'text', text: resultText(result, { consoleUrl: this.#ctx.consoleUrl(), after: await this.#frameAfter(result), approvalReason: await this.#approvalReason(result) }) }],
      structuredContent: { result: result as unknown as JsonObject },
    }
  }

  async #approvalReason(result: ActionResult): Promise<string | undefined> {
    if (result.status !== 'awaiting_approval' || result.approvalId === undefined) return undefined
    return (await this.#ctx.gateway.approvals.get(result.approvalId)).reason
  }

  /** The frame after a completed action (the cache holds it: no snapshot), so the delta text can show it in context. */
  async #frameAfter(result: ActionResult): Promise<Frame | undefined> {
    if (result.nextFrameId === undefined) return undefined
    const frame = this.#ctx.gateway.frames.peek(result.surface) ?? this.#ctx.gateway.frames.recall(result.surface, result.nextFrameId)
    return frame?.id === result.nextFrameId ? frame : undefined
  }

  /**
   * A call that needs a person stays open for them: the client's user is asked when policy
   * allows it, else the call waits up to `wait_ms` for a decision made elsewhere (the
   * console, the CLI, the HTTP API), with progress so the client keeps waiting, and answers
   * with the final result. Not decided in time, it answers awaiting_approval; the session
   * still hears the outcome as a log message.
   */
  async #hearBack(result: ActionResult, scope: CallScope): Promise<ActionResult> {
    if (result.status !== 'awaiting_approval' || result.approvalId === undefined) return result
    this.#watched.add(result.approvalId)
    const elicited = await this.#maybeElicit(result, scope.callId)
    if (elicited !== result || scope.waitMs === 0) return elicited
    scope.progress.say(`waiting up to ${Math.ceil(scope.waitMs / 1000)} s for a person to decide approval ${result.approvalId}`)
    const settled = await awaitDecision(this.#ctx.gateway.approvals, result.approvalId, scope.waitMs, scope.signal)
    return settled === null ? result : settledResult(result, settled)
  }

  /**
   * Asks the client's user — not the model — when policy allows it and the client can.
   * The answer approves as a principal distinct from the agent, so it is auditable as a
   * human decision in the trace.
   */
  async #maybeElicit(result: ActionResult, callId: RequestId): Promise<ActionResult> {
    if (!this.#ctx.config.approvals.elicitation || this.server.getClientCapabilities()?.elicitation === undefined || !result.approvalId) return result
    const approval = await this.#ctx.gateway.approvals.get(result.approvalId)
    const question = {
      message: wholeText(`Approve "${approval.action}" on ${approval.surface}? ${approval.reason}. Input: ${JSON.stringify(approval.input)}`),
      requestedSchema: { type: 'object' as const, properties: { approve: { type: 'boolean' as const, title: 'Approve', description: 'Run this action now' } }, required: ['approve'] },
    }
    // Sent on the tool call's own response stream: a client need not hold the standalone GET
    // stream open, and without one a request unrelated to the call would be dropped unseen.
    const answer = await this.server.elicitInput(question, { relatedRequestId: callId }).catch(() => null)
    if (answer === null || answer.action !== 'accept') return result
    const approver: Principal = { id: `${this.principal.id}@mcp-user`, roles: ['approver'] }
    if (answer.content?.approve === true) return (await this.#ctx.gateway.approve(approval.id, approver, { note: 'approved by the MCP client user' })).result
    await this.#ctx.gateway.deny(approval.id, approver, 'denied by the MCP client user')
    return { ...result, status: 'denied', error: { code: 'forbidden', message: 'the user denied the action' } }
  }

  async #snapshot(args: Record<string, unknown>): Promise<CallToolResult> {
    const whole = await this.#ctx.gateway.observe(stringArg(args, 'surface'), { session: this.traceSession })
    const frame =
      typeof args.scope === 'string' || typeof args.max_nodes === 'number'
        ? scopeFrame(whole, { scope: typeof args.scope === 'string' ? args.scope : undefined, maxNodes: typeof args.max_nodes === 'number' ? args.max_nodes : undefined })
        : whole
    if (args.format === 'json') return { content: [{ type: 'text', text: JSON.stringify(frame) }], structuredContent: { frame: frame as unknown as JsonObject } }
    // A kind that reads its frames its own way (a web page, viewport first) answers with that.
    const own = this.#ctx.surfaces.kinds.list().find((kind) => kind.kind === this.#ctx.surfaces.list().find((tile) => tile.id === whole.surface)?.kind)?.outline
    if (own !== undefined && args.bounds !== true && args.scope === undefined && args.max_nodes === undefined) {
      const options = { expand: typeof args.expand === 'string' ? args.expand : undefined, offset: typeof args.offset === 'number' ? args.offset : undefined }
      // What the expansion shows of parts the surface has not read yet (a huge page's folds) is read first; the frame it reads is observed like the first.
      const read = async (request: UnreadRequest): Promise<Frame> => {
        await this.#ctx.gateway.frames.readUnread(whole.surface, request)
        return this.#ctx.gateway.observe(whole.surface, { session: this.traceSession })
      }
      const text = await outlineReading(whole, options, read, own)
      return { content: [{ type: 'text', text }], structuredContent: { frameId: whole.id, surface: whole.surface, route: whole.route } }
    }
    const expand = typeof args.expand === 'string' ? args.expand : undefined
    const { text } = outlineFrame(expand === undefined ? frame : scopeFrame(whole, { scope: expand }), { bounds: args.bounds === true })
    return { content: [{ type: 'text', text }], structuredContent: { frameId: whole.id, surface: frame.surface, route: frame.route } }
  }

  async #act(args: Record<string, unknown>, scope: CallScope): Promise<CallToolResult> {
    const surface = stringArg(args, 'surface')
    const ref = stringArg(args, 'ref').replace(/^@/, '')
    const op = stringArg(args, 'op')
    const names = ACT_OPS[op]
    if (names === undefined) throw new TesseraError('invalid_input', `expected "op" to be one of ${Object.keys(ACT_OPS).join(', ')}, found ${JSON.stringify(op)}`, { expected: Object.keys(ACT_OPS), found: op })
    const frame = await this.#ctx.gateway.frames.current(surface)
    const nodeId = RefTable.forFrame(frame).resolve(ref)
    if (nodeId === undefined) throw new TesseraError('not_found', `no node with ref @${ref} in the current frame of "${surface}"; take a new snapshot`, { found: ref })
    const targets = resolvedTargets(frame)
    // A generic interaction the surface publishes (a browser's or desktop's click, type,
    // key) runs on the element by its ref, the element's own before one of the whole surface;
    // on an agent-native app a click is the action the node carries.
    const offered = (node: boolean) => targets.find((t) => names.includes(t.contract.id) && (node ? t.target.nodeId === nodeId : t.target.nodeId === undefined))
    const generic = offered(true) ?? offered(false)
    if (generic) {
      const input: JsonObject = {}
      for (const key of ['text', 'key', 'value'] as const) if (typeof args[key] === 'string') input[key] = args[key]
      const properties = (generic.contract.inputSchema?.properties ?? {}) as JsonObject
      // A choice of a list that takes several (a browser's select) takes the one value as a list of one.
      if (typeof input.value === 'string' && properties.values !== undefined && properties.value === undefined) {
        input.values = [input.value]
        delete input.value
      }
      // An action the whole surface runs, asked of a node, takes the node as its element when its input has one (a browser's scroll: where to scroll to), rather than ignoring it.
      if (properties.element !== undefined && generic.target.nodeId === undefined && nodeId !== frame.tree.id) input.element = `@${ref}`
      return this.#request(surface, generic.contract.id, { ...input, ...((objectArg(args, 'input') ?? {}) as JsonObject) }, args.frameId, scope, generic.target.nodeId === undefined ? undefined : generic.target.ref)
    }
    const carried = targets.find((t) => t.target.nodeId === nodeId)
    if (op === 'click' && carried) return this.#request(surface, carried.contract.id, objectArg(args, 'input'), args.frameId, scope, carried.target.ref)
    // What the node takes, said as ops where one runs it.
    const onNode = [...new Set(targets.filter((t) => t.target.nodeId === nodeId || t.target.nodeId === undefined).flatMap((t) => Object.entries(ACT_OPS).filter(([, ids]) => ids.includes(t.contract.id)).map(([name]) => name)))]
    const takes = carried !== undefined && !onNode.includes('click') ? [`click (runs ${carried.contract.id})`, ...onNode] : onNode
    throw new TesseraError('not_found', `surface "${surface}" offers no "${op}" on @${ref}; ${takes.length === 0 ? 'it takes no op' : `it takes ${takes.join(', ')}`}`, { expected: takes, found: op })
  }

  async #approvalStatus(id: string): Promise<CallToolResult> {
    const approval = await this.#ctx.gateway.approvals.get(id)
    const summary = `approval ${approval.id}: ${approval.status}${approval.resolvedBy ? ` by ${approval.resolvedBy}` : ''}${approval.result ? `; the action ended ${approval.result.status}` : ''}`
    // What the action did once it ran, as its own call would have said it (its status is in the summary): else the agent's next call is a snapshot.
    const ran = approval.result === undefined ? [] : resultText(approval.result, { consoleUrl: this.#ctx.consoleUrl(), after: await this.#frameAfter(approval.result) }).split('\n').slice(1)
    return { content: [{ type: 'text', text: [summary, ...ran].join('\n') }], structuredContent: { approval: approval as unknown as JsonObject } }
  }

  async #traceTail(args: Record<string, unknown>): Promise<CallToolResult> {
    const session = typeof args.session === 'string' ? args.session : this.traceSession
    const limit = typeof args.limit === 'number' ? Math.min(200, Math.max(1, Math.floor(args.limit))) : 20
    const head = await this.#ctx.store.head(session)
    const events: TraceEvent[] = []
    if (head !== null) for await (const event of this.#ctx.store.read(session, { fromSeq: Math.max(0, head.seq - limit + 1), limit })) events.push(event)
    const text = events.map((e) => `${e.seq} ${e.time} ${e.type} ${e.actor} ${e.surface ?? ''}${e.action ? `/${e.action}` : ''}`).join('\n')
    return this.#json({ session, events: events.map(({ data: _data, ...rest }) => rest) as unknown as JsonValue }, text || `no events in session ${session}`)
  }

  #json(value: JsonObject, text?: string): CallToolResult {
    return { content: [{ type: 'text', text: text ?? JSON.stringify(value, null, 1) }], structuredContent: value }
  }

  // ── resources ──────────────────────────────────────────────────────────────────

  async #resources(): Promise<Array<{ uri: string; name: string; mimeType: string; description?: string }>> {
    const surfaces = this.#ctx.surfaces.list().flatMap((tile) => [
      { uri: `tessera://surfaces/${tile.id}/frame`, name: `${tile.title} — frame`, mimeType: 'application/json', description: `the current frame of ${tile.id}` },
      { uri: `tessera://surfaces/${tile.id}/outline`, name: `${tile.title} — outline`, mimeType: 'text/plain' },
    ])
    const sessions = (await this.#ctx.store.sessions()).slice(-50).map((s) => ({
      uri: `tessera://sessions/${encodeURIComponent(s.session)}/trace`,
      name: `trace ${s.session}`,
      mimeType: 'application/x-ndjson',
      description: `${s.events} events`,
    }))
    return [...surfaces, ...sessions]
  }

  async #readResource(uri: string): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string }> }> {
    const surfaceMatch = /^tessera:\/\/surfaces\/([^/]+)\/(frame|outline)$/.exec(uri)
    const traceMatch = /^tessera:\/\/sessions\/([^/]+)\/trace$/.exec(uri)
    if (surfaceMatch === null && traceMatch === null) {
      throw new McpError(ErrorCode.InvalidParams, `expected a resource URI tessera://surfaces/{id}/frame|outline or tessera://sessions/{id}/trace, found ${JSON.stringify(uri.slice(0, 200))}`, { uri })
    }
    const name = decodedSegment((surfaceMatch ?? traceMatch)?.[1] ?? '', uri)
    if (surfaceMatch) {
      const frame = await this.#ctx.gateway.frames.current(name).catch((error: unknown) => {
        throw error instanceof TesseraError && error.code === 'not_found' ? resourceNotFound(uri, `no surface "${name}"`) : error
      })
      return surfaceMatch[2] === 'frame'
        ? { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(frame) }] }
        : { contents: [{ uri, mimeType: 'text/plain', text: outlineFrame(frame).text }] }
    }
    const lines: string[] = []
    for await (const event of this.#ctx.store.read(name, { limit: 1000 })) lines.push(JSON.stringify(event))
    if (lines.length === 0) throw resourceNotFound(uri, `no trace session "${name}"`)
    return { contents: [{ uri, mimeType: 'application/x-ndjson', text: lines.join('\n') }] }
  }
}
