import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { api, connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

const SESSIONS = 4
const SOCKETS = 2

/** An initialize over plain HTTP, as a flooding client sends it: no GET stream, never a DELETE. */
async function initialize(mcpUrl: string, token: string): Promise<{ status: number; sessionId: string | null; body: string }> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } }),
  })
  return { status: response.status, sessionId: response.headers.get('mcp-session-id'), body: await response.text() }
}

function openSocket(url: string, token: string): Promise<{ opened: boolean; closeCode: number | null; socket: WebSocket }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws') + '/api/events', { headers: { authorization: `Bearer ${token}` } })
    let hello = false
    socket.on('message', () => {
      hello = true
      resolve({ opened: true, closeCode: null, socket })
    })
    socket.on('close', (code) => {
      if (!hello) resolve({ opened: false, closeCode: code, socket })
    })
    socket.on('error', () => undefined)
  })
}

describe('session floods: limits per principal', () => {
  let t: TestHub
  let viewerToken: string
  const clients: Client[] = []

  beforeAll(async () => {
    t = await startTestHub({ limits: { mcpSessionsPerPrincipal: SESSIONS, eventSocketsPerPrincipal: SOCKETS } })
    viewerToken = (await t.hub.tokens.store.create({ role: 'viewer', principal: 'watcher' })).token
  })

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined)
    await t?.stop()
    removeDir(t?.dataDir ?? '')
  })

  it('a viewer flooding initializes holds at most its limit: the oldest idle sessions make way, the hub keeps answering', async () => {
    const opened = []
    for (let i = 0; i < 60; i += 1) opened.push(await initialize(t.hub.mcpUrl, viewerToken))
    expect(opened.every((o) => o.status === 200 && o.sessionId !== null)).toBe(true)
    expect(t.hub.mcp.sessionsByPrincipal().get('watcher')).toBe(SESSIONS)
    // The newest are the ones kept; an evicted one is told to initialize again.
    const evicted = await fetch(t.hub.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewerToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': opened[0]!.sessionId!, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    })
    expect(evicted.status).toBe(404)
    // Concurrent initializes cannot slip past the limit together.
    await Promise.all(Array.from({ length: 40 }, () => initialize(t.hub.mcpUrl, viewerToken)))
    expect(t.hub.mcp.sessionsByPrincipal().get('watcher')).toBe(SESSIONS)
    expect((await api(t.hub, '/api/health')).status).toBe(200)
  })

  it('when every session of a principal is in use, a new one is refused with 429; other principals are not affected', async () => {
    // SDK clients hold their GET stream open: in use, never evicted.
    for (let i = 0; i < SESSIONS; i += 1) clients.push(await connectHttpClient(t.hub.mcpUrl, t.agentToken))
    await new Promise((resolve) => setTimeout(resolve, 200))
    const refused = await initialize(t.hub.mcpUrl, t.agentToken)
    expect(refused.status).toBe(429)
    expect(refused.body).toContain('limits.mcpSessionsPerPrincipal')
    // Each held session still works.
    for (const client of clients) expect((await client.listTools()).tools.length).toBeGreaterThan(0)
    // Another principal opens a session as usual.
    const admin = await connectHttpClient(t.hub.mcpUrl, t.adminToken)
    expect((await admin.callTool({ name: 'surfaces_list', arguments: {} })).isError).toBeFalsy()
    await admin.close()
    // Ending one makes room.
    await clients.pop()!.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    const again = await initialize(t.hub.mcpUrl, t.agentToken)
    expect(again.status).toBe(200)
  })

  it('event sockets per principal are capped: the one past the limit closes with 1008', async () => {
    const held = [await openSocket(t.hub.url, viewerToken), await openSocket(t.hub.url, viewerToken)]
    expect(held.every((s) => s.opened)).toBe(true)
    const extra = await openSocket(t.hub.url, viewerToken)
    expect(extra).toMatchObject({ opened: false, closeCode: 1008 })
    const other = await openSocket(t.hub.url, t.adminToken)
    expect(other.opened).toBe(true)
    for (const s of [...held, other]) s.socket.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    const afterClose = await openSocket(t.hub.url, viewerToken)
    expect(afterClose.opened).toBe(true)
    afterClose.socket.close()
  })
})
