import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { join } from 'node:path'
import { parkedApps } from '@tessera/surface-desktop'
import { afterAll, describe, expect, it } from 'vitest'
import { removeDir, useTestHub, useAgentClient } from '../support/hub.js'
import { textPdf } from './text-pdf.js'

const folder = mkdtempSync(join(tmpdir(), 'tessera-web-build-'))
const report = join(folder, 'report.pdf')
writeFileSync(report, textPdf(['Quarterly report', 'Appendix: regional sales']))

/**
 * The wasm backend: an app's web build (Debian's PDF.js, Mozilla's PDF viewer) served on
 * loopback to Chromium in app mode on the tile's own display, read through DevTools like an
 * Electron app, driven with the same gui_* tools and schema actions as a native app.
 */
describe('a web build as a desktop tile (the wasm backend)', () => {
  const t = useTestHub({ tiles: [{ kind: 'desktop', id: 'reader', app: 'pdfjs', document: report }] })
  const { call } = useAgentClient(t)

  afterAll(() => {
    removeDir(folder)
  })

  it('shows the configured document: its pages\' text and the viewer\'s controls in the frame', async () => {
    const shown = await call('action_request', { surface: 'reader', action: 'wait_for', input: { text: 'Appendix: regional sales' } })
    expect(shown.json?.result?.status, shown.text).toBe('completed')
    const frame = await t.hub.ctx.gateway.frames.current('reader')
    expect(frame.state).toMatchObject({ app: 'pdfjs', backend: 'wasm', specialist: 'devtools' })
    const tree = (await call('gui_get_widget_tree', { tile_id: 'reader' })).text
    expect(tree).toContain('"Quarterly report"')
    expect(tree).toMatch(/spinbutton "Page": "1"/)
    expect(tree).toContain('"of 2"')
    // surface_snapshot reads the page as a browser tile's does: the page's words marked untrusted, an element's line without its list of actions.
    const outline = (await call('surface_snapshot', { surface: 'reader' })).text
    expect(outline).toMatch(/button "Open" @[n1-9][0-9a-z.]*/)
    expect(outline).toMatch(/--- page [0-9a-f]+ \(untrusted\) ---/)
    expect(outline).not.toContain('[hover')
    expect(outline.length).toBeLessThan(tree.length)
    const listed = await call('gui_app_list', {})
    expect(listed.json?.apps).toEqual([expect.objectContaining({ tile_id: 'reader', backend: 'wasm' })])
    const shot = await call('gui_screenshot', { tile_id: 'reader' })
    expect(shot.isError, shot.text).toBe(false)
  }, 60_000)

  it('runs the schema\'s actions on the page: go to page 2, find words', async () => {
    const went = await call('action_request', { surface: 'reader', action: 'app.go_to_page', input: { page: 2 } })
    expect(went.json?.result?.status, went.text).toBe('completed')
    expect(went.json?.result?.output).toMatchObject({ page: '2' })
    const found = await call('action_request', { surface: 'reader', action: 'app.find', input: { text: 'regional' } })
    expect(found.json?.result?.status, found.text).toBe('completed')
    const field = (await call('gui_find_widget', { tile_id: 'reader', role: 'textbox', label: 'Find' })).text
    expect(field).toContain('"regional"')
    // The wheel (XTEST on the tile's display) scrolls the document back to page 1, and PDF.js follows in its page field.
    const scrolled = await call('action_request', { surface: 'reader', action: 'scroll_at', input: { x: 500, y: 400, dy: -30 } })
    expect(scrolled.json?.result?.status, scrolled.text).toBe('completed')
    let page = ''
    for (const started = Date.now(); Date.now() - started < 10_000; await sleep(200)) {
      page = (await call('gui_find_widget', { tile_id: 'reader', role: 'spinbutton', label: 'Page' })).text
      if (page.includes('"1"')) break
    }
    expect(page).toMatch(/spinbutton "Page": "1"/)
    // PDF.js's find bar counts what it found, on page 2.
    expect((await call('gui_get_widget_tree', { tile_id: 'reader' })).text).toContain('"1 of 1 match"')
  }, 60_000)

  it('serves the build\'s folder and the configured document, nothing else on the machine', async () => {
    const { url } = (await t.hub.ctx.gateway.frames.current('reader')).state as { url: string }
    const origin = new URL(url).origin
    expect((await fetch(`${origin}/document/report.pdf`)).status).toBe(200)
    expect((await fetch(`${origin}/web/viewer.html`)).status).toBe(200)
    for (const path of ['/document/other.pdf', '/..%2f..%2f..%2fetc/passwd', '/../../../../etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd']) {
      const answer = await fetch(`${origin}${path}`)
      expect(answer.status, path).toBeGreaterThanOrEqual(400)
      expect(await answer.text(), path).not.toContain('root:')
    }
    expect((await fetch(`${origin}/web/viewer.html`, { method: 'POST' })).status).toBe(405)
  })

  it('lets an agent launch the web build by name (auto picks it), and says which builds an app has', async () => {
    const launched = await call('gui_app_launch', { app: 'pdfjs' })
    expect(launched.json, launched.text).toMatchObject({ backend: 'wasm' })
    // No document configured: an empty viewer, not PDF.js's error for the sample it would open.
    const empty = (await call('gui_get_widget_tree', { tile_id: String(launched.json?.tile_id) })).text
    expect(empty).toMatch(/button "Open"/)
    const error = await call('action_request', { surface: String(launched.json?.tile_id), action: 'wait_for', input: { text: 'Missing PDF', time: 3 } })
    expect(error.json?.result?.status, error.text).toBe('failed')
    expect(error.json?.result?.error?.code).toBe('timed_out')
    const closed = await call('gui_app_close', { tile_id: String(launched.json?.tile_id) })
    expect(closed.json, closed.text).toMatchObject({ success: true })
    // PDF.js is kept ready: the next launch takes the copy parked after the first.
    expect(await parkedApps.whenReady('pdfjs:wasm')).toBe(true)
    const again = await call('gui_app_launch', { app: 'pdfjs' })
    expect(again.json, again.text).toMatchObject({ backend: 'wasm' })
    expect(parkedApps.keys()).not.toContain('pdfjs:wasm')
    const tile = String(again.json?.tile_id)
    expect((await t.hub.ctx.gateway.frames.current(tile)).state).toMatchObject({ app: 'pdfjs', backend: 'wasm', specialist: 'devtools' })
    expect((await call('gui_find_widget', { tile_id: tile, role: 'button', label: 'Open' })).text).toMatch(/@[n1-9]/)
    await call('gui_app_close', { tile_id: tile })
    const noWeb = await call('gui_app_launch', { app: 'gnome-calculator', backend: 'wasm' })
    expect(noWeb.text).toMatch(/Calculator has no web \(wasm\) build; its backends: native/)
    const noNative = await call('gui_app_launch', { app: 'pdfjs', backend: 'native' })
    expect(noNative.text).toMatch(/PDF\.js viewer has no native build; its backends: wasm/)
    // Which file a web build opens is the configuration's: an agent cannot name one.
    const named = await call('gui_app_launch', { app: 'pdfjs', config: { document: '/etc/passwd' } })
    expect(named.text).toMatch(/invalid_input/)
    expect(named.text).toMatch(/document/)
  }, 60_000)
})
