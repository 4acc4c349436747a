import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { TokenStore } from '@tessera/hub'
import type { ActionResult, Approval } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'
import { type CliHub, startCliHub } from '../support/run-cli.js'

type Structured = { result: ActionResult }

const SESSIONS = 100

function resultOf(call: unknown): ActionResult {
  return ((call as { structuredContent: Structured }).structuredContent).result
}

/** Resident memory of another process, from /proc (Linux); null elsewhere. */
function rssKb(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
    return line ? Number(/(\d+)/.exec(line)?.[1]) : null
  } catch {
    return null
  }
}

async function closeClient(client: Client): Promise<void> {
  // Ends the session on the hub (DELETE) before dropping the connection.
  await (client.transport as StreamableHTTPClientTransport).terminateSession().catch(() => undefined)
  await client.close()
}

describe(`${SESSIONS} concurrent MCP sessions over Streamable HTTP`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-load-'))
  let running: CliHub
  // The hub runs as its own process (`tessera up`), so its memory is measured apart from the clients'.
  const hub = { url: '', mcpUrl: '' }
  let adminToken: string
  let agentToken: string
  let knownApproval: string
  const get = async <T>(path: string): Promise<T> => (await api<T>(hub, path, { token: adminToken })).json

  beforeAll(async () => {
    running = await startCliHub(dataDir)
    Object.assign(hub, { url: running.hub.url, mcpUrl: running.hub.mcpUrl })
    adminToken = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim()
    agentToken = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
    const seed = await connectHttpClient(hub.mcpUrl, agentToken)
    const waiting = resultOf(await seed.callTool({ name: 'claims__export-claims', arguments: { format: 'json' } }))
    expect(waiting.status).toBe('awaiting_approval')
    knownApproval = waiting.approvalId!
    await closeClient(seed)
  })
  afterAll(async () => {
    if (running) expect(await running.stop()).toMatchObject({ code: 0, hubJsonRemoved: true })
    removeDir(dataDir)
  })

  it('each initializes, lists tools, snapshots, reads an approval and its trace, and requests an export that waits; all succeed', async () => {
    // Default limits: every session is its own principal, as separate agents would be. The
    // running hub picks the new tokens up from tokens.json.
    const store = await TokenStore.open(dataDir)
    const tokens: string[] = []
    for (let i = 0; i < SESSIONS; i += 1) tokens.push((await store.create({ role: 'agent', principal: `load-agent-${i}` })).token)
    const frameBefore = (await get<{ frame: { id: string } }>('/api/surfaces/claims/frame')).frame.id
    const rssBefore = rssKb(running.hub.pid)
    const started = performance.now()

    const clients = await Promise.all(tokens.map((token) => connectHttpClient(hub.mcpUrl, token)))
    const connected = performance.now()
    expect((await get<{ mcpSessions: number }>('/api/health')).mcpSessions).toBe(SESSIONS)
    const rssOpen = rssKb(running.hub.pid)

    const outcomes = await Promise.all(
      clients.map(async (client, i) => {
        const { tools } = await client.listTools()
        const snapshot = await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims' } })
        const listed = await client.callTool({ name: 'surfaces_list', arguments: {} })
        const status = await client.callTool({ name: 'approval_status', arguments: { approvalId: knownApproval } })
        const exported = await client.callTool({ name: 'claims__export-claims', arguments: { format: i % 2 === 0 ? 'csv' : 'json' } })
        const tail = await client.callTool({ name: 'trace_tail', arguments: { limit: 10 } })
        return {
          tools: tools.length,
          snapshotOk: snapshot.isError !== true && JSON.stringify(snapshot.content).includes('export-claims'),
          listedOk: listed.isError !== true,
          status: (status.structuredContent as { approval: Approval }).approval.status,
          exported: resultOf(exported),
          tailText: (tail.content as Array<{ text: string }>)[0]?.text ?? '',
        }
      }),
    )
    const finished = performance.now()
    const rssUsed = rssKb(running.hub.pid)

    for (const outcome of outcomes) {
      expect(outcome.tools).toBeGreaterThan(6)
      expect(outcome.snapshotOk).toBe(true)
      expect(outcome.listedOk).toBe(true)
      expect(outcome.status).toBe('pending')
      expect(outcome.exported.status).toBe('awaiting_approval')
      expect(outcome.tailText).toContain('awaiting_approval')
    }
    // Every session traced on its own chain, and each request opened its own approval.
    expect(new Set(outcomes.map((o) => o.exported.session)).size).toBe(SESSIONS)
    expect(new Set(outcomes.map((o) => o.exported.approvalId)).size).toBe(SESSIONS)
    expect((await get<{ approvals: Approval[] }>('/api/approvals?status=pending')).approvals).toHaveLength(SESSIONS + 1)
    // Nothing ran: the shared surface is exactly as it was.
    expect((await get<{ frame: { id: string } }>('/api/surfaces/claims/frame')).frame.id).toBe(frameBefore)

    const perSession = (after: number | null) => (after === null || rssBefore === null ? 'n/a' : `${((after - rssBefore) / SESSIONS).toFixed(0)} KB`)
    console.log(
      `${SESSIONS} sessions: connected in ${Math.round(connected - started)} ms, 6 tool calls each in ${Math.round(finished - connected)} ms; ` +
        `hub RSS ${rssBefore} KB before, growth per session ≈ ${perSession(rssOpen)} open, ≈ ${perSession(rssUsed)} after the calls (not asserted)`,
    )

    await Promise.all(clients.map(closeClient))
    expect(await get<{ ok: boolean; mcpSessions: number }>('/api/health')).toMatchObject({ ok: true, mcpSessions: 0 })
    const sample = outcomes[SESSIONS - 1]!.exported.session
    const verify = await get<{ results: Array<{ ok: boolean }> }>(`/api/trace/${encodeURIComponent(sample)}/verify`)
    expect(verify.results).toEqual([expect.objectContaining({ ok: true })])
  })
})

