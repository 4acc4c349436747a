import { mkdirSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Gateway, openStore } from '@tessera/gateway'
import { TesseraError } from '@tessera/protocol'
import { type HubConfig, storeSpec } from '../config/hub-config.js'
import { LoginLinks } from '../auth/login-link.js'
import { LiveTokens } from '../auth/live-tokens.js'
import { createApi } from '../http/api.js'
import { attachEventSocket } from '../http/event-socket.js'
import { McpHttpEndpoint } from '../mcp/mcp-http.js'
import { MapSurface } from '../tiles/map-surface.js'
import { SurfaceManager } from '../tiles/surface-manager.js'
import { terminalSetup } from './terminal-setup.js'
import { addDemoSurfaces } from './demo-surfaces.js'
import type { HubContext } from './hub-context.js'
import { HubEvents } from './hub-events.js'
import { removeHubFile, writeHubFile } from './hub-file.js'
import { observeStore } from './observed-store.js'

export interface StartedHub {
  url: string
  mcpUrl: string
  consoleUrl: string
  port: number
  ctx: HubContext
  tokens: LiveTokens
  logins: LoginLinks
  /** Raw tokens created on this first start (printed once), or null on later starts. */
  initialTokens: { admin: string; agent: string } | null
  mcp: McpHttpEndpoint
  stop(): Promise<void>
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/**
 * Starts a hub: the trace store, the gateway, the tiles, the HTTP + WebSocket API and the
 * MCP endpoint, in that order; stops them in reverse. Writes DATA/hub.json once ready.
 */
export async function startHub(config: HubConfig, options: { writeHubFile?: boolean } = {}): Promise<StartedHub> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const events = new HubEvents()
  const spec = storeSpec(config)
  const store = observeStore(await openStore(spec), events)
  const gateway = new Gateway({ store, policy: config.policy, dispatchTimeoutMs: config.limits.dispatchTimeoutMs })
  const surfaces = new SurfaceManager(gateway, events)
  const tokens = await LiveTokens.open(config.dataDir)
  const initial = await tokens.store.ensureInitial()
  const logins = new LoginLinks()
  let baseUrl = ''
  const ctx: HubContext = { config, gateway, store, surfaces, events, consoleUrl: () => `${baseUrl}/` }
  const mcp = new McpHttpEndpoint(ctx)
  // Filled in once the port is known (port 0 picks one).
  const allowed = { hosts: [] as string[], origins: [] as string[] }
  const api = createApi(ctx, { tokens, logins, mcp, allowedHosts: () => allowed.hosts, allowedOrigins: () => allowed.origins })
  const server = createAdaptorServer({ fetch: api.fetch }) as Server
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => resolve())
    })
  } catch (error) {
    await mcp.closeAll()
    await store.close().catch(() => undefined)
    const code = (error as NodeJS.ErrnoException).code
    const where = `${config.host}:${config.port}`
    if (code === 'EADDRINUSE') throw new TesseraError('conflict', `${where} is already in use; choose another --port, or 0 for a free one`, { found: where })
    if (code === 'EACCES') throw new TesseraError('forbidden', `not allowed to listen on ${where}; ports below 1024 need privileges`, { found: where })
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new TesseraError('invalid_request', `cannot listen on ${where}: no such local address`, { found: config.host })
    throw error
  }
  const port = (server.address() as AddressInfo).port
  const host = hostForUrl(config.host)
  baseUrl = `http://${host}:${port}`
  allowed.hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${host}:${port}`, ...config.allowedHosts]
  allowed.origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, baseUrl, ...config.allowedOrigins]
  const sockets = attachEventSocket(server, ctx, { tokens, allowedHosts: () => allowed.hosts, allowedOrigins: () => allowed.origins })
  if (config.demo) await addDemoSurfaces(surfaces, config.dataDir)
  const { terminals, defaultCwd, sandbox } = terminalSetup(config)
  const map = new MapSurface({ terminals, surfaces, defaultCwd, sandbox })
  gateway.addSurface(map)
  if (config.demo && config.terminals.openAtStart) {
    await map.perform(map.actions()[0]!, {}, { actor: 'hub', session: gateway.session, requestId: 'startup', signal: new AbortController().signal })
  }
  // Pending approvals past their time are marked expired even when nobody asks.
  const sweep = setInterval(() => void gateway.expireApprovals().catch(() => undefined), 5_000)
  sweep.unref()
  const started: StartedHub = {
    url: baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    consoleUrl: `${baseUrl}/`,
    port,
    ctx,
    tokens,
    logins,
    initialTokens: initial.created && initial.admin && initial.agent ? { admin: initial.admin, agent: initial.agent } : null,
    mcp,
    async stop() {
      clearInterval(sweep)
      sockets.close()
      await mcp.closeAll()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Idle keep-alive connections would hold close() open; end them.
        ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
      })
      await surfaces.closeAll()
      await map.close()
      await gateway.close()
      await store.close()
      if (options.writeHubFile !== false) removeHubFile(config.dataDir)
    },
  }
  if (options.writeHubFile !== false) {
    writeHubFile(config.dataDir, { url: baseUrl, mcpUrl: started.mcpUrl, consoleUrl: started.consoleUrl, pid: process.pid, startedAt: new Date().toISOString(), store: spec.startsWith('postgres') ? 'postgres' : spec })
  }
  return started
}
