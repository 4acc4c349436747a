import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  type CallToolResult,
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { redactFrame, toExecutionResult } from '@tessera/gateway'
import {
  type ActionResult,
  type ActionTarget,
  type Frame,
  type JsonObject,
  type JsonValue,
  outlineFrame,
  RefTable,
  type Principal,
  TesseraError,
  type TraceEvent,
} from '@tessera/protocol'
import { quote } from 'shell-quote'
import type { HubContext } from '../hub/hub-context.js'
import { GENERIC_TOOLS } from './generic-tools.js'
import { contractOfKind, SEED_MAPPINGS, type SeedMapping, seedTool } from './seed-tools.js'
import { isToolError, resultText } from './result-text.js'
import { toolNameFor } from './tool-names.js'

const VERSION = '0.1.0'
const ACTING_ROLES = new Set(['agent', 'admin'])

interface ActionTool {
  surface: string
  action: string
  tool: Tool
}

function actionTool(surface: string, target: ActionTarget): ActionTool {
  const { contract } = target
  const conditions = [
    contract.preconditions.length ? `Requires: ${contract.preconditions.join('; ')}.` : '',
    contract.postconditions.length ? `Ensures: ${contract.postconditions.join('; ')}.` : '',
  ].filter(Boolean)
  const approval = contract.requiresConfirmation || contract.risk === 'destructive' || contract.risk === 'external' ? ' Needs a human approval.' : ''
  const disabled = target.enabled ? '' : ' Currently disabled.'
  return {
    surface,
    action: contract.id,
    tool: {
      name: toolNameFor(surface, contract.id),
      title: `${contract.title} (${surface})`,
      description: `${contract.title} — ${contract.risk} action "${contract.id}" on surface "${surface}".${approval}${disabled} ${conditions.join(' ')}`.trim(),
      inputSchema: (contract.inputSchema ?? { type: 'object', properties: {} }) as Tool['inputSchema'],
      annotations: {
        title: contract.title,
        readOnlyHint: contract.risk === 'read',
        destructiveHint: contract.risk === 'destructive',
        openWorldHint: contract.risk === 'external',
        idempotentHint: contract.risk === 'read',
      },
    },
  }
}

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
 * One MCP session: a low-level SDK server whose tools are the hub's generic tools plus one
 * tool per action of every current frame. Every call goes through the gateway as the
 * session's principal and lands in the session's own trace.
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
      // One snapshot of every surface serves both the action tools and the seed tools.
      const frames = await this.#currentFrames()
      const actions = this.#actionTools(frames)
      return { tools: [...GENERIC_TOOLS, ...(await this.#seedTools(frames)), ...actions.map((t) => t.tool)] }
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
    const onChange = (): void => this.#scheduleAnnounce()
    ctx.events.on('frame', onChange)
    ctx.events.on('tileRemoved', onChange)
    this.#detach = () => {
      ctx.events.off('frame', onChange)
      ctx.events.off('tileRemoved', onChange)
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

  async #currentFrames(): Promise<Frame[]> {
    const frames: Frame[] = []
    for (const tile of this.#ctx.surfaces.list()) {
      try {
        frames.push(redactFrame(await this.#ctx.surfaces.surface(tile.id).snapshot()))
      } catch {
        // A surface that cannot render offers no action tools; surfaces_list shows its error.
      }
    }
    return frames
  }

  #actionTools(frames: readonly Frame[]): ActionTool[] {
    const tools = frames.flatMap((frame) => frame.actions.map((target) => actionTool(frame.surface, target)))
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
        const names = frames.flatMap((f) => f.actions.map((t) => toolNameFor(f.surface, t.id))).sort().join(',')
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
        return this.#request(stringArg(args, 'surface'), stringArg(args, 'action'), objectArg(args, 'input'), args.frameId, callId)
      case 'surface_act':
        this.#requireActing()
        return this.#act(args, callId)
      case 'run_in_new_terminal':
        this.#requireActing()
        return this.#runInNewTerminal(args, callId)
      case 'find_and_edit':
        this.#requireActing()
        return this.#findAndEdit(args, callId)
      case 'approval_status':
        return this.#approvalStatus(stringArg(args, 'approvalId'))
      case 'trace_tail':
        return this.#traceTail(args)
      default: {
        const seed = SEED_MAPPINGS.find((mapping) => mapping.name === name)
        if (seed) {
          this.#requireActing()
          return this.#seedCall(seed, args, callId)
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

  /** A composite step's result, or the tool result that ends the composite early. */
  async #step(surface: string, action: string, input: JsonValue, callId: RequestId): Promise<{ result: ActionResult } | { stop: CallToolResult }> {
    const call = await this.#request(surface, action, input, undefined, callId)
    const result = (call.structuredContent as { result: ActionResult }).result
    return result.status === 'completed' ? { result } : { stop: call }
  }

  async #runInNewTerminal(args: Record<string, unknown>, callId: RequestId): Promise<CallToolResult> {
    const command = stringArg(args, 'command')
    const position: JsonObject = {}
    if (typeof args.x === 'number') position.x = args.x
    if (typeof args.y === 'number') position.y = args.y
    const created = await this.#step('map', 'create-terminal', position, callId)
    if ('stop' in created) return created.stop
    const terminalId = (created.result.output as { terminal_id: string }).terminal_id
    const input: JsonObject = { command }
    if (typeof args.timeout_ms === 'number') input.timeout_ms = args.timeout_ms
    const ran = await this.#step(terminalId, 'execute', input, callId)
    if ('stop' in ran) return ran.stop
    return this.#json({ terminal_id: terminalId, output: ran.result.output ?? null })
  }

  async #findAndEdit(args: Record<string, unknown>, callId: RequestId): Promise<CallToolResult> {
    const files = this.#seedSurface('files', undefined)
    if (files === null) throw new TesseraError('not_found', 'no files tile to search', { expected: 'a files tile' })
    const editor = args.editor === 'vim' ? 'vim' : 'nano'
    const query: JsonObject = { pattern: stringArg(args, 'pattern') }
    if (typeof args.path === 'string') query.path = args.path
    const found = await this.#step(files, 'find', query, callId)
    if ('stop' in found) return found.stop
    const matches = ((found.result.output as { matches?: Array<{ path: string; type: string }> }).matches ?? []).filter((m) => m.type === 'file')
    if (matches.length === 0) return this.#json({ files_found: [], terminal_id: null }, `no files match ${String(query.pattern)}`)
    const created = await this.#step('map', 'create-terminal', {}, callId)
    if ('stop' in created) return created.stop
    const terminalId = (created.result.output as { terminal_id: string }).terminal_id
    // Terminals start in the file tile's root, so root-relative paths open as ./path; the
    // argv is quoted word by word (shell-quote), never spliced into a command string.
    const argv = [editor, '--', ...matches.slice(0, 50).map((m) => `.${m.path}`)]
    const started = await this.#step(terminalId, 'start', { command: quote(argv) }, callId)
    if ('stop' in started) return started.stop
    return this.#json({ files_found: matches.map((m) => m.path) as JsonValue[], terminal_id: terminalId })
  }

  /** The tile a seed tool acts on: the one named, else the focused one of its kind, else the first. */
  #seedSurface(kind: SeedMapping['kind'], named: unknown): string | null {
    const tiles = this.#ctx.surfaces.list().filter((tile) => tile.kind === kind)
    if (typeof named === 'string') return tiles.some((tile) => tile.id === named) ? named : null
    return (tiles.find((tile) => tile.focused) ?? tiles[0])?.id ?? null
  }

  async #seedTools(frames: readonly Frame[]): Promise<Tool[]> {
    const tools: Tool[] = []
    const fixed = new Map<string, Frame>()
    for (const mapping of SEED_MAPPINGS) {
      let frame: Frame | undefined
      if (mapping.surface !== undefined) {
        if (!fixed.has(mapping.surface)) {
          const surface = this.#ctx.gateway.surfaces().find((s) => s.id === mapping.surface)
          if (surface) fixed.set(mapping.surface, redactFrame(await surface.snapshot()))
        }
        frame = fixed.get(mapping.surface)
      } else {
        const surface = this.#seedSurface(mapping.kind, undefined)
        frame = surface === null ? undefined : frames.find((f) => f.surface === surface)
      }
      // A kind with no tile open yet (no terminal) still lists its tools, from the kind's contracts.
      const contract = frame?.actions.find((t) => t.id === mapping.action)?.contract ?? contractOfKind(mapping.kind, mapping.action)
      if (contract) tools.push(seedTool(mapping, contract))
    }
    return tools
  }

  async #seedCall(mapping: SeedMapping, args: Record<string, unknown>, callId: RequestId): Promise<CallToolResult> {
    const arg = mapping.targetArg ?? 'surface'
    if (mapping.surface !== undefined) return this.#request(mapping.surface, mapping.action, args as JsonValue, undefined, callId)
    const surface = this.#seedSurface(mapping.kind, args[arg])
    if (surface === null) {
      throw new TesseraError('not_found', `no ${mapping.kind} tile${typeof args[arg] === 'string' ? ` "${String(args[arg])}"` : ''} to run ${mapping.name} on`, {
        expected: this.#ctx.surfaces.list().filter((t) => t.kind === mapping.kind).map((t) => t.id),
        found: args[arg] ?? null,
      })
    }
    const { [arg]: _target, ...input } = args
    return this.#request(surface, mapping.action, input as JsonValue, undefined, callId)
  }

  async #request(surface: string, action: string, input: JsonValue | undefined, frameId: unknown, callId: RequestId): Promise<CallToolResult> {
    const request: JsonObject = { surface, action }
    if (input !== undefined) request.input = input
    if (frameId !== undefined) request.frameId = frameId as JsonValue
    let result = await this.#ctx.gateway.request(request, this.principal, { session: this.traceSession })
    if (result.status === 'awaiting_approval') result = await this.#maybeElicit(result, callId)
    return {
      isError: isToolError(result),
      content: [{ type: 'text', text: resultText(result, this.#ctx.consoleUrl(), await this.#frameAfter(result)) }],
      structuredContent: { result: result as unknown as JsonObject, execution: toExecutionResult(result) as unknown as JsonObject },
    }
  }

  /** The frame after a completed action, so the delta text can show it in context. */
  async #frameAfter(result: ActionResult): Promise<Frame | undefined> {
    if (result.nextFrameId === undefined) return undefined
    try {
      const frame = redactFrame(await this.#ctx.surfaces.surface(result.surface).snapshot())
      return frame.id === result.nextFrameId ? frame : undefined
    } catch {
      return undefined
    }
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
    const frame = await this.#ctx.gateway.observe(stringArg(args, 'surface'), { session: this.traceSession })
    if (args.format === 'json') return { content: [{ type: 'text', text: JSON.stringify(frame) }], structuredContent: { frame: frame as unknown as JsonObject } }
    const { text } = outlineFrame(frame, { bounds: args.bounds === true })
    return { content: [{ type: 'text', text }], structuredContent: { frameId: frame.id, surface: frame.surface, route: frame.route } }
  }

  async #act(args: Record<string, unknown>, callId: RequestId): Promise<CallToolResult> {
    const surface = stringArg(args, 'surface')
    const ref = stringArg(args, 'ref').replace(/^@/, '')
    const op = stringArg(args, 'op')
    const frame = redactFrame(await this.#ctx.surfaces.surface(surface).snapshot())
    const nodeId = RefTable.forFrame(frame).resolve(ref)
    if (nodeId === undefined) throw new TesseraError('not_found', `no node with ref @${ref} in the current frame of "${surface}"; take a new snapshot`, { found: ref })
    // A generic interaction the surface publishes as a contract (terminals, browsers,
    // desktops) takes the node as input; on an agent-native app a click is the node's action.
    const generic = frame.actions.find((target) => target.id === op)
    if (generic) return this.#request(surface, op, { nodeId, text: args.text ?? null, key: args.key ?? null, value: args.value ?? null } as JsonValue, args.frameId, callId)
    const carried = frame.actions.find((target) => target.nodeId === nodeId)
    if (op === 'click' && carried) return this.#request(surface, carried.id, objectArg(args, 'input'), args.frameId, callId)
    throw new TesseraError('not_found', `surface "${surface}" offers no "${op}" on @${ref}`, {
      expected: carried ? [`click (runs ${carried.id})`] : frame.actions.map((a) => a.id),
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
      const frame = redactFrame(await this.#ctx.surfaces.surface(decodeURIComponent(surfaceMatch[1] ?? '')).snapshot())
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