describe('a restarted hub keeps pending approvals and the trace', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-restart-'))
  let first: TestHub | null = null
  let second: TestHub | null = null

  afterAll(async () => {
    await first?.stop().catch(() => undefined)
    await second?.stop().catch(() => undefined)
    removeDir(dataDir)
  })

  it('an export requested before the restart is still pending after it, runs when approved, and its session chain grows and verifies', async () => {
    first = await startTestHub({}, dataDir)
    const client = await connectHttpClient(first.hub.mcpUrl, first.agentToken)
    const waiting = resultOf(await client.callTool({ name: 'claims__export-claims', arguments: { format: 'csv' } }))
    expect(waiting.status).toBe('awaiting_approval')
    await closeClient(client)
    const headBefore = (await api<{ head: { seq: number; hash: string } }>(first.hub, `/api/trace/${encodeURIComponent(waiting.session)}?limit=1`, { token: first.adminToken })).json.head
    await first.stop()
    first = null

    second = await startTestHub({}, dataDir)
    const pending = await api<{ approvals: Approval[] }>(second.hub, '/api/approvals?status=pending', { token: second.adminToken })
    expect(pending.json.approvals).toEqual([expect.objectContaining({ id: waiting.approvalId, action: 'export-claims', requester: 'agent', session: waiting.session })])

    const approved = await api<{ approval: Approval; result: ActionResult }>(second.hub, `/api/approvals/${waiting.approvalId}/approve`, { token: second.adminToken, body: { note: 'after a restart' } })
    expect(approved.status).toBe(200)
    expect(approved.json.result.status).toBe('completed')
    expect(approved.json.result.diff).toContainEqual({ op: 'replace', path: '/exports', value: 1 })
    expect(approved.json.approval.status).toBe('consumed')

    const after = await api<{ head: { seq: number }; events: Array<{ seq: number; hash: string; type: string }> }>(second.hub, `/api/trace/${encodeURIComponent(waiting.session)}?fromSeq=0&limit=1000`, { token: second.adminToken })
    expect(after.json.head.seq).toBeGreaterThan(headBefore.seq)
    // What was written before the restart is there, unchanged.
    expect(after.json.events.find((e) => e.seq === headBefore.seq)?.hash).toBe(headBefore.hash)
    expect(after.json.events.filter((e) => e.seq > headBefore.seq).map((e) => e.type)).toEqual(expect.arrayContaining(['approved', 'completed']))
    const verify = await api<{ results: Array<{ ok: boolean; count: number }> }>(second.hub, `/api/trace/${encodeURIComponent(waiting.session)}/verify`, { token: second.adminToken })
    expect(verify.json.results).toEqual([expect.objectContaining({ ok: true, count: after.json.head.seq + 1 })])
  })
})

describe('MCP sessions nobody ends', () => {
  let t: TestHub

  beforeAll(async () => {
    t = await startTestHub({ limits: { mcpSessionIdleMs: 300 } })
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
  })

  it('are closed after the idle time, while a client that keeps its stream open keeps its session', async () => {
    const listening = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    // Disconnects without the DELETE that would end its session, as most clients do.
    const leaving = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const leftSession = (leaving.transport as StreamableHTTPClientTransport).sessionId!
    await leaving.close()
    // Initializes and never comes back, holding no stream.
    const init = await fetch(t.hub.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.agentToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '0' } } }),
    })
    await init.text()
    expect((await api<{ mcpSessions: number }>(t.hub, '/api/health')).json.mcpSessions).toBe(3)

    let sessions = 3
    for (let i = 0; i < 100 && sessions !== 1; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      sessions = (await api<{ mcpSessions: number }>(t.hub, '/api/health')).json.mcpSessions
    }
    expect(sessions).toBe(1)
    // The listening client was idle just as long, and still works.
    expect((await listening.listTools()).tools.length).toBeGreaterThan(6)
    const expired = await fetch(t.hub.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.agentToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': leftSession },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    })
    expect(expired.status).toBe(404)
    expect(await expired.text()).toContain('initialize a new one')
    await closeClient(listening)
  })
})
