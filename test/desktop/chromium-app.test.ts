import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { removeDir, useTestHub, useAgentClient } from '../support/hub.js'

const folder = mkdtempSync(join(tmpdir(), 'tessera-chromium-app-'))
writeFileSync(
  join(folder, 'notes.html'),
  `<!doctype html><title>Notes app</title><h1>Notes</h1>
<label>Title <input id="title"></label> <button id="save">Save note</button>
<p id="saved">Nothing saved</p>
<script>document.getElementById('save').onclick = () => { document.getElementById('saved').textContent = 'Saved: ' + document.getElementById('title').value }</script>`,
)

/**
 * A Chromium app (what an Electron app is) in a desktop tile: Chromium exposes its web content
 * over AT-SPI when the session says accessibility is on, so its page is widgets like any
 * toolkit's — typed into through EditableText, pressed through its own action.
 */
describe('a Chromium app as a desktop tile', () => {
  const t = useTestHub({
    tiles: [{ kind: 'desktop', id: 'notes', command: ['/usr/lib/chromium/chromium', `--app=file://${join(folder, 'notes.html')}`, '--no-first-run', '--no-sandbox', '--disable-gpu', `--user-data-dir=${join(folder, 'profile')}`] }],
  })
  const { call } = useAgentClient(t)

  afterAll(async () => {
    removeDir(folder)
  })

  it('reads the page as widgets, types into its field, presses its button, and sees the page answer', async () => {
    const wait = await call('action_request', { surface: 'notes', action: 'wait_for', input: { role: 'button', name: 'Save note' } })
    expect(wait.json?.result?.status, wait.text).toBe('completed')
    const field = (await call('gui_find_widget', { tile_id: 'notes', role: 'textbox', label: 'Title' })).text.split('\n')[0] ?? ''
    const fieldRef = /@(n[0-9a-z.]+)/.exec(field)?.[1]
    expect(fieldRef, field).toBeDefined()
    const typed = await call('surface_act', { surface: 'notes', ref: fieldRef, op: 'type', text: 'Groceries' })
    expect(typed.isError, typed.text).toBe(false)
    const button = /@(n[0-9a-z.]+)/.exec((await call('gui_find_widget', { tile_id: 'notes', role: 'button', label: 'Save note' })).text)?.[1]
    const pressed = await call('surface_act', { surface: 'notes', ref: button, op: 'click' })
    expect(pressed.isError, pressed.text).toBe(false)
    const after = await call('action_request', { surface: 'notes', action: 'wait_for', input: { role: 'static', name: 'Saved: Groceries' } })
    expect(after.json?.result?.status, after.text).toBe('completed')
  })

  it('names the toolkit Chromium says it is', async () => {
    const report = await call('gui_discover_capabilities', { tile_id: 'notes' })
    expect(report.json).toMatchObject({ toolkit: 'electron', schema_available: false })
  })
})
