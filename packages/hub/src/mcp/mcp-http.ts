import { randomUUID } from 'node:crypto'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { type ErrorShape, type Principal, TesseraError } from '@tessera/protocol'
import type { HubContext } from '../startup/hub-context.js'
import { McpSession } from './mcp-session.js'
import { quickAnswer } from './quick-answer.js'
import { ToolScope } from './tool-scope.js'

interface Live {
  transport: WebStandardStreamableHTTPServerTransport
  session: McpSession
  principal: Principal
  lastSeen: number
  /** Open GET (server-to-client SSE) streams: a client listening is not idle. */
  streams: number
}

const DEFAULT_IDLE_MS = 1_800_000
const DEFAULT_SESSIONS_PER_PRINCIPAL = 32

/** Passes a response body through, calling `ended` once when it finishes or is cancelled. */
function onBodyEnd(response: Response, ended: () => void): Response {
  if (response.body === null) {
    ended()
    return response
  }
  const reader = response.body.getReader()
  let done = false
  const end = (): void => {
    if (done) return
    done = true
    ended()
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read()
        if (chunk.done) {
          end()
          controller.close()
        } else controller.enqueue(chunk.value)
      } catch (error) {
        end()
        controller.error(error)
      }
    },
    async cancel(reason) {
      end()
      await reader.cancel(reason)
    },
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

function jsonRpcError(status: number, code: number, message: string, data?: ErrorShape): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id: null }), { status, headers: { 'content-type': 'application/json' } })
}

/**
 * MCP over Streamable HTTP with sessions. A session belongs to the principal whose token
 * opened it: another token presenting the same session id is refused, so a session id
 * alone is worth nothing. A session ends with the client's DELETE, or after
 * `limits.mcpSessionIdleMs` without a request, a running call or an open stream: most
 * clients simply disconnect, and a session nobody ends would be held for ever.
 */
export class McpHttpEndpoint {
  readonly #ctx: HubContext
  readonly #live = new Map<string, Live>()
  readonly #idleMs: number
  readonly #perPrincipal: number
  /** Sessions being opened right now, per principal id: they count against the limit too. */
  readonly #opening = new Map<string, number>()
  readonly #sweep: NodeJS.Timeout

  constructor(ctx: HubContext) {
    this.#ctx = ctx
    this.#idleMs = ctx.config.limits.mcpSessionIdleMs ?? DEFAULT_IDLE_MS
    this.#perPrincipal = ctx.config.limits.mcpSessionsPerPrincipal ?? DEFAULT_SESSIONS_PER_PRINCIPAL
    this.#sweep = setInterval(() => void this.closeIdle(), Math.max(25, Math.min(60_000, Math.floor(this.#idleMs / 4))))
    this.#sweep.unref()
  }

  get sessionCount(): number {
    return this.#live.size
  }

  async handle(request: Request, principal: Principal, parsedBody: unknown): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId !== null) {
      const live = this.#live.get(sessionId)
      if (live === undefined) return jsonRpcError(404, -32001, `unknown or expired MCP session "${sessionId.slice(0, 64)}"; initialize a new one`)
      if (live.principal.id !== principal.id) return jsonRpcError(403, -32003, 'this MCP session belongs to another principal')
      live.lastSeen = Date.now()
      const response = await live.transport.handleRequest(request, { parsedBody })
      if (request.method === 'POST') return quickAnswer(response)
      if (request.method !== 'GET') return response
      live.streams += 1
      return onBodyEnd(response, () => {
        live.streams -= 1
        live.lastSeen = Date.now()
      })
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return jsonRpcError(400, -32000, 'expected an initialize request (POST without mcp-session-id) to open a session')
    }
    // The tools this session lists: `?tools=browser,files` on the URL the client connects to.
    let tools: ToolScope
    try {
      tools = ToolScope.parse(new URL(request.url).searchParams.get('tools'), this.#ctx.tools, '?tools=')
    } catch (error) {
      if (!(error instanceof TesseraError)) throw error
      return jsonRpcError(400, -32602, error.message, error.toJSON())
    }
    if (!this.#reserve(principal)) {
      return jsonRpcError(
        429,
        -32000,
        `"${principal.id}" already holds ${this.#perPrincipal} MCP sessions, every one in use; end one (DELETE /mcp with its mcp-session-id) or let one finish (limits.mcpSessionsPerPrincipal)`,
      )
    }
    const session = new McpSession(this.#ctx, principal, `mcp-${randomUUID()}`, tools)
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => session.traceSession.slice('mcp-'.length),
      // Each call answers on its own event stream: progress while a command runs or a person
      // decides, and elicitation, travel on it, so a long call does not die at the client's
      // timeout. A call that ends at once is sent as plain JSON all the same (quickAnswer).
      enableJsonResponse: false,
      onsessioninitialized: (id) => {
        this.#live.set(id, { transport, session, principal, lastSeen: Date.now(), streams: 0 })
      },
      onsessionclosed: (id) => {
        void this.#drop(id)
      },
    })
    transport.onclose = () => {
      if (transport.sessionId) void this.#drop(transport.sessionId)
    }
    try {
      await session.server.connect(transport)
      return await quickAnswer(await transport.handleRequest(request, { parsedBody }))
    } finally {
      // Initialized or not, the reservation ends: a live session now counts itself.
      this.#release(principal)
    }
  }

  /**
   * Holds a place for a new session of `principal`, synchronously so concurrent initializes
   * cannot all slip under the limit: below it there is room; at it, the principal's
   * longest-idle sessions end (their clients get 404 and, as MCP says, initialize again);
   * false when every one is in use.
   */
  #reserve(principal: Principal): boolean {
    const own = [...this.#live].filter(([, live]) => live.principal.id === principal.id)
    const opening = this.#opening.get(principal.id) ?? 0
    const excess = own.length + opening + 1 - this.#perPrincipal
    if (excess > 0) {
      const idle = own.filter(([, live]) => live.streams === 0 && !live.session.busy).sort(([, a], [, b]) => a.lastSeen - b.lastSeen)
      if (idle.length < excess) return false
      for (const [id] of idle.slice(0, excess)) void this.#drop(id)
    }
    this.#opening.set(principal.id, opening + 1)
    return true
  }

  #release(principal: Principal): void {
    const left = (this.#opening.get(principal.id) ?? 1) - 1
    if (left > 0) this.#opening.set(principal.id, left)
    else this.#opening.delete(principal.id)
  }

  /** Open sessions per principal id. */
  sessionsByPrincipal(): Map<string, number> {
    const counts = new Map<string, number>()
    for (const live of this.#live.values()) counts.set(live.principal.id, (counts.get(live.principal.id) ?? 0) + 1)
    return counts
  }

  async #drop(id: string): Promise<void> {
    const live = this.#live.get(id)
    if (live === undefined) return
    this.#live.delete(id)
    await live.session.close().catch(() => undefined)
  }

  /** Closes the sessions idle for longer than the limit; returns how many. */
  async closeIdle(now = Date.now()): Promise<number> {
    const idle = [...this.#live].filter(([, live]) => live.streams === 0 && !live.session.busy && now - live.lastSeen >= this.#idleMs).map(([id]) => id)
    await Promise.all(idle.map((id) => this.#drop(id)))
    return idle.length
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweep)
    await Promise.all([...this.#live.keys()].map((id) => this.#drop(id)))
  }
}
