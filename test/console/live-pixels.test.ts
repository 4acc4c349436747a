import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../browser/fixture-site.js'
import { api, connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/lib/chromium/chromium'
const SHOTS = join(process.cwd(), 'test-results', 'console')

/**
 * Tiles with pixels of their own: a web page through the hub's screencast, a desktop app
 * through noVNC over the hub's bridge to its view-only VNC server. Opened from the console's
 * launcher, as a person.
 */
describe('the console shows web pages and desktop apps live', () => {
  let t: TestHub
  let site: FixtureSite
  let browser: Browser
  let page: Page
  let agent: Client

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    site = await startFixtureSite()
    t = await startTestHub({ demo: false })
    agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    const { json } = await api<{ url: string }>(t.hub, '/api/login-links', { token: t.adminToken, body: {} })
    await page.goto(json.url)
    await page.getByRole('main', { name: 'Map' }).waitFor()
  }, 60_000)
  afterAll(async () => {
    await agent?.close()
    await browser?.close()
    await t?.stop()
    await site?.close()
    if (t !== undefined) removeDir(t.dataDir)
  })

  async function launch(kind: string, fields: Record<string, string>): Promise<string> {
    const before = new Set((await api<{ tiles: Array<{ id: string }> }>(t.hub, '/api/tiles', { token: t.adminToken })).json.tiles.map((tile) => tile.id))
    const launcher = page.getByRole('form', { name: 'Launcher' })
    await launcher.getByLabel('Open', { exact: true }).selectOption(`kind:${kind}`)
    for (const [name, value] of Object.entries(fields)) {
      const field = launcher.getByLabel(name, { exact: true })
      // A field with known values (the desktop's apps) is a choice, the rest are typed.
      if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value)
      else await field.fill(value)
    }
    await launcher.getByRole('button', { name: 'Open' }).click()
    let id: string | undefined
    await expect
      .poll(async () => {
        id = (await api<{ tiles: Array<{ id: string; kind: string }> }>(t.hub, '/api/tiles', { token: t.adminToken })).json.tiles.find((tile) => tile.kind === kind && !before.has(tile.id))?.id
        return id
      }, { timeout: 30_000 })
      .toBeDefined()
    await page.getByRole('main', { name: 'Map' }).focus()
    await page.keyboard.press('0')
    return id as string
  }

  it('offers new tiles only of kinds that need no configuration; a file root or an app comes from a preset', async () => {
    const choices = await page.getByRole('form', { name: 'Launcher' }).getByLabel('Open', { exact: true }).locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
    expect(choices).toEqual(expect.arrayContaining(['kind:terminal', 'kind:browser', 'kind:desktop']))
    expect(choices).not.toContain('kind:files')
    expect(choices).not.toContain('kind:app')
  })

  it('plays a web page opened from the launcher through the screencast', async () => {
    const id = await launch('browser', { url: `${site.origin}/login` })
    const image = page.locator(`[data-tile="${id}"] img.screencast`)
    await image.waitFor()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(100)
    await page.screenshot({ path: join(SHOTS, 'browser-tile.png') })
  })

  it("outlines the element an agent's action targets on its tile while the action runs", async () => {
    const opened = await agent.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'browser', config: { url: `${site.origin}/slow` } } } })
    const id = /"tile":"([^"]+)"/.exec(JSON.stringify(opened.structuredContent))?.[1]
    if (id === undefined) throw new Error(`no tile opened: ${JSON.stringify(opened)}`)
    await page.getByRole('main', { name: 'Map' }).focus()
    await page.keyboard.press('0')
    await page.locator(`[data-tile="${id}"] img.screencast`).waitFor()
    // The click waits for the request it starts (1.5 s): long enough to see the outline.
    const click = agent.callTool({ name: 'browser_click', arguments: { target: '#sync', tile: id } })
    const outline = page.locator(`[data-tile="${id}"] .running-outline`)
    await outline.waitFor({ timeout: 5_000 })
    expect(await outline.getAttribute('aria-label')).toMatch(/^agent runs click on /)
    const box = await outline.boundingBox()
    expect(box?.width ?? 0).toBeGreaterThan(5)
    await click
    await expect.poll(() => outline.count(), { timeout: 5_000 }).toBe(0)
  })

  it('plays a desktop app through noVNC, view-only: the live canvas shows the app', async () => {
    const id = await launch('desktop', { app: 'gnome-calculator' })
    const tile = page.locator(`[data-tile="${id}"] .desktop-tile`)
    await expect.poll(() => tile.getAttribute('data-status'), { timeout: 30_000 }).toBe('live')
    const canvas = tile.locator('canvas')
    await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0, { timeout: 10_000 }).toBeGreaterThan(50)
    // Pixels arrived: the canvas is not one flat colour.
    await expect
      .poll(
        () =>
          canvas.evaluate((element: HTMLCanvasElement) => {
            const context = element.getContext('2d')
            if (context === null) return 0
            const data = context.getImageData(0, 0, element.width, element.height).data
            const colours = new Set<number>()
            for (let i = 0; i < data.length; i += 4 * 97) colours.add(((data[i] ?? 0) << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0))
            return colours.size
          }),
        { timeout: 15_000 },
      )
      .toBeGreaterThan(3)
    await page.screenshot({ path: join(SHOTS, 'desktop-tile.png') })
    await agent.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'close', input: { tile: id } } })
    await expect.poll(() => page.locator(`[data-tile="${id}"]`).count(), { timeout: 15_000 }).toBe(0)
  })
})
