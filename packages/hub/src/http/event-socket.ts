import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { authenticate, checkHost, checkOrigin, type GuardProblem, requireRole } from '../auth/request-guard.js'
import type { LiveTokens } from '../auth/live-tokens.js'
import type { HubContext } from '../startup/hub-context.js'
import { TesseraError } from '@tessera/protocol'
import { parse as parseCookies } from 'hono/utils/cookie'
import { CONSOLE_COOKIE, type ConsoleSessions } from './console-sessions.js'
import { PTY_PATH, createTerminalBridge } from './terminal-bridge.js'
import { VNC_PATH, createVncBridge } from './vnc-bridge.js'

export interface EventSocketDeps {
  tokens: LiveTokens
  /** The console signs in once and carries a session cookie, never a token. */
  consoleSessions: ConsoleSessions
  allowedHosts: () => string[]
  allowedOrigins: () => string[]
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [key, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(key, value)
    else if (Array.isArray(value)) headers.set(key, value.join(', '))
  }
  return headers
}

function refuse(socket: Duplex, problem: GuardProblem): void {
  const body = JSON.stringify({ error: problem.error })
  socket.end(`HTTP/1.1 ${problem.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
}

/**
 * `/api/events`: a WebSocket that pushes tiles, new frames (id, version and route: clients fetch
 * the frame if they want it), trace events and approval changes as they happen.
 */
export function attachEventSocket(server: Server, ctx: HubContext, deps: EventSocketDeps): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  const clients = new Set<WebSocket>()
  const perPrincipal = new Map<string, number>()
  const limit = ctx.config.limits.eventSocketsPerPrincipal
  const broadcast = (message: unknown): void => {
    const text = JSON.stringify(message)
    for (const client of clients) if (client.readyState === client.OPEN) client.send(text)
  }
  const listeners = {
    tile: (tile: unknown) => broadcast({ type: 'tile', tile }),
    tileRemoved: (id: string) => broadcast({ type: 'tileRemoved', id }),
    frame: (frame: { surface: string; id: string; version: number; route: string }) => broadcast({ type: 'frame', surface: frame.surface, frameId: frame.id, version: frame.version, route: frame.route }),
    // The tile changed and its cached frame was dropped: a client that shows it fetches the
    // frame again, and however many do, the hub takes one snapshot.
    changed: (surface: string) => broadcast({ type: 'changed', surface }),
    trace: (events: unknown) => broadcast({ type: 'trace', events }),
    approval: (approval: unknown) => broadcast({ type: 'approval', approval }),
    viewport: (viewport: unknown) => broadcast({ type: 'viewport', viewport }),
  }
  ctx.events.on('tile', listeners.tile)
  ctx.events.on('tileRemoved', listeners.tileRemoved)
  ctx.events.on('frame', listeners.frame)
  ctx.events.on('changed', listeners.changed)
  ctx.events.on('trace', listeners.trace)
  ctx.events.on('approval', listeners.approval)
  ctx.events.on('viewport', listeners.viewport)

  const vnc = createVncBridge(ctx)
  const terminals = createTerminalBridge(ctx)
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://hub')
    const vncTile = VNC_PATH.exec(url.pathname)?.[1]
    const ptyTile = PTY_PATH.exec(url.pathname)?.[1]
    if (url.pathname !== '/api/events' && vncTile === undefined && ptyTile === undefined) {
      refuse(socket, { status: 404, error: { code: 'not_found', message: `no WebSocket at ${url.pathname}`, details: { expected: ['/api/events', '/api/surfaces/<id>/vnc', '/api/surfaces/<id>/pty'] } } })
      return
    }
    const headers = headersOf(request)
    const refused = checkHost(headers, deps.allowedHosts()) ?? checkOrigin(headers, deps.allowedOrigins())
    if (refused) return refuse(socket, refused)
    void deps.tokens.refresh().then(async () => {
      const cookie = parseCookies(headers.get('cookie') ?? '', CONSOLE_COOKIE)[CONSOLE_COOKIE]
      const signedIn = deps.consoleSessions.principal(cookie)
      const auth = signedIn === null ? authenticate(headers, deps.tokens) : ({ ok: true, principal: signedIn } as const)
      if (!auth.ok) return refuse(socket, auth.problem)
      const bridged = vncTile ?? ptyTile
      if (bridged !== undefined) {
        // Pixels and output are reads: whoever may read a tile's frame may watch it.
        const forbidden = requireRole(auth.principal, ['viewer', 'agent', 'approver', 'admin'])
        if (forbidden) return refuse(socket, forbidden)
        const tile = decodeURIComponent(bridged)
        const attached = vncTile !== undefined ? vnc.handle(request, socket, head, tile) : terminals.handle(request, socket, head, tile, auth.principal)
        await attached.catch((error: unknown) => {
          const problem = error instanceof TesseraError ? error : new TesseraError('internal', String(error), {})
          refuse(socket, { status: problem.code === 'not_found' ? 404 : 502, error: { code: problem.code, message: problem.message, details: (problem.details ?? {}) as Record<string, unknown> } })
        })
        return
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
      const id = auth.principal.id
      const held = perPrincipal.get(id) ?? 0
      if (held >= limit) {
        // 1008, policy violation: the client learns why instead of a silent drop.
        ws.close(1008, `too many event sockets for this principal: ${limit} (limits.eventSocketsPerPrincipal)`)
        return
      }
      perPrincipal.set(id, held + 1)
      clients.add(ws)
      ws.on('close', () => {
        clients.delete(ws)
        const left = (perPrincipal.get(id) ?? 1) - 1
        if (left > 0) perPrincipal.set(id, left)
        else perPrincipal.delete(id)
      })
      // The socket is push-only: anything a client sends is ignored, never executed.
      ws.on('message', () => undefined)
      ws.send(JSON.stringify({ type: 'hello', principal: auth.principal.id, tiles: ctx.surfaces.list(), viewport: ctx.map.viewport }))
      })
    }, () => refuse(socket, { status: 500, error: { code: 'store_error', message: 'the token file could not be read', details: {} } }))
  })

  return {
    close() {
      ctx.events.off('tile', listeners.tile)
      ctx.events.off('tileRemoved', listeners.tileRemoved)
      ctx.events.off('frame', listeners.frame)
      ctx.events.off('changed', listeners.changed)
      ctx.events.off('trace', listeners.trace)
      ctx.events.off('approval', listeners.approval)
      ctx.events.off('viewport', listeners.viewport)
      for (const client of clients) client.terminate()
      wss.close()
      vnc.close()
      terminals.close()
    },
  }
}
