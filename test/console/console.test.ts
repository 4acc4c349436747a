import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { ActionResult, Approval, Principal, TraceEvent } from '@tessera/protocol'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/lib/chromium/chromium'
const SHOTS = join(process.cwd(), 'test-results', 'console')
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

type Structured = { result: ActionResult }

/** The map's transform as xyflow applies it: translate(x, y) scale(zoom). */
async function viewport(page: Page): Promise<{ x: number; y: number; zoom: number }> {
  const transform = await page.locator('.react-flow__viewport').evaluate((element) => getComputedStyle(element).transform)
  const matrix = /matrix\(([^)]+)\)/.exec(transform)?.[1]?.split(',').map(Number) ?? [1, 0, 0, 1, 0, 0]
  return { zoom: matrix[0] ?? 1, x: matrix[4] ?? 0, y: matrix[5] ?? 0 }
}

/**
 * An element's box once it stops moving. Fitting the view animates the map, and on a busy machine the animation
 * can still run when a test reads where to press; a press read mid-animation lands beside its target.
 */
async function restingBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = await locator.boundingBox()
  for (let tries = 0; tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const box = await locator.boundingBox()
    if (box !== null && last !== null && JSON.stringify(box) === JSON.stringify(last)) return box
    last = box
  }
  throw new Error(`the element kept moving for 5 s; last box ${JSON.stringify(last)}`)
}

