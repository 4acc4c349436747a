import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/lib/chromium/chromium'

/**
 * The console and the browser's own APIs: Chromium's native WebMCP (no polyfill), and a
 * notification when an approval arrives while the tab is in the background.
 */
describe('the console with the browser’s native WebMCP and notifications', () => {
  let t: TestHub
  let browser: Browser
  let agent: Client

  beforeAll(async () => {
    t = await startTestHub()
    agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--enable-features=WebMCP'] })
  })
  afterAll(async () => {
    await agent?.close()
    await browser?.close()
    await t?.stop()
    if (t !== undefined) removeDir(t.dataDir)
  })

  async function open(init?: () => void): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
    if (init !== undefined) await context.addInitScript(init)
    const page = await context.newPage()
    await page.goto(`${t.hub.url}/#code=${t.hub.logins.issue({ id: 'admin', roles: ['admin', 'approver'] })}`)
    await page.getByRole('main', { name: 'Map' }).waitFor()
    return page
  }

  it("registers the hub's tools with Chromium's own document.modelContext, and they run as the person", async () => {
    const page = await open()
    // Chromium's WebMCP, not a polyfill: the context is the browser's own object.
    expect(await page.evaluate(() => Object.prototype.toString.call((document as Document & { modelContext?: object }).modelContext))).toBe('[object ModelContext]')
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const context = (document as Document & { modelContext?: { getTools(): Promise<Array<{ name: string }>> } }).modelContext
            return (await context?.getTools())?.map((tool) => tool.name) ?? []
          }),
        { timeout: 15_000 },
      )
      .toEqual(expect.arrayContaining(['navigate_map', 'surfaces_list']))
    const answer = await page.evaluate(async () => {
      type Tool = { name: string }
      const context = (document as Document & { modelContext?: { getTools(): Promise<Tool[]>; executeTool(tool: Tool, args: Record<string, unknown>): Promise<unknown> } }).modelContext
      const tool = (await context?.getTools())?.find((candidate) => candidate.name === 'navigate_map')
      if (context === undefined || tool === undefined) throw new Error('no navigate_map')
      const result = await context.executeTool(tool, { x: 1, y: 2, zoom: 1 })
      return typeof result === 'string' ? result : JSON.stringify(result)
    })
    expect(JSON.parse(answer ?? 'null')).toMatchObject({ structuredContent: { x: 1, y: 2, zoom: 1 } })
    expect(t.hub.ctx.map.viewport).toEqual({ x: 1, y: 2, zoom: 1 })
    const navigations: string[] = []
    for (const { session } of await t.hub.ctx.store.sessions()) {
      for await (const event of t.hub.ctx.store.read(session)) if (event.action === 'navigate' && event.type === 'completed') navigations.push(event.actor)
    }
    expect(navigations).toEqual(['admin'])
    await page.context().close()
  })

  it('raises a browser notification for an approval that arrives while the tab is in the background', async () => {
    // The tab is hidden and notifications are allowed: the browser's state, set before the page loads.
    const page = await open(() => {
      const notified: Array<{ title: string; body: string }> = []
      Object.assign(window, { __notified: notified })
      Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' })
      class RecordedNotification {
        static permission = 'granted'
        static requestPermission = async (): Promise<string> => 'granted'
        constructor(title: string, options: { body?: string } = {}) {
          notified.push({ title, body: options.body ?? '' })
        }
      }
      Object.defineProperty(window, 'Notification', { value: RecordedNotification })
    })
    await agent.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1003' } })
    await agent.callTool({ name: 'claims__approve-payout', arguments: { wait_ms: 0 } })
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __notified: Array<{ title: string; body: string }> }).__notified), { timeout: 10_000 })
      .toEqual([{ title: 'Tessera: an action waits for you', body: 'Approve payout of €560 to Mei Tanaka for claim c-1003' }])
    await page.context().close()
  })
})
