import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js'
import type { ActionResult, Approval } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, connectHttpClient, removeDir, resultText, startTestHub, type TestHub } from '../support/hub.js'

type Structured = { result: ActionResult }

/** The agent's log messages, as its client hears them. */
function listen(client: Client): Array<{ level: string; data: unknown }> {
  const heard: Array<{ level: string; data: unknown }> = []
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    heard.push({ level: notification.params.level, data: notification.params.data })
  })
  return heard
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const found = await probe()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('agents hear back: wait_ms, progress and a log message when a person decides', () => {
  let t: TestHub

  beforeAll(async () => {
    // The hub's own default wait, shortened: a call without wait_ms waits this long.
    t = await startTestHub({ approvals: { waitMs: 400 } })
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
  })

  async function pendingFor(requestId: string): Promise<Approval | undefined> {
    const { json } = await api<{ approvals: Approval[] }>(t.hub, '/api/approvals?status=pending', { token: t.adminToken })
    return json.approvals.find((approval) => approval.requestId === requestId) ?? json.approvals[0]
  }

  it('keeps the call open while a person approves from another client, with progress, and answers with the final result', async () => {
    const agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const heard = listen(agent)
    await agent.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1001' } })
    const progress: Progress[] = []
    const started = Date.now()
    const call = agent.callTool({ name: 'claims__approve-payout', arguments: { wait_ms: 30_000 } }, undefined, {
      onprogress: (p) => progress.push(p),
      resetTimeoutOnProgress: true,
    })
    // A person, on another client (the HTTP API, as the console and the CLI use it), reads the
    // pending approval while the agent's call is still open, and approves it.
    const approval = await until(async () => {
      const { json } = await api<{ approvals: Approval[] }>(t.hub, '/api/approvals?status=pending', { token: t.adminToken })
      return json.approvals.find((a) => a.action === 'approve-payout')
    }, 'the pending approval')
    expect(approval.summary).toBe('Approve payout of €1,250 to Ada Brennan for claim c-1001')
    await until(async () => (progress.length > 0 ? true : undefined), 'a progress notification')
    expect(progress[0]?.message).toContain(`approval ${approval.id}`)
    const human = await api<{ result: ActionResult }>(t.hub, `/api/approvals/${approval.id}/approve`, { token: t.adminToken, body: {} })
    expect(human.status).toBe(200)

    const answer = await call
    const result = (answer.structuredContent as Structured).result
    expect(result.status).toBe('completed')
    expect(result.requestId).toBe(approval.requestId)
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(resultText(answer)).toMatch(/^completed: claims\/approve-payout/)

    const message = await until(async () => heard.find((h) => (h.data as { approvalId?: string }).approvalId === approval.id), 'the log message')
    expect(message.level).toBe('info')
    expect(message.data).toMatchObject({ status: 'consumed', resultStatus: 'completed' })
    expect((message.data as { message: string }).message).toContain(`approval ${approval.id} approved by admin; claims/approve-payout ended completed`)
    await agent.close()
  })

  it('answers awaiting_approval once the wait is up, returns the same approval to a retry, and sends the outcome when a person denies', async () => {
    const agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const heard = listen(agent)
    // Back to the list (the first test left a claim open), then another claim.
    expect((await agent.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'close-claim' } })).isError).toBeFalsy()
    expect((await agent.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1003' } })).isError).toBeFalsy()
    const started = Date.now()
    // No wait_ms: the hub's default (400 ms here).
    const first = (await agent.callTool({ name: 'claims__approve-payout', arguments: {} })).structuredContent as Structured
    expect(first.result.status).toBe('awaiting_approval')
    expect(Date.now() - started).toBeGreaterThanOrEqual(380)

    // An identical retry does not open a second approval.
    const retried = await agent.callTool({ name: 'claims__approve-payout', arguments: { wait_ms: 0 } })
    expect((retried.structuredContent as Structured).result).toMatchObject({ status: 'awaiting_approval', approvalId: first.result.approvalId })
    const { json } = await api<{ approvals: Approval[] }>(t.hub, '/api/approvals?status=pending', { token: t.adminToken })
    expect(json.approvals.filter((a) => a.action === 'approve-payout')).toHaveLength(1)
    expect(await pendingFor(first.result.requestId)).toMatchObject({ id: first.result.approvalId })

    const denied = await api(t.hub, `/api/approvals/${first.result.approvalId}/deny`, { token: t.adminToken, body: { note: 'amount looks wrong' } })
    expect(denied.status).toBe(200)
    const message = await until(async () => heard.find((h) => (h.data as { approvalId?: string }).approvalId === first.result.approvalId), 'the log message')
    expect(message.level).toBe('warning')
    expect((message.data as { message: string }).message).toBe(`approval ${first.result.approvalId} denied by admin; claims/approve-payout did not run (amount looks wrong)`)
    await agent.close()
  })

  it('refuses a wait_ms that is not a bounded integer, with a typed error, and keeps serving', async () => {
    const agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    for (const wait of [-1, 1.5, '5000', 600_001, null]) {
      const answer = await agent.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' }, wait_ms: wait } })
      expect(answer.isError).toBe(true)
      expect(resultText(answer)).toContain('error [invalid_request]: expected "wait_ms" to be an integer from 0 to 600000 (milliseconds), found')
    }
    const fine = await agent.callTool({ name: 'surfaces_list', arguments: { wait_ms: 0 } })
    expect(fine.isError).toBeFalsy()
    expect(resultText(fine)).toContain('claims')
    await agent.close()
  })
})
