import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import type { ActionResult, Approval } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

type Structured = { result: ActionResult }

function resultOf(call: unknown): ActionResult {
  return ((call as { structuredContent: Structured }).structuredContent).result
}

/** A client whose user would say yes to anything: the case that must not approve by default. */
async function autoAccepting(t: TestHub, answer: () => ElicitResult = () => ({ action: 'accept', content: { approve: true } })): Promise<{ client: Client; asked: string[] }> {
  const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken, { elicitation: {} })
  const asked: string[] = []
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message)
    return answer()
  })
  return { client, asked }
}

async function approvalOf(t: TestHub, id: string): Promise<Approval> {
  const { status, json } = await api<{ approval: Approval }>(t.hub, `/api/approvals/${id}`, { token: t.adminToken })
  expect(status).toBe(200)
  return json.approval
}

async function rawMcp(t: TestHub, sessionId: string, message: unknown, token = t.agentToken): Promise<{ status: number; body: string }> {
  const response = await fetch(t.hub.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(message),
  })
  return { status: response.status, body: await response.text() }
}

describe('approval by elicitation is off by default', () => {
  let t: TestHub

  beforeAll(async () => {
    t = await startTestHub()
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
  })

  it('a client that auto-accepts every elicitation is never asked, and its payout waits for a human', async () => {
    const { client, asked } = await autoAccepting(t)
    await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1001' } })
    const waiting = resultOf(await client.callTool({ name: 'claims__approve-payout', arguments: {} }))
    expect(waiting.status).toBe('awaiting_approval')
    expect(asked).toEqual([])
    expect(await approvalOf(t, waiting.approvalId!)).toMatchObject({ status: 'pending', requester: 'agent' })
    await client.close()
  })

  it('spoofed approvals change nothing: unsolicited responses, invented notifications and methods, arguments, the approval endpoint, another principal', async () => {
    const { client, asked } = await autoAccepting(t)
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!
    expect(sessionId).toBeTruthy()
    const waiting = resultOf(await client.callTool({ name: 'claims__approve-payout', arguments: {} }))
    expect(waiting.status).toBe('awaiting_approval')
    const id = waiting.approvalId!

    // Responses to elicitations that were never sent, under every id the server might have used.
    for (let rpcId = 0; rpcId < 8; rpcId += 1) {
      const spoof = await rawMcp(t, sessionId, { jsonrpc: '2.0', id: rpcId, result: { action: 'accept', content: { approve: true } } })
      expect(spoof.status).toBeLessThan(500)
    }
    // Notifications and requests that sound like approval.
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: id } },
      { jsonrpc: '2.0', method: 'notifications/approval', params: { approvalId: id, approved: true } },
    ]) {
      expect((await rawMcp(t, sessionId, message)).status).toBe(202)
    }
    for (const method of ['approvals/approve', 'elicitation/create']) {
      const reply = await rawMcp(t, sessionId, { jsonrpc: '2.0', id: 1000, method, params: { approvalId: id, action: 'accept', content: { approve: true } } })
      expect(reply.body).toContain('-32601')
    }
    // Arguments that claim approval, over MCP and over HTTP: the same intent, so the same
    // approval, still waiting — never a completion.
    const byArgument = resultOf(await client.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'approve-payout', input: {}, approvalId: id, approved: true } }))
    expect(byArgument.status).toBe('awaiting_approval')
    expect(byArgument.approvalId).toBe(id)
    const overHttp = await api<{ result: ActionResult }>(t.hub, '/api/actions', { token: t.agentToken, body: { surface: 'claims', action: 'approve-payout', input: {}, approvalId: id, approved: true, approver: 'admin' } })
    expect(overHttp.json.result.status).toBe('awaiting_approval')
    // The agent on the approval endpoint, and another principal on the agent's session.
    expect((await api(t.hub, `/api/approvals/${id}/approve`, { token: t.agentToken, body: {} })).status).toBe(403)
    const { token: approverToken } = await t.hub.tokens.store.create({ role: 'approver', principal: 'eve' })
    const hijack = await rawMcp(t, sessionId, { jsonrpc: '2.0', id: 7, result: { action: 'accept', content: { approve: true } } }, approverToken)
    expect(hijack.status).toBe(403)

    expect(asked).toEqual([])
    expect(await approvalOf(t, id)).toMatchObject({ status: 'pending' })
    const { json } = await api<{ approvals: Approval[] }>(t.hub, '/api/approvals?status=pending', { token: t.adminToken })
    expect(json.approvals.every((a) => a.resolvedBy === undefined)).toBe(true)
    // The session still works, and the claim is still unpaid.
    const frame = JSON.parse(((await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims', format: 'json' } })).content as Array<{ text: string }>)[0]!.text) as { state: { claim: { status: string } } }
    expect(frame.state.claim.status).toBe('ready')
    await client.close()
  })
})

