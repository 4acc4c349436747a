import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Gateway, openStore } from '@tessera/gateway'
import { type Principal, TesseraError } from '@tessera/protocol'
import { type HubConfig, configuredTiles, storeSpec } from '../config/hub-config.js'
import { LoginLinks } from '../auth/login-link.js'
import { LiveTokens } from '../auth/live-tokens.js'
import { createApi } from '../http/api.js'
import { createHubMetrics } from '../http/hub-metrics.js'
import { HUB_ACTOR } from '../auth/hub-actor.js'
import { ConsoleSessions } from '../http/console-sessions.js'
import { attachEventSocket } from '../http/event-socket.js'
import { McpHttpEndpoint } from '../mcp/mcp-http.js'
import { ToolCatalog } from '../mcp/tool-catalog.js'
import { ToolList } from '../mcp/tool-list.js'
import { KindRegistry, loadKindModule } from '../tiles/kind-registry.js'
import { MapSurface, type TilePreset, presetName } from '../tiles/map-surface.js'
import { SurfaceManager } from '../tiles/surface-manager.js'
import { terminalDefaults } from './terminal-setup.js'
import { CheckpointLog } from '../anchors/checkpoint-log.js'
import { loadOrCreateCheckpointKey } from '../anchors/checkpoint-key.js'
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

/** The hub itself, opening its configured tiles at start. */
const HUB_PRINCIPAL: Principal = { id: HUB_ACTOR, roles: ['admin'] }

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
  // Kinds and the tool catalog first: a bad kind module or tools.exclude fails before anything opens.
  const kinds = new KindRegistry()
  const baseDir = config.baseDir ?? process.cwd()
  for (const spec of config.kindModules) kinds.add(await loadKindModule(spec, baseDir))
  const tools = new ToolCatalog(kinds, config.tools.exclude)
  const spec = storeSpec(config)
  // Every committed head is also signed into DATA/checkpoints.jsonl, outside the store.
  const checkpoints = new CheckpointLog(config.dataDir, loadOrCreateCheckpointKey(config.dataDir))
  events.on('trace', (appended) => checkpoints.note(appended))
  const store = observeStore(await openStore(spec), events)
  const gateway = new Gateway({ store, policy: config.policy, dispatchTimeoutMs: config.limits.dispatchTimeoutMs, tracedOutput: { maxChars: config.limits.traceOutputChars } })
  const surfaces = new SurfaceManager(gateway, events, { kinds, dataDir: resolve(config.dataDir), baseDir, defaults: { terminal: terminalDefaults(config) } })
  const presets = configuredTiles(config) as TilePreset[]
  const map = new MapSurface(surfaces, presets, { tilesPerPrincipal: config.limits.tilesPerPrincipal, onViewport: (viewport) => events.emit('viewport', viewport) })
  gateway.addSurface(map)
  const mapChanged = (): void => map.tilesChanged()
  events.on('tile', mapChanged)
  events.on('tileRemoved', mapChanged)
  const tokens = await LiveTokens.open(config.dataDir)
  const initial = await tokens.store.ensureInitial()
  const logins = new LoginLinks()
  let baseUrl = ''
  const toolList = new ToolList(tools, surfaces, gateway, events)
  const ctx: HubContext = { config, gateway, store, surfaces, map, tools, toolList, events, consoleUrl: () => `${baseUrl}/` }
  const mcp = new McpHttpEndpoint(ctx)
  // Filled in once the port is known (port 0 picks one).
  const allowed = { hosts: [] as string[], origins: [] as string[] }
  const metrics = createHubMetrics(ctx, () => mcp.sessionCount)
  const consoleSessions = new ConsoleSessions()
  const api = createApi(ctx, { tokens, logins, mcp, metrics, consoleSessions, allowedHosts: () => allowed.hosts, allowedOrigins: () => allowed.origins })
  const server = createAdaptorServer({ fetch: api.fetch }) as Server
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => resolve())
    })
  } catch (error) {
    await mcp.closeAll()
    toolList.close()
    metrics.stop()
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
  const sockets = attachEventSocket(server, ctx, { tokens, consoleSessions, allowedHosts: () => allowed.hosts, allowedOrigins: () => allowed.origins })
  const closeAfterFailedStart = async (): Promise<void> => {
    sockets.close()
    await mcp.closeAll()
    toolList.close()
    metrics.stop()
    await new Promise<void>((done) => server.close(() => done()))
    await surfaces.closeAll()
    await gateway.close()
    await store.close()
  }
  // The configured tiles open through the gateway like any agent's open, so each is in the trace.
  if (config.demo) {
    for (const preset of presets) {
      const opened = await gateway.request({ surface: 'map', action: 'open', input: { preset: presetName(preset) } }, HUB_PRINCIPAL)
      if (opened.status !== 'completed') {
        await closeAfterFailedStart()
        throw new TesseraError(opened.error?.code ?? 'internal', `could not open the configured tile "${presetName(preset)}": ${opened.error?.message ?? opened.status}`, { tile: presetName(preset), status: opened.status })
      }
    }
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
      toolList.close()
      metrics.stop()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Idle keep-alive connections would hold close() open; end them.
        ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
      })
      events.off('tile', mapChanged)
      events.off('tileRemoved', mapChanged)
      await surfaces.closeAll()
      await map.close()
      await gateway.close()
      await store.close()
      checkpoints.flush()
      if (options.writeHubFile !== false) removeHubFile(config.dataDir)
    },
  }
  if (options.writeHubFile !== false) {
    writeHubFile(config.dataDir, { url: baseUrl, mcpUrl: started.mcpUrl, consoleUrl: started.consoleUrl, pid: process.pid, startedAt: new Date().toISOString(), store: spec.startsWith('postgres') ? 'postgres' : spec })
  }
  return started
}
