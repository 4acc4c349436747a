import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type Principal, TesseraError } from '@tessera/protocol'
import { keystrokes } from '@tessera/surface-terminal'
import { type WebSocket, WebSocketServer } from 'ws'
import type { HubContext } from '../startup/hub-context.js'

/** `/api/surfaces/<id>/pty`: a person's terminal emulator attached to a terminal tile. */
export const PTY_PATH = /^\/api\/surfaces\/([^/]+)\/pty$/

const TYPING_ROLES = new Set(['admin'])
const MAX_INPUT = 4096
/** Typed messages waiting for the gateway, per socket: past this, typing is refused until it catches up. */
const MAX_QUEUED = 64

/** What the hub sends: the screen first, then output as it comes, and how typing went. */
export type PtyMessage =
  | { type: 'screen'; cols: number; rows: number; data: string; canType: boolean }
  | { type: 'data'; data: string }
  | { type: 'typed'; status: string; message?: string }

/**
 * Streams a terminal tile's output to a person's xterm.js. What an admin types comes back
 * as the terminal's `input` actions through the gateway, as that person, in order: traced,
 * and judged by the same risk rules as an agent's typing. Anyone else's socket is read-only.
 */
export function createTerminalBridge(ctx: HubContext): { handle(request: IncomingMessage, socket: Duplex, head: Buffer, tileId: string, principal: Principal): Promise<void>; close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  const open = new Set<WebSocket>()
  const byTile = new Map<WebSocket, string>()
  // Each watcher holds a listener on a shell: one principal holds as many as it may hold event sockets.
  const perPrincipal = new Map<string, number>()
  const limit = ctx.config.limits.eventSocketsPerPrincipal
  // A closed tile's terminals end: the emulator says so instead of waiting for output forever.
  const onRemoved = (id: string): void => {
    for (const [ws, tile] of byTile) if (tile === id) ws.close(1001, `tile ${id} was closed`)
  }
  ctx.events.on('tileRemoved', onRemoved)
  return {
    async handle(request, socket, head, tileId, principal) {
      const surface = ctx.surfaces.surface(tileId)
      if (surface.terminalStream === undefined) throw new TesseraError('not_found', `tile "${tileId}" is not a terminal`, { expected: 'a terminal tile', found: surface.kind })
      const startStream = surface.terminalStream.bind(surface)
      wss.handleUpgrade(request, socket, head, (ws) => {
        const held = perPrincipal.get(principal.id) ?? 0
        if (held >= limit) {
          ws.close(1008, `too many terminal streams for this principal: ${limit} (limits.eventSocketsPerPrincipal)`)
          return
        }
        perPrincipal.set(principal.id, held + 1)
        open.add(ws)
        byTile.set(ws, tileId)
        const send = (message: PtyMessage): void => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
        }
        const canType = principal.roles.some((role) => TYPING_ROLES.has(role))
        let stop = (): void => undefined
        let typing = Promise.resolve()
        let queued = 0
        ws.on('close', () => {
          open.delete(ws)
          byTile.delete(ws)
          const left = (perPrincipal.get(principal.id) ?? 1) - 1
          if (left > 0) perPrincipal.set(principal.id, left)
          else perPrincipal.delete(principal.id)
          stop()
        })
        startStream((data) => send({ type: 'data', data })).then(
          (stream) => {
            stop = stream.stop
            if (ws.readyState !== ws.OPEN) return stop()
            send({ type: 'screen', cols: stream.cols, rows: stream.rows, data: stream.screen, canType })
          },
          (error: unknown) => ws.close(1011, (error instanceof Error ? error.message : String(error)).slice(0, 120)),
        )
        ws.on('message', (raw) => {
          if (!canType) return send({ type: 'typed', status: 'forbidden', message: `"${principal.id}" may watch this terminal but not type (needs the admin role)` })
          let data: unknown
          try {
            data = (JSON.parse(raw.toString()) as { data?: unknown }).data
          } catch {
            data = undefined
          }
          if (typeof data !== 'string' || data.length === 0 || data.length > MAX_INPUT) {
            return send({ type: 'typed', status: 'invalid_input', message: `expected {"data": "<keys>"} of 1 to ${MAX_INPUT} characters` })
          }
          if (queued >= MAX_QUEUED) return send({ type: 'typed', status: 'rate_limited', message: `${MAX_QUEUED} typed messages are still waiting for the terminal; type again when they are through` })
          queued++
          // One at a time, in order: typing must reach the shell as it was typed.
          typing = typing.then(async () => {
            try {
              for (const input of keystrokes(data)) {
                const result = await ctx.gateway.request({ surface: tileId, action: 'input', input }, principal)
                if (result.status !== 'completed') {
                  send({ type: 'typed', status: result.status, message: result.error?.message ?? (result.approvalId === undefined ? result.status : `waits for approval ${result.approvalId}`) })
                  break
                }
              }
            } catch (error) {
              send({ type: 'typed', status: error instanceof TesseraError ? error.code : 'failed', message: error instanceof Error ? error.message : String(error) })
            } finally {
              queued--
            }
          })
        })
      })
    },
    close() {
      ctx.events.off('tileRemoved', onRemoved)
      for (const ws of open) ws.terminate()
      wss.close()
    },
  }
}