describe('the console in a real browser: the map where people watch, approve and replay', () => {
  let t: TestHub
  let browser: Browser
  let agent: Client
  let page: Page
  const pageErrors: string[] = []

  async function signIn(principal?: Principal): Promise<Page> {
    const url = principal === undefined ? (await api<{ url: string }>(t.hub, '/api/login-links', { token: t.adminToken, body: {} })).json.url : `${t.hub.url}/#code=${t.hub.logins.issue(principal)}`
    const opened = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    opened.on('pageerror', (error) => pageErrors.push(error.message))
    await opened.goto(url)
    await opened.getByRole('main', { name: 'Map' }).waitFor()
    return opened
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    t = await startTestHub()
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
    agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    page = await signIn()
  })
  afterAll(async () => {
    expect(pageErrors).toEqual([])
    await agent?.close()
    await browser?.close()
    await t?.stop()
    if (t !== undefined) removeDir(t.dataDir)
  })

  it('signs in with the one-time link (which then no longer works), shows the demo tiles and passes axe', async () => {
    for (const id of ['claims', 'files', 'term-1']) await page.locator(`[data-tile="${id}"]`).waitFor()
    await expect.poll(() => page.locator('[data-tile="claims"] [data-node-id]').count()).toBeGreaterThan(5)
    await expect.poll(() => page.locator('[data-tile="files"]').textContent()).toContain('README.md')
    expect(new URL(page.url()).hash).toBe('')
    for (const [role, name] of [['main', 'Map'], ['region', 'Approvals'], ['region', 'Trace'], ['region', 'Replay']] as const) {
      expect(await page.getByRole(role, { name }).count()).toBe(1)
    }
    await page.screenshot({ path: join(SHOTS, 'map.png') })

    // Evaluated, not added as a script tag: the console's CSP allows no inline script.
    await page.evaluate(AXE)
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe
      const report = await axe.run(document, { resultTypes: ['violations'] })
      return report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)
    })
    expect(violations).toEqual([])

    // A used login link is spent: a second browser that follows it is told so.
    const reused = await browser.newPage()
    const links = await api<{ url: string }>(t.hub, '/api/login-links', { token: t.adminToken, body: {} })
    await fetch(`${t.hub.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: new URL(links.json.url).hash.slice('#code='.length) }) })
    await reused.goto(links.json.url)
    await expect.poll(() => reused.getByRole('alert').textContent()).toContain('unknown, used or expired')
    await reused.close()
  })

  it("shows an agent's approval the moment it waits; the person approves it there and the agent's call completes", async () => {
    await agent.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1001' } })
    // The agent's call stays open while the person decides.
    const call = agent.callTool({ name: 'claims__approve-payout', arguments: { wait_ms: 60_000 } }, undefined, { timeout: 90_000 })
    const card = page.getByRole('region', { name: 'Approvals' }).getByRole('listitem').filter({ hasText: 'Approve payout of €1,250 to Ada Brennan for claim c-1001' })
    await card.waitFor({ timeout: 15_000 })
    const text = (await card.textContent()) ?? ''
    expect(text).toContain('claims/approve-payout')
    expect(text).toContain('claim.fraudScore = 0.12')
    // The frame the agent asked on is drawn beside it.
    await card.getByRole('figure', { name: 'The frame agent asked on' }).waitFor()
    await card.screenshot({ path: join(SHOTS, 'approval.png') })

    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    const answer = (await call).structuredContent as Record<string, unknown>
    expect(JSON.stringify(answer)).not.toContain('awaiting_approval')
    await expect.poll(() => card.count()).toBe(0)

    const approvals = (await api<{ approvals: Approval[] }>(t.hub, '/api/approvals', { token: t.adminToken })).json.approvals
    const decided = approvals.find((a) => a.action === 'approve-payout')
    expect(decided).toMatchObject({ status: 'consumed', resolvedBy: 'admin', note: 'approved in the console' })
    expect(decided?.result?.status).toBe('completed')

    // The trace shows it, with the chain verified.
    const trace = page.getByRole('region', { name: 'Trace' })
    await trace.getByLabel('Session').selectOption(decided?.session ?? '')
    await expect.poll(() => trace.getByRole('status', { name: 'Chain verification' }).textContent()).toMatch(/^chain verified/)
    await trace.locator('li[data-type="completed"]').filter({ hasText: 'claims/approve-payout' }).first().waitFor()
    await trace.getByRole('button', { name: 'Verify again' }).click()
    await expect.poll(() => trace.getByRole('status', { name: 'Chain verification' }).textContent()).toMatch(/^chain verified/)

    // The replay viewer steps through the same session, frames before and after, and the diff.
    const replay = page.getByRole('region', { name: 'Replay' })
    await replay.getByLabel('Session').selectOption(decided?.session ?? '')
    await replay.getByRole('status').filter({ hasText: /^Step 1 of \d+$/ }).waitFor()
    const steps = Number(/of (\d+)/.exec((await replay.getByRole('status').filter({ hasText: /^Step/ }).textContent()) ?? '')?.[1])
    expect(steps).toBeGreaterThanOrEqual(2)
    let found = false
    for (let i = 0; i < steps; i++) {
      const step = replay.getByRole('article')
      if (((await step.getAttribute('aria-label')) ?? '').startsWith('claims/approve-payout')) {
        found = true
        expect(await step.getByRole('figure', { name: 'Frame before' }).count()).toBe(1)
        expect(await step.getByRole('figure', { name: 'Frame after' }).count()).toBe(1)
        expect(await step.getByRole('list', { name: 'Diff' }).textContent()).toContain('approved')
        await replay.screenshot({ path: join(SHOTS, 'replay.png') })
        break
      }
      await replay.getByRole('button', { name: 'Next' }).click()
    }
    expect(found).toBe(true)
  })

  it('filters the trace by surface, actor and status, and opens an event to its data', async () => {
    const trace = page.getByRole('region', { name: 'Trace' })
    const items = trace.getByRole('list', { name: 'Events' }).getByRole('listitem')
    await expect.poll(() => items.count()).toBeGreaterThan(3)
    await trace.getByLabel('Status').selectOption('completed')
    await expect.poll(async () => new Set(await items.evaluateAll((li) => li.map((el) => el.getAttribute('data-type')))).size).toBe(1)
    expect(await items.first().getAttribute('data-type')).toBe('completed')
    await trace.getByLabel('Actor').selectOption('agent')
    await trace.getByLabel('Surface').selectOption('claims')
    const first = items.first()
    await first.locator('summary').click()
    const data = (await first.locator('pre').textContent()) ?? ''
    expect(data).toContain('"status"')
    for (const label of ['Status', 'Actor', 'Surface']) await trace.getByLabel(label).selectOption('')
  })

  it('pans and zooms with the keyboard, and follows navigate_map when an agent moves the shared view', async () => {
    const map = page.getByRole('main', { name: 'Map' })
    await map.focus()
    const before = await viewport(page)
    await page.keyboard.press('ArrowRight')
    await expect.poll(async () => (await viewport(page)).x).toBeLessThan(before.x - 50)
    await page.keyboard.press('+')
    await expect.poll(async () => (await viewport(page)).zoom).toBeGreaterThan(before.zoom * 1.05)

    // The terminal tile's centre, at zoom 1: the person sees the view move there.
    const tiles = (await api<{ tiles: Array<{ id: string; x: number; y: number; width: number; height: number }> }>(t.hub, '/api/tiles', { token: t.adminToken })).json.tiles
    const term = tiles.find((tile) => tile.id === 'term-1')
    if (term === undefined) throw new Error('no term-1 tile')
    const target = { x: term.x + term.width / 2, y: term.y + term.height / 2, zoom: 1 }
    const moved = (await agent.callTool({ name: 'navigate_map', arguments: target })).structuredContent as Record<string, unknown>
    expect(moved).toMatchObject(target)
    const box = await map.boundingBox()
    if (box === null) throw new Error('the map has no box')
    await expect
      .poll(async () => {
        const v = await viewport(page)
        // The map point at the centre of the pane, from the transform.
        return [Math.round((box.width / 2 - v.x) / v.zoom), Math.round((box.height / 2 - v.y) / v.zoom), Math.round(v.zoom * 100)]
      }, { timeout: 5_000 })
      .toEqual([Math.round(target.x), Math.round(target.y), 100])

    // Refused with a typed error, and the view stays where it is.
    const wild = await agent.callTool({ name: 'navigate_map', arguments: { x: 1e308, y: 0 } })
    expect(JSON.stringify(wild)).toContain('invalid_input')
    const trace = (await api<{ events: TraceEvent[] }>(t.hub, `/api/trace/${encodeURIComponent((await api<{ sessions: Array<{ session: string; lastTime: string }> }>(t.hub, '/api/sessions', { token: t.adminToken })).json.sessions.sort((a, b) => b.lastTime.localeCompare(a.lastTime))[0]?.session ?? '')}`, { token: t.adminToken })).json.events
    expect(trace.some((event) => event.action === 'navigate' && event.type === 'completed')).toBe(true)
  })

  it("shows a command the agent ran in the terminal tile's xterm, and an admin's typing runs as that person through the gateway", async () => {
    const tile = page.locator('[data-tile="term-1"]')
    await tile.locator('.terminal-tile[data-mode="typing"]').waitFor({ timeout: 15_000 })
    await agent.callTool({ name: 'terminal_execute', arguments: { command: 'echo agent-says-$((6*7))' } })
    await expect.poll(() => tile.locator('.xterm-rows').textContent(), { timeout: 10_000 }).toContain('agent-says-42')

    await tile.locator('.xterm-host').click()
    await page.keyboard.type('echo person-typed-$((2+3))')
    await page.keyboard.press('Enter')
    await expect.poll(() => tile.locator('.xterm-rows').textContent(), { timeout: 10_000 }).toContain('person-typed-5')
    await tile.screenshot({ path: join(SHOTS, 'terminal.png') })
    const typedBy = async (): Promise<string[]> => {
      const sessions = (await api<{ sessions: Array<{ session: string }> }>(t.hub, '/api/sessions', { token: t.adminToken })).json.sessions
      const actors = new Set<string>()
      for (const { session } of sessions) {
        const events = (await api<{ events: TraceEvent[] }>(t.hub, `/api/trace/${encodeURIComponent(session)}?limit=1000`, { token: t.adminToken })).json.events
        for (const event of events) if (event.surface === 'term-1' && event.action === 'input' && event.type === 'completed') actors.add(event.actor)
      }
      return [...actors]
    }
    await expect.poll(typedBy).toEqual(['admin'])
  })

  it("turns a person's click on an app tile into the action under it, hit-tested on the agent's layout, traced as that person", async () => {
    await agent.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'close-claim' } })
    // Every tile back in view (the shared view was moved to the terminal): far tiles are thumbnails.
    await page.getByRole('main', { name: 'Map' }).focus()
    await page.keyboard.press('0')
    const row = page.locator('[data-tile="claims"] [data-node-id]').filter({ hasText: /^c-1003$/ }).first()
    await row.waitFor()
    await row.click({ timeout: 5_000 })
    await expect.poll(async () => (await api<{ frame: { state: { claim: { id: string } | null } } }>(t.hub, '/api/surfaces/claims/frame', { token: t.adminToken })).json.frame.state.claim?.id).toBe('c-1003')
    // The claim shows as soon as the app changed; the completion is traced just after.
    const lastOpenedBy = async (): Promise<string | undefined> => {
      const events = (await api<{ events: TraceEvent[] }>(t.hub, `/api/trace/${encodeURIComponent(t.hub.ctx.gateway.session)}?limit=1000`, { token: t.adminToken })).json.events
      return events.filter((event) => event.surface === 'claims' && event.action === 'open-claim' && event.type === 'completed').at(-1)?.actor
    }
    await expect.poll(lastOpenedBy).toBe('admin')
  })

  it('lets a person move and close tiles as traced map actions', async () => {
    const opened = await agent.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'terminal', x: 4000, y: 0 } } })
    const id = /"tile":"([^"]+)"/.exec(JSON.stringify(opened.structuredContent))?.[1]
    if (id === undefined) throw new Error(`no tile opened: ${JSON.stringify(opened)}`)
    const tile = page.locator(`[data-tile="${id}"]`)
    await page.getByRole('main', { name: 'Map' }).focus()
    await page.keyboard.press('0')
    await tile.waitFor()
    const bar = tile.locator('.tile-bar')
    const box = await restingBox(bar)
    await page.mouse.move(box.x + 40, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + 40, box.y + 120, { steps: 8 })
    await page.mouse.up()
    // Polled for longer than a second: on a busy machine the drag's map action can take that long to land.
    await expect.poll(async () => (await api<{ tiles: Array<{ id: string; y: number }> }>(t.hub, '/api/tiles', { token: t.adminToken })).json.tiles.find((x) => x.id === id)?.y ?? 0, { timeout: 10_000 }).toBeGreaterThan(50)
    // The keyboard moves a selected tile too: one map action once the keys rest.
    const tileX = async (): Promise<number> => (await api<{ tiles: Array<{ id: string; x: number }> }>(t.hub, '/api/tiles', { token: t.adminToken })).json.tiles.find((x) => x.id === id)?.x ?? 0
    const before = await tileX()
    await bar.click()
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight')
    await expect.poll(tileX, { timeout: 10_000 }).toBeGreaterThan(before + 20)
    // Selected, a tile can be resized from its corner: a map action too.
    await bar.click()
    const corner = tile.locator('.react-flow__resize-control.handle.bottom.right')
    await corner.waitFor()
    const handle = await restingBox(corner)
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2)
    await page.mouse.down()
    await page.mouse.move(handle.x + 80, handle.y + 60, { steps: 8 })
    await page.mouse.up()
    await expect.poll(async () => (await api<{ tiles: Array<{ id: string; width: number }> }>(t.hub, '/api/tiles', { token: t.adminToken })).json.tiles.find((x) => x.id === id)?.width ?? 0).toBeGreaterThan(1024)
    await tile.getByRole('button', { name: /^Close / }).click()
    await expect.poll(() => tile.count()).toBe(0)
    // The tile leaves the map while its close is still running: its completion is traced just after.
    const traced = async (): Promise<string[]> => {
      const events = (await api<{ events: TraceEvent[] }>(t.hub, `/api/trace/${encodeURIComponent(t.hub.ctx.gateway.session)}?limit=1000`, { token: t.adminToken })).json.events
      return ['move', 'resize', 'close'].filter((action) => events.some((event) => event.surface === 'map' && event.action === action && event.type === 'completed' && event.actor === 'admin'))
    }
    await expect.poll(traced).toEqual(['move', 'resize', 'close'])
  })

  it('lets a viewer watch but not approve or type; the hub refuses it whatever the page sends', async () => {
    await agent.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'close-claim' } })
    await agent.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1003' } })
    const pending = (await agent.callTool({ name: 'claims__approve-payout', arguments: { wait_ms: 0 } })).structuredContent as Structured
    expect(pending.result.status).toBe('awaiting_approval')
    const viewer = await signIn({ id: 'watcher', roles: ['viewer'] })
    const card = viewer.getByRole('region', { name: 'Approvals' }).locator(`li[data-approval="${pending.result.approvalId}"]`)
    await card.waitFor()
    expect(await card.getByRole('button').count()).toBe(0)
    expect(await card.textContent()).toContain('your role can only watch')
    // What an agent wrote stays text: markup is not parsed, a bidirectional override is written out.
    const hostile = `rm -rf './<img src=x onerror="document.title=1">\u202egnp.evil'`
    const risky = (await agent.callTool({ name: 'terminal_execute', arguments: { command: hostile, wait_ms: 0 } }))._meta as { 'tessera/result': ActionResult }
    expect(risky['tessera/result'].status).toBe('awaiting_approval')
    const hostileCard = viewer.getByRole('region', { name: 'Approvals' }).locator(`li[data-approval="${risky['tessera/result'].approvalId}"]`)
    await hostileCard.waitFor()
    const shown = (await hostileCard.textContent()) ?? ''
    expect(shown).toContain('<img src=x onerror=')
    expect(shown).toContain('\\u202egnp.evil')
    expect(shown).not.toContain('\u202e')
    expect(await hostileCard.locator('img').count()).toBe(0)
    expect(await viewer.title()).toBe('Tessera')
    const refused = await viewer.evaluate(async (id) => (await fetch(`/api/approvals/${id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, pending.result.approvalId)
    expect(refused).toBe(403)
    await viewer.locator('[data-tile="term-1"] .terminal-tile[data-mode="watching"]').waitFor({ timeout: 15_000 })
    expect(await viewer.getByRole('form', { name: 'Launcher' }).count()).toBe(0)
    await viewer.close()
  })

  it("offers the hub's tools to an agent in the page over WebMCP; its calls run as the signed-in person, who cannot approve them", async () => {
    // This Chromium has no native WebMCP: the @mcp-b/global polyfill supplies document.modelContext.
    const names = async (): Promise<string[]> =>
      page.evaluate(async () => {
        const context = (document as Document & { modelContext?: { getTools?: () => Promise<Array<{ name: string }>> } }).modelContext
        return context?.getTools === undefined ? [] : (await context.getTools()).map((tool) => tool.name)
      })
    await expect
      .poll(async () => {
        const offered = await names()
        return ['navigate_map', 'surfaces_list', 'action_request', 'terminal_execute'].filter((name) => !offered.includes(name))
      }, { timeout: 15_000 })
      .toEqual([])
    const run = (name: string, args: Record<string, unknown>): Promise<string> =>
      page.evaluate(
        async ({ name, args }) => {
          const testing = (navigator as Navigator & { modelContextTesting?: { executeTool(name: string, json: string): Promise<string | null> } }).modelContextTesting
          if (testing === undefined) throw new Error('no modelContextTesting')
          return (await testing.executeTool(name, JSON.stringify(args))) ?? ''
        },
        { name, args },
      )
    expect(JSON.parse(await run('navigate_map', { x: 10, y: 20, zoom: 0.5 }))).toMatchObject({ structuredContent: { x: 10, y: 20, zoom: 0.5 } })
    const sessions = (await api<{ sessions: Array<{ session: string; lastTime: string }> }>(t.hub, '/api/sessions', { token: t.adminToken })).json.sessions
    const latest = [...sessions].sort((a, b) => b.lastTime.localeCompare(a.lastTime))[0]?.session ?? ''
    const events = (await api<{ events: TraceEvent[] }>(t.hub, `/api/trace/${encodeURIComponent(latest)}`, { token: t.adminToken })).json.events
    expect(events.filter((event) => event.action === 'navigate' && event.type === 'completed').at(-1)?.actor).toBe('admin')

    // A risky request from the page's agent waits for a person, and that person is not the one who asked.
    const asked = await run('terminal_execute', { command: 'rm -rf /tmp/tessera-webmcp-probe', wait_ms: 0 })
    expect(asked).toContain('awaiting_approval')
    const card = page.getByRole('region', { name: 'Approvals' }).getByRole('listitem').filter({ hasText: 'rm -rf /tmp/tessera-webmcp-probe' })
    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => page.getByRole('status', { name: 'Notices' }).textContent()).toContain('cannot approve it: an approval needs a second principal')
    expect(await card.count()).toBe(1)
  })

  it('answers hostile requests with typed errors and keeps serving', async () => {
    const unknownReplay = await api<{ error: { code: string } }>(t.hub, '/api/replay/no-such-session', { token: t.adminToken })
    expect(unknownReplay.status).toBe(404)
    expect(unknownReplay.json.error.code).toBe('not_found')
    const forgotten = await api<{ error: { code: string; message: string } }>(t.hub, `/api/surfaces/claims/frames/${'0'.repeat(64)}`, { token: t.adminToken })
    expect(forgotten.json.error.code).toBe('not_found')
    // A terminal stream of something that is not a terminal.
    const status = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(`ws://${location.host}/api/surfaces/claims/pty`)
          socket.onopen = () => resolve('open')
          socket.onerror = () => resolve('refused')
        }),
    )
    expect(status).toBe('refused')
    // Garbage typed at a terminal is refused, not written raw.
    const reply = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(`ws://${location.host}/api/surfaces/term-1/pty`)
          socket.onmessage = (message) => {
            const event = JSON.parse(String(message.data)) as { type: string; status?: string }
            if (event.type === 'screen') socket.send('not json')
            if (event.type === 'typed') resolve(event.status ?? '')
          }
        }),
    )
    expect(reply).toBe('invalid_input')
    // A terminal closed while someone watches ends their stream with a reason.
    const opened = await agent.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'terminal' } } })
    const id = /"tile":"([^"]+)"/.exec(JSON.stringify(opened.structuredContent))?.[1] ?? ''
    const closing = page.evaluate(
      (tile) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(`ws://${location.host}/api/surfaces/${tile}/pty`)
          socket.onmessage = () => Object.assign(window, { __ptyWatching: true })
          socket.onclose = (event) => resolve(`${event.code} ${event.reason}`)
        }),
      id,
    )
    // Closed only once the stream has started (its screen arrived).
    await expect.poll(() => page.evaluate(() => (window as unknown as { __ptyWatching?: boolean }).__ptyWatching === true)).toBe(true)
    await agent.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'close', input: { tile: id } } })
    expect(await closing).toBe(`1001 tile ${id} was closed`)
    // Terminal streams are capped per principal like event sockets: past the cap the socket closes with 1008.
    const capped = await page.evaluate(async (limit) => {
      const sockets: WebSocket[] = []
      const codes = await Promise.all(
        Array.from({ length: limit + 1 }, () =>
          new Promise<number>((resolve) => {
            const socket = new WebSocket(`ws://${location.host}/api/surfaces/term-1/pty`)
            sockets.push(socket)
            socket.onmessage = () => resolve(0)
            socket.onclose = (event) => resolve(event.code)
          }),
        ),
      )
      for (const socket of sockets) socket.close()
      return codes
    }, t.hub.ctx.config.limits.eventSocketsPerPrincipal)
    expect(capped.filter((code) => code === 1008).length).toBeGreaterThanOrEqual(1)
    // A replay asked for far more steps than allowed is cut to the limit, not refused or unbounded.
    const replay = await api<{ steps: unknown[] }>(t.hub, `/api/replay/${encodeURIComponent(t.hub.ctx.gateway.session)}?limit=99999`, { token: t.adminToken })
    expect(replay.status).toBe(200)
    expect(replay.json.steps.length).toBeLessThanOrEqual(1000)
    expect((await api(t.hub, '/api/health')).status).toBe(200)
  })
})
