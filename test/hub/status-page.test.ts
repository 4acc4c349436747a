import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { ActionResult } from '@tessera/protocol'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/lib/chromium/chromium'

type Structured = { result: ActionResult }

describe("the hub's page in a real browser: approvals a person can read and decide", () => {
  let t: TestHub
  let browser: Browser
  let agent: Client

  beforeAll(async () => {
    t = await startTestHub()
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
    agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await agent?.close()
    await browser?.close()
    await t.stop()
    removeDir(t.dataDir)
  })

  async function signIn(): Promise<import('playwright-core').Page> {
    const { json } = await api<{ url: string }>(t.hub, '/api/login-links', { token: t.adminToken, body: {} })
    const page = await browser.newPage()
    await page.goto(json.url)
    await page.getByText('Signed in as').waitFor()
    return page
  }

  it('shows what each pending approval would do; Approve runs it, and a new request appears without a reload and can be denied', async () => {
    await agent.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1001' } })
    const pending = (await agent.callTool({ name: 'claims__approve-payout', arguments: { wait_ms: 0 } })).structuredContent as Structured
    expect(pending.result.status).toBe('awaiting_approval')

    const page = await signIn()
    const item = page.locator(`li[data-approval="${pending.result.approvalId}"]`)
    await expect.poll(() => item.textContent()).toContain('Approve payout of €1,250 to Ada Brennan for claim c-1001')
    const text = (await item.textContent()) ?? ''
    expect(text).toContain('claims/approve-payout · risk write · asked by agent')
    expect(text).toMatch(/held: .*claim\.fraudScore = 0\.12/)

    await item.getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => page.locator('#said').textContent()).toBe(`Approved ${pending.result.approvalId}: the action ended completed.`)
    await expect.poll(() => item.count()).toBe(0)
    const approval = (await agent.callTool({ name: 'approval_status', arguments: { approvalId: pending.result.approvalId } })).structuredContent as { approval: { status: string; resolvedBy: string; note: string } }
    expect(approval.approval).toMatchObject({ status: 'consumed', resolvedBy: 'admin', note: 'approved on the hub page' })

    // A request made while the page is open shows up on its own.
    await agent.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'close-claim' } })
    await agent.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1003' } })
    const second = (await agent.callTool({ name: 'claims__approve-payout', arguments: { wait_ms: 0 } })).structuredContent as Structured
    const next = page.locator(`li[data-approval="${second.result.approvalId}"]`)
    await next.waitFor({ timeout: 10_000 })
    expect(await next.textContent()).toContain('Approve payout of €560 to Mei Tanaka for claim c-1003')
    await next.getByRole('button', { name: 'Deny' }).click()
    await expect.poll(() => page.locator('#said').textContent()).toBe(`Denied ${second.result.approvalId}.`)
    const denied = (await agent.callTool({ name: 'approval_status', arguments: { approvalId: second.result.approvalId } })).structuredContent as { approval: { status: string } }
    expect(denied.approval.status).toBe('denied')
    await page.close()
  })

  it('offers no buttons to a viewer, and the markup an agent wrote stays text', async () => {
    // A destructive command waits for a person; its summary quotes what the agent wrote.
    const hostile = `rm -rf './<img src=x onerror="document.title=1">'`
    const answer = await agent.callTool({ name: 'terminal_execute', arguments: { command: hostile, wait_ms: 0 } })
    const pending = { result: (answer._meta as { 'tessera/result': ActionResult })['tessera/result'] }
    expect(pending.result.status).toBe('awaiting_approval')
    const { token } = await t.hub.tokens.store.create({ role: 'viewer', principal: 'watcher' })
    const page = await browser.newPage({ extraHTTPHeaders: { authorization: `Bearer ${token}` } })
    await page.goto(t.hub.url)
    const item = page.locator(`li[data-approval="${pending.result.approvalId}"]`)
    await item.waitFor()
    expect(await item.getByRole('button').count()).toBe(0)
    expect(await item.textContent()).toContain(`tessera approvals approve ${pending.result.approvalId}`)
    expect(await item.textContent()).toContain(hostile)
    expect(await page.title()).toBe('Tessera hub')
    await page.close()
  })
})
