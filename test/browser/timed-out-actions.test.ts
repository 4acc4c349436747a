import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { ActionResult } from '@tessera/protocol'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, callTool, connectHttpClient, useTestHub } from '../support/hub.js'
import { refOf } from '../support/outline-refs.js'
import { type FixtureSite, startFixtureSite } from './fixture-site.js'

const call = callTool
/** An action's time in this hub: short, so that running out of it is quick to see. */
const DISPATCH_MS = 3_000

describe('a browser tile after an action that ran out of time, a dialog after a dialog, a blank page', () => {
  const t = useTestHub({ limits: { dispatchTimeoutMs: DISPATCH_MS } })
  let site: FixtureSite
  let client: Client

  beforeAll(async () => {
    site = await startFixtureSite()
    client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await client.close()
    await site.close()
  })

  /** The button press still works, and soon: the tile is free. */
  async function pressWorks(): Promise<void> {
    const started = performance.now()
    const page = (await call(client, 'browser_snapshot', {})).text
    const pressed = await call(client, 'browser_click', { element: 'Press', target: refOf(page, 'button', 'Press') })
    expect(pressed.text).toContain('"pressed"')
    expect(pressed.text).not.toContain('timed_out')
    expect(performance.now() - started).toBeLessThan(DISPATCH_MS)
    await call(client, 'browser_navigate', { url: `${site.origin}/two-alerts` })
  }

  it('answers a dialog that opens the next one at once, with the next one open', async () => {
    const page = (await call(client, 'browser_navigate', { url: `${site.origin}/two-alerts` })).text
    const first = await call(client, 'browser_click', { element: 'Two alerts', target: refOf(page, 'button', 'Two alerts') })
    expect(first.text).toMatch(/^\+ alertdialog "alert: one"$/m)
    // Before, the answer waited for the page to settle, which it cannot while an alert is open: it ran out of time, and the tile stayed taken.
    const second = await call(client, 'browser_handle_dialog', { accept: true })
    // The hub names the dialog by its kind: its message is the page's words, said inside the fence.
    expect(second.text).toContain('dialog: "alert accepted"')
    // Said once, on the answer's last line; the page's change says which.
    expect(second.text).toMatch(/\nan alert dialog is open — answer with browser_handle_dialog$/)
    expect(second.text).not.toContain('note:')
    expect(second.text).toMatch(/^--- changes [0-9a-f]{6} \(untrusted\) ---\n~ alertdialog "alert: two"\n--- end /m)
    const done = await call(client, 'browser_handle_dialog', { accept: true })
    expect(done.text).toContain('dialog: "alert accepted"')
    expect(done.text).not.toContain('dialog is open')
    // Asked for no page, the answer says it in a note.
    const quiet = await call(client, 'browser_click', { element: 'Two alerts', target: refOf(page, 'button', 'Two alerts'), snapshot: 'none' })
    expect(quiet.text).toContain('note: the page opened an alert dialog; answer it with browser_handle_dialog')
    for (let k = 0; k < 2; k++) await call(client, 'browser_handle_dialog', { accept: true })
    await pressWorks()
  })

  it('waits for nothing under a dialog: one open refuses the wait at once, one that opens ends it', async () => {
    const page = (await call(client, 'browser_navigate', { url: `${site.origin}/two-alerts` })).text
    await call(client, 'browser_click', { element: 'Two alerts', target: refOf(page, 'button', 'Two alerts') })
    // Before, the wait ran its 30 s out under the alert.
    let started = performance.now()
    const refused = await call(client, 'browser_wait_for', { text: 'pressed' })
    expect(refused.text).toContain('error [conflict]: an alert dialog is open, and the page changes nothing until it is answered; answer it with handle_dialog first')
    expect(performance.now() - started).toBeLessThan(DISPATCH_MS)
    await call(client, 'browser_handle_dialog', { accept: true })
    await call(client, 'browser_handle_dialog', { accept: true })
    await call(client, 'browser_click', { element: 'Alert later', target: refOf(page, 'button', 'Alert later') })
    started = performance.now()
    const ended = await call(client, 'browser_wait_for', { text: 'never said' })
    expect(ended.text).toContain('note: the page opened an alert dialog while waiting for "never said" to appear; answer it with handle_dialog')
    expect(performance.now() - started).toBeLessThan(DISPATCH_MS)
    await call(client, 'browser_handle_dialog', { accept: true })
    await pressWorks()
  })

  it('stops typing slowly once the action is out of time, and the next action runs', async () => {
    const outline = (await call(client, 'browser_snapshot', {})).text
    const typing = await call(client, 'browser_type', { element: 'Name', target: refOf(outline, 'textbox', 'Name'), text: 'x'.repeat(2_000), slowly: true })
    expect(typing.text).toMatch(/timed_out/)
    // No key starts after the time was up: the field holds what was typed until then, and no more a moment later.
    const tile = t.hub.ctx.surfaces.list('browser')[0]?.id as string
    const page = (t.hub.ctx.surfaces.surface(tile) as unknown as { page: Page }).page
    const typed = (): Promise<number> => page.evaluate(() => document.querySelector('input')?.value.length ?? -1)
    // A key already on its way when the time ran out (each takes 20 ms) may still land: read once it has.
    await new Promise((done) => setTimeout(done, 100))
    const then = await typed()
    expect(then).toBeGreaterThan(0)
    expect(then).toBeLessThan(2_000)
    await new Promise((done) => setTimeout(done, 500))
    expect(await typed()).toBe(then)
    await pressWorks()
  })

  it('leaves a script whose promise never settles to the page once the action is out of time', async () => {
    const held = await call(client, 'browser_evaluate', { function: '() => new Promise(() => {})' })
    expect(held.text).toMatch(/^awaiting_approval/)
    const approved = await api<{ result: ActionResult }>(t.hub, `/api/approvals/${held.result?.approvalId}/approve`, { token: t.adminToken, body: {} })
    expect(approved.json.result.status).toBe('timed_out')
    await pressWorks()
  })

  it('leaves a page tool whose promise never settles to the page once the action is out of time', async () => {
    const page = (await call(client, 'browser_navigate', { url: `${site.origin}/stuck-tool` })).text
    expect(page).toContain('page tool webmcp.wait_forever')
    const tile = t.hub.ctx.surfaces.list('browser')[0]?.id as string
    const stuck = await call(client, 'action_request', { surface: tile, action: 'webmcp.wait_forever', input: {} })
    expect(stuck.text).toMatch(/timed_out/)
    // One that throws: what it threw is the page's words, fenced after the hub's message (before, in it, after "frame.evaluate:").
    const thrown = await call(client, 'action_request', { surface: tile, action: 'webmcp.fail_loudly', input: {} })
    // (Chromium's own modelContext words it in its own words; a polyfill passes the page's message on.)
    expect(thrown.text).toMatch(/^error \[conflict\]: the page's tool "fail_loudly" threw an error\n--- page ([0-9a-f]{6}) \(untrusted\) ---\n"[^"\n]+"\n--- end \1 ---/m)
    expect(thrown.text).not.toContain('frame.evaluate')
    // Before, the tile stayed taken by the tool's call: every later action on it waited for ever.
    await pressWorks()
  })

  it('shows nothing of the page before a reload under a dialog the reloaded page opens as it loads', async () => {
    const page = (await call(client, 'browser_navigate', { url: `${site.origin}/reload-alert` })).text
    expect(page).toContain('"visit 1"')
    const reloaded = await call(client, 'browser_click', { element: 'Reload', target: refOf(page, 'button', 'Reload') })
    expect(reloaded.text).toMatch(/\nan alert dialog is open — answer with browser_handle_dialog$/)
    // Before, the frame under it was the page that went (same address): "visit 1" still stood.
    expect((await call(client, 'browser_snapshot', {})).text).not.toContain('visit 1')
    // Going elsewhere meanwhile says the dialog is open (it said the frame had no action "navigate").
    const away = await call(client, 'browser_navigate', { url: `${site.origin}/login` })
    expect(away.text).toMatch(/conflict.*an alert dialog is open; answer it with handle_dialog first/)
    const answered = await call(client, 'browser_handle_dialog', { accept: true })
    expect(answered.text).toContain('"visit 2"')
  })

  it('lets a dialog go with the tab that opened it', async () => {
    const page = (await call(client, 'browser_navigate', { url: `${site.origin}/two-alerts` })).text
    await call(client, 'browser_click', { element: 'Two alerts', target: refOf(page, 'button', 'Two alerts') })
    // Its title, though the page under the dialog runs no script (it read "").
    expect((await call(client, 'browser_tabs', { action: 'list' })).text).toMatch(/^\* 0 "Alerts" /m)
    await call(client, 'browser_tabs', { action: 'new', url: `${site.origin}/login` })
    await call(client, 'browser_tabs', { action: 'close', index: 0 })
    // Before, the tab left stood under the closed tab's alert, and every action was a conflict.
    const left = (await call(client, 'browser_snapshot', {})).text
    expect(left).toContain('heading "Sign in"')
    expect(left).not.toContain('alertdialog')
    expect((await call(client, 'browser_handle_dialog', { accept: true })).text).toContain('no dialog is open')
  })

  it('says a dialog is open when a selector names an element under it, and that an empty target names none', async () => {
    const page = (await call(client, 'browser_navigate', { url: `${site.origin}/two-alerts` })).text
    await call(client, 'browser_click', { element: 'Two alerts', target: refOf(page, 'button', 'Two alerts') })
    expect((await call(client, 'browser_click', { element: 'Press', target: 'text=Press' })).text).toMatch(/conflict.*an alert dialog is open; answer it with browser_handle_dialog first/)
    await call(client, 'browser_handle_dialog', { accept: true })
    await call(client, 'browser_handle_dialog', { accept: true })
    expect((await call(client, 'browser_click', { element: 'Press', target: '' })).text).toMatch(/invalid_input.*expected "target": a ref from the snapshot \(@12\) or a selector, found ""/)
  })

  it('goes to a blank page without asking a person, and back to its site', async () => {
    const blank = await call(client, 'browser_navigate', { url: 'about:blank' })
    expect(blank.text).not.toMatch(/awaiting_approval/)
    expect(blank.text).toMatch(/^browser-\d+ about:blank/)
    const back = await call(client, 'browser_navigate', { url: `${site.origin}/two-alerts` })
    expect(back.text).toContain('button "Press"')
  })
})