describe('approval by elicitation, when the operator turns it on', () => {
  let t: TestHub

  beforeAll(async () => {
    t = await startTestHub({ approvals: { elicitation: true } })
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
  })

  it("the user's accept approves as a distinct principal, and the payout completes", async () => {
    const { client, asked } = await autoAccepting(t)
    await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1001' } })
    const done = resultOf(await client.callTool({ name: 'claims__approve-payout', arguments: {} }))
    expect(asked).toHaveLength(1)
    expect(asked[0]).toContain('Approve "approve-payout" on claims?')
    expect(done.status).toBe('completed')
    expect(done.diff).toContainEqual({ op: 'replace', path: '/claim/status', value: 'approved' })
    const { json } = await api<{ approvals: Approval[] }>(t.hub, '/api/approvals?status=consumed', { token: t.adminToken })
    expect(json.approvals).toContainEqual(expect.objectContaining({ action: 'approve-payout', requester: 'agent', resolvedBy: 'agent@mcp-user' }))
    // Back to the list, where export-claims (external: it needs an approval too) lives.
    expect(resultOf(await client.callTool({ name: 'claims__close-claim', arguments: {} })).status).toBe('completed')
    expect(asked).toHaveLength(1)
    await client.close()
  })

  it('a decline leaves the approval pending for a human', async () => {
    const { client, asked } = await autoAccepting(t, () => ({ action: 'decline' }))
    const waiting = resultOf(await client.callTool({ name: 'claims__export-claims', arguments: { format: 'csv' } }))
    expect(asked).toHaveLength(1)
    expect(waiting.status).toBe('awaiting_approval')
    expect(await approvalOf(t, waiting.approvalId!)).toMatchObject({ status: 'pending' })
    await client.close()
  })

  it('an accept that says approve=false denies it', async () => {
    const { client, asked } = await autoAccepting(t, () => ({ action: 'accept', content: { approve: false } }))
    const denied = resultOf(await client.callTool({ name: 'claims__export-claims', arguments: { format: 'json' } }))
    expect(asked).toHaveLength(1)
    expect(denied.status).toBe('denied')
    expect(await approvalOf(t, denied.approvalId!)).toMatchObject({ status: 'denied', resolvedBy: 'agent@mcp-user' })
    await client.close()
  })

  it('an answer that does not match the question (approve as a string) approves nothing', async () => {
    const { client, asked } = await autoAccepting(t, () => ({ action: 'accept', content: { approve: 'yes' } }))
    const waiting = resultOf(await client.callTool({ name: 'claims__export-claims', arguments: { format: 'csv' } }))
    expect(asked).toHaveLength(1)
    expect(waiting.status).toBe('awaiting_approval')
    expect(await approvalOf(t, waiting.approvalId!)).toMatchObject({ status: 'pending' })
    await client.close()
  })

  it('a client without the elicitation capability is not asked: its action waits', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const waiting = resultOf(await client.callTool({ name: 'claims__export-claims', arguments: { format: 'csv' } }))
    expect(waiting.status).toBe('awaiting_approval')
    await client.close()
  })

  it('a client that holds no GET stream is still asked, on the tool call\'s own response stream', async () => {
    const headers = { authorization: `Bearer ${t.agentToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const init = await fetch(t.hub.mcpUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'no-get-stream', version: '0' } } }),
    })
    const session = init.headers.get('mcp-session-id')!
    await init.text()
    const inSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }
    expect((await fetch(t.hub.mcpUrl, { method: 'POST', headers: inSession, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status).toBe(202)

    const call = await fetch(t.hub.mcpUrl, {
      method: 'POST',
      headers: inSession,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'claims__export-claims', arguments: { format: 'csv' } } }),
      signal: AbortSignal.timeout(10_000),
    })
    expect(call.headers.get('content-type')).toContain('text/event-stream')
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader()
    let buffered = ''
    const nextMessage = async (): Promise<{ id?: number | string; method?: string; result?: { structuredContent: Structured } }> => {
      for (let reads = 0; reads < 100; reads += 1) {
        const line = buffered.split('\n').find((l) => l.startsWith('data: '))
        if (line !== undefined) {
          buffered = buffered.slice(buffered.indexOf(line) + line.length)
          return JSON.parse(line.slice('data: '.length)) as never
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('the tool call stream ended without a message')
        buffered += value
      }
      throw new Error('no complete message on the tool call stream')
    }
    const question = await nextMessage()
    expect(question.method).toBe('elicitation/create')
    const answered = await fetch(t.hub.mcpUrl, { method: 'POST', headers: inSession, body: JSON.stringify({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { approve: true } } }) })
    expect(answered.status).toBe(202)
    const reply = await nextMessage()
    expect(reply.id).toBe(2)
    expect(reply.result?.structuredContent.result.status).toBe('completed')
    await reader.cancel()
    await fetch(t.hub.mcpUrl, { method: 'DELETE', headers: inSession })
  })

  it('the trace records the elicited approvals as their own principal, and verifies', async () => {
    const { json } = await api<{ sessions: Array<{ session: string }> }>(t.hub, '/api/sessions', { token: t.adminToken })
    let approvedByUser = 0
    for (const { session } of json.sessions) {
      const verify = await api<{ results: Array<{ ok: boolean }> }>(t.hub, `/api/trace/${encodeURIComponent(session)}/verify`, { token: t.adminToken })
      expect(verify.json.results.every((r) => r.ok)).toBe(true)
      const trace = await api<{ events: Array<{ type: string; actor: string }> }>(t.hub, `/api/trace/${encodeURIComponent(session)}`, { token: t.adminToken })
      approvedByUser += trace.json.events.filter((e) => e.type === 'approved' && e.actor === 'agent@mcp-user').length
    }
    expect(approvedByUser).toBe(2)
  })
})
