import { randomUUID } from 'node:crypto'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import type { Principal } from '@tessera/protocol'
import type { HubContext } from '../hub/hub-context.js'
import { McpSession } from './mcp-session.js'

interface Live {
  transport: WebStandardStreamableHTTPServerTransport
  session: McpSession
  principal: Principal
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } })
}

/**
 * MCP over Streamable HTTP with sessions. A session belongs to the principal whose token
 * opened it: another token presenting the same session id is refused, so a session id
 * alone is worth nothing.
 */
export class McpHttpEndpoint {
  readonly #ctx: HubContext
  readonly #live = new Map<string, Live>()

  constructor(ctx: HubContext) {
    this.#ctx = ctx
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
      return live.transport.handleRequest(request, { parsedBody })
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return jsonRpcError(400, -32000, 'expected an initialize request (POST without mcp-session-id) to open a session')
    }
    const session = new McpSession(this.#ctx, principal, `mcp-${randomUUID()}`)
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => session.traceSession.slice('mcp-'.length),
      onsessioninitialized: (id) => {
        this.#live.set(id, { transport, session, principal })
      },
      onsessionclosed: (id) => {
        void this.#drop(id)
      },
    })
    transport.onclose = () => {
      if (transport.sessionId) void this.#drop(transport.sessionId)
    }
    await session.server.connect(transport)
    return transport.handleRequest(request, { parsedBody })
  }

  async #drop(id: string): Promise<void> {
    const live = this.#live.get(id)
    if (live === undefined) return
    this.#live.delete(id)
    await live.session.close().catch(() => undefined)
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#live.keys()].map((id) => this.#drop(id)))
  }
}
