import type { IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import type { Duplex } from 'node:stream'
import { TesseraError } from '@tessera/protocol'
import { type WebSocket, WebSocketServer } from 'ws'
import type { HubContext } from '../startup/hub-context.js'

/** `/api/surfaces/<id>/vnc`: the path a viewer's WebSocket asks for. */
export const VNC_PATH = /^\/api\/surfaces\/([^/]+)\/vnc$/

/**
 * Bridges a viewer's WebSocket (noVNC speaks RFB over one, binary) to a tile's view-only VNC
 * server on loopback: bytes both ways, nothing read or changed. The server is the tile's, so
 * what the viewer types reaches no app; actions go through the gateway.
 */
export function createVncBridge(ctx: HubContext): { handle(request: IncomingMessage, socket: Duplex, head: Buffer, tileId: string): Promise<void>; close(): void } {
  // noVNC asks for the `binary` subprotocol; a client that names none gets binary frames too.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024, handleProtocols: (protocols) => (protocols.has('binary') ? 'binary' : false) })
  const open = new Set<WebSocket>()
  return {
    async handle(request, socket, head, tileId) {
      const surface = ctx.surfaces.surface(tileId)
      if (surface.vnc === undefined) throw new TesseraError('not_found', `tile "${tileId}" has no live pixels over VNC`, { expected: 'a desktop tile', found: surface.kind })
      const { host, port } = await surface.vnc()
      const upstream = connect({ host, port })
      await new Promise<void>((resolve, reject) => {
        upstream.once('connect', resolve)
        upstream.once('error', (error) => reject(new TesseraError('conflict', `the tile's VNC server at ${host}:${port} did not take the connection: ${error.message}`, { found: `${host}:${port}` })))
      })
      wss.handleUpgrade(request, socket, head, (ws) => {
        open.add(ws)
        upstream.on('data', (chunk: Buffer) => {
          if (ws.readyState === ws.OPEN) ws.send(chunk)
        })
        ws.on('message', (data: Buffer) => upstream.write(data))
        const end = (): void => {
          open.delete(ws)
          upstream.destroy()
          if (ws.readyState === ws.OPEN) ws.close()
        }
        ws.on('close', end)
        ws.on('error', end)
        upstream.on('close', end)
        upstream.on('error', end)
      })
    },
    close() {
      for (const ws of open) ws.terminate()
      wss.close()
    },
  }
}
