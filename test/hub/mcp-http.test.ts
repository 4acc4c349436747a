import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { ActionResult, Approval } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { api, connectHttpClient, resultText, useTestHub } from '../support/hub.js'

type Structured = { result: ActionResult }

const text = resultText

describe('MCP over Streamable HTTP, official SDK client', () => {
  const t = useTestHub()

  it('lists generic tools and one tool per action, with annotations from risk', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    for (const generic of ['surfaces_list', 'surface_snapshot', 'action_request', 'surface_act', 'approval_status', 'trace_tail']) expect(names).toContain(generic)
    const exportTool = tools.find((tool) => tool.name === 'claims__export-claims')
    // MCP's defaults (not read-only, open world) left unsaid.
    expect(exportTool?.annotations).toEqual({ title: 'Export claims', destructiveHint: false })
    expect(exportTool?.inputSchema).toMatchObject({ type: 'object', required: ['format'] })
    expect(tools.find((tool) => tool.name === 'claims__open-claim')?.annotations).toMatchObject({ readOnlyHint: true })
    await client.close()
  })

  it('runs the claims-review flow: snapshot → approve-payout waits → a human approves over HTTP → completed and verified', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    let listChanged = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1
    })
    const snapshot = await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims' } })
    expect(text(snapshot)).toContain('[open-claim read input]')
    const opened = await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1001' } })
    expect(opened.isError).toBe(false)
    expect(text(opened)).toContain('completed')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(listChanged).toBeGreaterThan(0)

    const detail = await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims' } })
    expect(text(detail)).toContain('approve-payout')
    expect(text(detail)).not.toContain('DE89370400440532013000')

    const pending = await client.callTool({ name: 'claims__approve-payout', arguments: {} })
    const waiting = (pending.structuredContent as Structured).result
    expect(waiting.status).toBe('awaiting_approval')
    expect(text(pending)).toContain(waiting.approvalId!)

    // The agent cannot approve: not by argument, not through the approval endpoint.
    const forged = await client.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'approve-payout', input: { approved: true } } })
    expect((forged.structuredContent as Structured).result.status).not.toBe('completed')
    const byAgent = await api(t.hub, `/api/approvals/${waiting.approvalId}/approve`, { token: t.agentToken, body: {} })
    expect(byAgent.status).toBe(403)
    expect(byAgent.json).toMatchObject({ error: { code: 'forbidden' } })

    const human = await api<{ approval: Approval; result: ActionResult }>(t.hub, `/api/approvals/${waiting.approvalId}/approve`, { token: t.adminToken, body: { note: 'checked the receipts' } })
    expect(human.status).toBe(200)
    expect(human.json.result.status).toBe('completed')
    expect(human.json.result.diff).toContainEqual({ op: 'replace', path: '/claim/status', value: 'approved' })

    const status = await client.callTool({ name: 'approval_status', arguments: { approvalId: waiting.approvalId } })
    expect(text(status)).toContain('consumed by admin; the action ended completed')
    // What the action did, as its own call would have said: no snapshot needed to learn it.
    expect(text(status)).toMatch(/^--- page [0-9a-f]{6} \(untrusted\) ---\n[^]*^~ group "Status": "Approved" \(changed: text\)$[^]*^--- end /m)

    const verify = await api<{ results: Array<{ ok: boolean; count: number }> }>(t.hub, `/api/trace/${encodeURIComponent(waiting.session)}/verify`, { token: t.adminToken })
    expect(verify.json.results[0]).toMatchObject({ ok: true })
    const tail = await client.callTool({ name: 'trace_tail', arguments: { limit: 50 } })
    expect(text(tail)).toMatch(/approved admin claims\/approve-payout/)
    expect(text(tail)).toMatch(/completed agent claims\/approve-payout/)
    await client.close()
  })

  it('reads frames and traces as resources', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toContain('tessera://surfaces/claims/frame')
    const frame = await client.readResource({ uri: 'tessera://surfaces/claims/frame' })
    const parsed = JSON.parse((frame.contents[0] as { text: string }).text) as { protocol: string; version: number }
    expect(parsed.protocol).toBe('tessera.agent-native/2')
    expect(parsed.version).toBeGreaterThan(0)
    const outline = await client.readResource({ uri: 'tessera://surfaces/claims/outline' })
    expect((outline.contents[0] as { text: string }).text).toContain('claims')
    // What MCP says a server answers: -32002 for a resource that does not exist, -32602 for a URI that cannot name one.
    const codeOf = (uri: string) => client.readResource({ uri }).then(() => 'read', (error: { code?: number }) => error.code)
    expect(await codeOf('tessera://surfaces/nope/frame')).toBe(-32002)
    expect(await codeOf('tessera://sessions/no-such-session/trace')).toBe(-32002)
    expect(await codeOf('tessera://surfaces/%E0%A4%A/frame')).toBe(-32602)
    expect(await codeOf('file:///etc/passwd')).toBe(-32602)
    expect(await codeOf('tessera://surfaces/claims/../../etc')).toBe(-32602)
    expect(await codeOf('tessera://surfaces/claims/frame')).toBe('read')
    await client.close()
  })

  it('surface_act clicks a node by ref and runs the action the node carries', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const snapshot = text(await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims' } }))
    const line = snapshot.split('\n').find((l) => l.includes('[close-claim') || l.includes('[open-claim'))
    const ref = /@(\w+)/.exec(line ?? '')?.[1]
    expect(ref).toBeDefined()
    const acted = await client.callTool({ name: 'surface_act', arguments: { surface: 'claims', ref, op: 'click', input: { claimId: 'c-1003' } } })
    expect((acted.structuredContent as Structured).result.status).toBe('completed')
    const typed = await client.callTool({ name: 'surface_act', arguments: { surface: 'claims', ref, op: 'type', text: 'hello' } })
    expect(typed.isError).toBe(true)
    expect(text(typed)).toContain('[not_found]')
    await client.close()
  })

  it('a viewer token can read but not act', async () => {
    const { token } = await t.hub.tokens.store.create({ role: 'viewer', principal: 'watcher' })
    const client = await connectHttpClient(t.hub.mcpUrl, token)
    expect((await client.listTools()).tools.length).toBeGreaterThan(6)
    const acted = await client.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'close-claim' } })
    expect(acted.isError).toBe(true)
    expect(text(acted)).toContain('[forbidden]')
    await client.close()
  })
})
