import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  type CallToolResult,
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { toExecutionResult } from '@tessera/gateway'
import type { ToolAnswer, ToolContext } from '@tessera/kit'
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
  resolvedTargets,
  scopeFrame,
} from '@tessera/protocol'
import type { HubContext } from '../startup/hub-context.js'
import { isToolError, resultText } from './result-text.js'
import type { ActionTool } from './tool-catalog.js'

const VERSION = '0.1.0'
const ACTING_ROLES = new Set(['agent', 'admin'])

function objectArg(args: Record<string, unknown>, key: string): JsonValue | undefined {
  const value = args[key]
  return value === undefined ? undefined : (value as JsonValue)
}

function stringArg(args: Record<string, unknown>, key: string, required = true): string {
  const value = args[key]
  if (typeof value === 'string' && value.length > 0) return value
  if (!required && value === undefined) return ''
  throw new TesseraError('invalid_request', `expected "${key}" to be a non-empty string, found ${value === undefined ? 'nothing' : typeof value}`, { expected: 'string', found: value ?? null })
}

function errorResult(error: unknown): CallToolResult {
  const shape =
    error instanceof TesseraError ? error.toJSON() : { code: 'internal', message: error instanceof Error ? error.message : String(error) }
  return { isError: true, content: [{ type: 'text', text: `error [${shape.code}]: ${shape.message}` }], structuredContent: { error: shape } }
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
  #tools = new Map<string, ActionTool>()
  #announced = ''
  #pendingAnnounce: NodeJS.Timeout | null = null
  #inFlight = 0
  readonly #detach: () => void

  constructor(ctx: HubContext, principal: Principal, traceSession: string) {
    this.#ctx = ctx
    this.principal = principal
    this.traceSession = traceSession
    this.server = new Server(
      { name: 'tessera', version: VERSION, title: 'Tessera hub' },
      {
        capabilities: { tools: { listChanged: true }, resources: { listChanged: false } },
        instructions:
          'Tessera guards real user interfaces. Call surfaces_list, then surface_snapshot to read a surface as an outline with @refs and [action risk] markers. Act with the per-action tools or action_request; pass the frameId you saw. Risky actions return awaiting_approval: a human decides; poll approval_status, never retry.',
      },
    )
    this.server.setRequestHandler(ListToolsRequestSchema, async () => {
      const actions = this.#actionTools(await this.#currentFrames())
      return { tools: [...this.#ctx.tools.staticTools(), ...actions.map((t) => t.tool)] }
    })
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      this.#inFlight += 1
      try {
        return await this.#call(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, extra.requestId)
      } catch (error) {
        return errorResult(error)
      } finally {
        this.#inFlight -= 1
      }
    })
    this.server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await this.#resources() }))
    this.server.setRequestHandler(ReadResourceRequestSchema, async (request) => this.#readResource(request.params.uri))
    // Only tiles with per-action tools can change the tool list; their frames arrive in the event.
    const onFrame = (frame: Frame): void => {
      if (this.#perActionTile(frame.surface)) this.#scheduleAnnounce()
    }
    const onTiles = (): void => this.#scheduleAnnounce()
    ctx.events.on('frame', onFrame)
    ctx.events.on('tileRemoved', onTiles)
    ctx.events.on('tile', onTiles)
    this.#detach = () => {
      ctx.events.off('frame', onFrame)
      ctx.events.off('tileRemoved', onTiles)
      ctx.events.off('tile', onTiles)
    }
  }

  /** A tool call is running (it may be waiting on an elicitation): not an idle session. */
  get busy(): boolean {
    return this.#inFlight > 0
  }

  async close(): Promise<void> {
    this.#detach()
    if (this.#pendingAnnounce) clearTimeout(this.#pendingAnnounce)
    await this.server.close()
  }

  // ── tools ──────────────────────────────────────────────────────────────────────

  #perActionTile(surface: string): boolean {
    const tile = this.#ctx.surfaces.list().find((candidate) => candidate.id === surface)
    return tile !== undefined && this.#ctx.tools.perAction(tile.kind)
  }

  /** Frames of the tiles that get per-action tools, from the cache (a snapshot only if none is cached). */
  async #currentFrames(): Promise<Frame[]> {
    const frames: Frame[] = []
    for (const tile of this.#ctx.surfaces.list()) {
      if (!this.#ctx.tools.perAction(tile.kind)) continue
      try {
        frames.push(await this.#ctx.gateway.frames.current(tile.id))
      } catch {
        // A surface that cannot render offers no action tools; surfaces_list shows its error.
      }
    }
    return frames
  }

  #actionTools(frames: readonly Frame[]): ActionTool[] {
    const tools = this.#ctx.tools.actionTools(frames)
    this.#tools = new Map(tools.map((t) => [t.tool.name, t]))
    this.#announced = [...this.#tools.keys()].sort().join(',')
    return tools
  }

  /** Tells the client when the set of action tools changed (debounced: frames come in bursts). */
  #scheduleAnnounce(): void {
    if (this.#pendingAnnounce) return
    this.#pendingAnnounce = setTimeout(() => {
      this.#pendingAnnounce = null
      void this.#currentFrames().then(async (frames) => {
        const names = this.#ctx.tools.actionTools(frames).map((t) => t.tool.name).sort().join(',')
        if (names === this.#announced) return
        this.#announced = names
        await this.server.sendToolListChanged().catch(() => undefined)
      })
    }, 50)
  }

  #requireActing(): void {
    if (!this.principal.roles.some((role) => ACTING_ROLES.has(role))) {
      throw new TesseraError('forbidden', `"${this.principal.id}" may read but not act`, { expected: ['agent', 'admin'], found: this.principal.roles })
    }
  }

  /** `callId` is the JSON-RPC id of the tool call: an elicitation travels on its stream. */
  async #call(name: string, args: Record<string, unknown>, callId: RequestId): Promise<CallToolResult> {
    switch (name) {
      case 'surfaces_list':
        return this.#json({ surfaces: this.#ctx.surfaces.list() as unknown as JsonValue })
      case 'surface_snapshot':
        return this.#snapshot(args)
      case 'action_request':
        this.#requireActing()
        return this.#request(stringArg(args, 'surface'), stringArg(args, 'action'), objectArg(args, 'input'), args.frameId, callId, typeof args.target === 'string' ? args.target : undefined)
      case 'surface_act':
        this.#requireActing()
        return this.#act(args, callId)
      case 'approval_status':
        return this.#approvalStatus(stringArg(args, 'approvalId'))
      case 'trace_tail':
        return this.#traceTail(args)
      default: {
        const facade = this.#ctx.tools.facade(name)
        if (facade) {
          this.#requireActing()
          return this.#answer(await facade.run(args as JsonObject, this.#toolContext(callId)))
        }
        let tool = this.#tools.get(name)
        if (tool === undefined) {
          this.#actionTools(await this.#currentFrames())
          tool = this.#tools.get(name)
        }
        if (tool === undefined) {
          throw new TesseraError('not_found', `no tool "${name}"; the UI may have changed — list tools or take a snapshot`, { found: name })
        }
        this.#requireActing()
        return this.#request(tool.surface, tool.action, args as JsonValue, undefined, callId)
      }
    }
  }

  /** What a façade tool may use: gateway requests as this session's principal, tile lookup, cached frames. */
  #toolContext(callId: RequestId): ToolContext {
    const surfaces = this.#ctx.surfaces
    return {
      request: async (request) => {
        const body: JsonObject = { surface: request.surface, action: request.action }
        if (request.target !== undefined) body.target = request.target
        if (request.input !== undefined) body.input = request.input
        if (request.frameId !== undefined) body.frameId = request.frameId
        const result = await this.#ctx.gateway.request(body, this.principal, { session: this.traceSession })
        return result.status === 'awaiting_approval' ? this.#maybeElicit(result, callId) : result
      },
      tile: (kind, named) => surfaces.pick(kind, named),
      tiles: (kind) => surfaces.list(kind).map((tile) => ({ id: tile.id, kind: tile.kind, title: tile.title, focused: tile.focused })),
      frame: (tile) => this.#ctx.gateway.frames.current(tile),
    }
  }

  async #answer(answer: ToolAnswer): Promise<CallToolResult> {
    if ('json' in answer) return this.#json(answer.json, answer.text)
    return this.#resultAnswer(answer.result)
  }

  async #request(surface: string, action: string, input: JsonValue | undefined, frameId: unknown, callId: RequestId, target?: string): Promise<CallToolResult> {
    const request: JsonObject = { surface, action }
    if (target !== undefined) request.target = target
    if (input !== undefined) request.input = input
    if (frameId !== undefined) request.frameId = frameId as JsonValue
    let result = await this.#ctx.gateway.request(request, this.principal, { session: this.traceSession })
    if (result.status === 'awaiting_approval') result = await this.#maybeElicit(result, callId)
    return this.#resultAnswer(result)
  }

  async #resultAnswer(result: ActionResult): Promise<CallToolResult> {
    return {
      isError: isToolError(result),
      content: [{ type: 'text', text: resultText(result, this.#ctx.consoleUrl(), await this.#frameAfter(result)) }],
      structuredContent: { result: result as unknown as JsonObject, execution: toExecutionResult(result) as unknown as JsonObject },
    }
  }

  /** The frame after a completed action (the cache holds it: no snapshot), so the delta text can show it in context. */
  async #frameAfter(result: ActionResult): Promise<Frame | undefined> {
    if (result.nextFrameId === undefined) return undefined
    const frame = this.#ctx.gateway.frames.peek(result.surface) ?? this.#ctx.gateway.frames.recall(result.surface, result.nextFrameId)
    return frame?.id === result.nextFrameId ? frame : undefined
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
      message: `Approve "${approval.action}" on ${approval.surface}? ${approval.reason}. Input: ${JSON.stringify(approval.input)}`,
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
    const { text } = outlineFrame(frame, { bounds: args.bounds === true })
    return { content: [{ type: 'text', text }], structuredContent: { frameId: whole.id, surface: frame.surface, route: frame.route } }
  }

  async #act(args: Record<string, unknown>, callId: RequestId): Promise<CallToolResult> {
    const surface = stringArg(args, 'surface')
    const ref = stringArg(args, 'ref').replace(/^@/, '')
    const op = stringArg(args, 'op')
    const frame = await this.#ctx.gateway.frames.current(surface)
    const nodeId = RefTable.forFrame(frame).resolve(ref)
    if (nodeId === undefined) throw new TesseraError('not_found', `no node with ref @${ref} in the current frame of "${surface}"; take a new snapshot`, { found: ref })
    const targets = resolvedTargets(frame)
    // A generic interaction the surface publishes (a browser's or desktop's click, type,
    // key) runs on the element by its ref; on an agent-native app a click is the action the
    // node carries.
    const generic = targets.find((t) => t.contract.id === op && (t.target.nodeId === nodeId || t.target.nodeId === undefined))
    if (generic) {
      const input: JsonObject = {}
      for (const key of ['text', 'key', 'value'] as const) if (typeof args[key] === 'string') input[key] = args[key]
      return this.#request(surface, op, { ...input, ...((objectArg(args, 'input') ?? {}) as JsonObject) }, args.frameId, callId, generic.target.nodeId === undefined ? undefined : generic.target.ref)
    }
    const carried = targets.find((t) => t.target.nodeId === nodeId)
    if (op === 'click' && carried) return this.#request(surface, carried.contract.id, objectArg(args, 'input'), args.frameId, callId, carried.target.ref)
    throw new TesseraError('not_found', `surface "${surface}" offers no "${op}" on @${ref}`, {
      expected: carried ? [`click (runs ${carried.contract.id})`] : targets.filter((t) => t.target.nodeId === nodeId).map((t) => t.contract.id),
      found: op,
    })
  }

  async #approvalStatus(id: string): Promise<CallToolResult> {
    const approval = await this.#ctx.gateway.approvals.get(id)
    const summary = `approval ${approval.id}: ${approval.status}${approval.resolvedBy ? ` by ${approval.resolvedBy}` : ''}${approval.result ? `; the action ended ${approval.result.status}` : ''}`
    return { content: [{ type: 'text', text: summary }], structuredContent: { approval: approval as unknown as JsonObject } }
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
    if (surfaceMatch) {
      const frame = await this.#ctx.gateway.frames.current(decodeURIComponent(surfaceMatch[1] ?? ''))
      return surfaceMatch[2] === 'frame'
        ? { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(frame) }] }
        : { contents: [{ uri, mimeType: 'text/plain', text: outlineFrame(frame).text }] }
    }
    const traceMatch = /^tessera:\/\/sessions\/([^/]+)\/trace$/.exec(uri)
    if (traceMatch) {
      const session = decodeURIComponent(traceMatch[1] ?? '')
      const lines: string[] = []
      for await (const event of this.#ctx.store.read(session, { limit: 1000 })) lines.push(JSON.stringify(event))
      if (lines.length === 0) throw new TesseraError('not_found', `no trace session "${session}"`, { found: session })
      return { contents: [{ uri, mimeType: 'application/x-ndjson', text: lines.join('\n') }] }
    }
    throw new TesseraError('not_found', `no resource ${uri}`, { expected: 'tessera://surfaces/{id}/frame|outline or tessera://sessions/{id}/trace', found: uri })
  }
}
