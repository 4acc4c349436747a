import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
}
const MCP_HEADERS = { accept: 'application/json, text/event-stream' }

describe('hostile input over HTTP and MCP', () => {
  let t: TestHub

  beforeAll(async () => {
    t = await startTestHub({ limits: { bodyBytes: 64 * 1024, requestsPerMinute: 100_000, dispatchTimeoutMs: 5_000 } })
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
  })

  it('refuses missing, unknown and revoked tokens with 401 and never echoes them', async () => {
    expect((await api(t.hub, '/api/tiles')).status).toBe(401)
    const foreign = await api(t.hub, '/api/tiles', { token: 'tsr_not-a-real-token-at-all' })
    expect(foreign.status).toBe(401)
    expect(JSON.stringify(foreign.json)).not.toContain('tsr_not-a-real-token')
    const { token, record } = await t.hub.tokens.store.create({ role: 'agent', principal: 'short-lived' })
    expect((await api(t.hub, '/api/tiles', { token })).status).toBe(200)
    await t.hub.tokens.store.revoke(record.id)
    expect((await api(t.hub, '/api/tiles', { token })).status).toBe(401)
    expect((await api(t.hub, '/mcp', { method: 'POST', body: INIT, headers: MCP_HEADERS })).status).toBe(401)
  })

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin before anything else', async () => {
    // fetch will not send a Host other than the URL's, so speak HTTP directly, as a
    // rebinding browser page would: the right address, a foreign name.
    const rebinding = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: t.hub.port, path: '/api/tiles', headers: { host: `evil.example:${t.hub.port}`, authorization: `Bearer ${t.adminToken}` } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(rebinding.status).toBe(403)
    expect(JSON.parse(rebinding.body)).toMatchObject({ error: { code: 'forbidden' } })
    const origin = await api(t.hub, '/mcp', { token: t.agentToken, method: 'POST', body: INIT, headers: { ...MCP_HEADERS, origin: 'http://evil.example' } })
    expect(origin.status).toBe(403)
  })

  it('answers malformed JSON-RPC, wrong shapes and unknown tools with clear errors', async () => {
    const garbage = await api(t.hub, '/mcp', { token: t.agentToken, method: 'POST', body: '{"jsonrpc": "2.0", "method": ', headers: MCP_HEADERS })
    expect(garbage.status).toBe(400)
    expect(garbage.json).toMatchObject({ error: { code: -32700 } })
    const notInit = await api(t.hub, '/mcp', { token: t.agentToken, method: 'POST', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: MCP_HEADERS })
    expect(notInit.status).toBe(400)
    const badSession = await api(t.hub, '/mcp', { token: t.agentToken, method: 'POST', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { ...MCP_HEADERS, 'mcp-session-id': 'nope' } })
    expect(badSession.status).toBe(404)

    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const unknown = await client.callTool({ name: 'claims__launch-missiles', arguments: {} })
    expect(unknown.isError).toBe(true)
    expect(JSON.stringify(unknown.content)).toContain('no tool')
    const wrongType = await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 42 } })
    expect(JSON.stringify(wrongType.content)).toContain('invalid_input')
    const wrongArgs = await client.callTool({ name: 'surface_snapshot', arguments: { surface: ['claims'] } })
    expect(JSON.stringify(wrongArgs.content)).toContain('invalid_request')
    const deep = await client.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'open-claim', input: JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`) } })
    expect(JSON.stringify(deep.content)).toContain('nests deeper')
    await client.close()
  })

  it('answers bodies and queries of the wrong shape with a typed 4xx, never a 500', async () => {
    const seed = await api<{ result: { approvalId: string } }>(t.hub, '/api/actions', { token: t.agentToken, body: { surface: 'claims', action: 'export-claims', input: { format: 'csv' } } })
    const id = seed.json.result.approvalId
    for (const body of ['null', '[1, 2]', '"approve"', '42', 'true']) {
      for (const path of [`/api/approvals/${id}/approve`, `/api/approvals/${id}/deny`, '/api/login']) {
        const reply = await api(t.hub, path, { token: t.adminToken, body })
        expect(reply.status, `${path} with ${body}`).toBe(400)
        expect(reply.json).toMatchObject({ error: { code: 'invalid_request' } })
      }
      const action = await api(t.hub, '/api/actions', { token: t.agentToken, body })
      expect(action.status, `/api/actions with ${body}`).toBe(400)
    }
    // None of that resolved the approval.
    expect((await api<{ approval: { status: string } }>(t.hub, `/api/approvals/${id}`, { token: t.adminToken })).json.approval.status).toBe('pending')
    const status = await api(t.hub, '/api/approvals?status=bogus', { token: t.adminToken })
    expect(status.status).toBe(400)
    expect(status.json).toMatchObject({ error: { code: 'invalid_request', details: { expected: ['pending', 'approved', 'denied', 'expired', 'consumed'] } } })
    expect((await api(t.hub, '/api/trace/no-such-session/verify', { token: t.adminToken })).status).toBe(404)
    expect((await api(t.hub, '/api/trace/no-such-session?limit=-1', { token: t.adminToken })).status).toBe(400)
  })

  it('refuses oversized bodies with 413, with and without a declared length', async () => {
    const big = JSON.stringify({ surface: 'claims', action: 'open-claim', input: { claimId: 'x'.repeat(100 * 1024) } })
    const declared = await api(t.hub, '/api/actions', { token: t.agentToken, body: big })
    expect(declared.status).toBe(413)
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(8 * 1024)))
        controller.close()
      },
    })
    const chunked = await fetch(`${t.hub.url}/api/actions`, { method: 'POST', body: stream, headers: { authorization: `Bearer ${t.agentToken}`, 'content-type': 'application/json' }, duplex: 'half' } as RequestInit)
    expect(chunked.status).toBe(413)
  })

  it('keeps serving afterwards, and every session recorded so far still verifies', async () => {
    const health = await api<{ ok: boolean }>(t.hub, '/api/health')
    expect(health.json.ok).toBe(true)
    const { json } = await api<{ sessions: Array<{ session: string }> }>(t.hub, '/api/sessions', { token: t.adminToken })
    expect(json.sessions.length).toBeGreaterThan(0)
    for (const { session } of json.sessions) {
      const verify = await api<{ results: Array<{ ok: boolean }> }>(t.hub, `/api/trace/${encodeURIComponent(session)}/verify`, { token: t.adminToken })
      expect(verify.json.results.every((r) => r.ok)).toBe(true)
    }
  })
})
