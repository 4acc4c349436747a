import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ActionResult } from '@tessera/protocol'
import { type AccessibleNode, AtspiBus, DesktopSession, walkAccessibles } from '@tessera/surface-desktop'
import { afterAll, describe, expect, it } from 'vitest'
import { api, removeDir, useTestHub, useAgentClient } from '../support/hub.js'

const folder = mkdtempSync(join(tmpdir(), 'tessera-chromium-app-'))
writeFileSync(
  join(folder, 'notes.html'),
  `<!doctype html><title>Notes app</title><h1>Notes</h1>
<label>Title <input id="title"></label> <button id="save">Save note</button>
<p id="saved">Nothing saved</p>
<button id="wipe">Delete all notes</button> <p id="wiped">Notes kept</p>
<script>
document.getElementById('save').onclick = () => { document.getElementById('saved').textContent = 'Saved: ' + document.getElementById('title').value }
document.getElementById('wipe').onclick = () => { document.getElementById('wiped').textContent = 'All notes deleted' }
</script>`,
)
const chromiumArgs = (profile: string): string[] => [`--app=file://${join(folder, 'notes.html')}`, '--no-first-run', '--no-sandbox', '--disable-gpu', `--user-data-dir=${join(folder, profile)}`]
afterAll(() => removeDir(folder))
const refIn = (text: string): string | undefined => /@([n1-9][0-9a-z.]*)/.exec(text)?.[1]

/**
 * A Chromium app (what an Electron app is) in a desktop tile. Started directly, it is known as
 * Chromium by its files and given a DevTools port: the tile's frame is the page as the browser
 * kind reads it (the Electron specialist). Started through a wrapper, it is read over AT-SPI:
 * Chromium exposes its web content there when the session says accessibility is on.
 */
describe('a Chromium app as a desktop tile', () => {
  const t = useTestHub({
    tiles: [
      { kind: 'desktop', id: 'notes', command: ['/usr/lib/chromium/chromium', ...chromiumArgs('profile')] },
      // A shell in front: not recognised as Chromium, so no DevTools port; the AT-SPI path.
      { kind: 'desktop', id: 'wrapped', command: ['/bin/sh', '-c', 'exec "$0" "$@"', '/usr/lib/chromium/chromium', ...chromiumArgs('profile-wrapped')] },
    ],
  })
  const { call } = useAgentClient(t)

  it('reads the page through its DevTools port: the page\'s own frame, acted on by the browser kind', async () => {
    const wait = await call('action_request', { surface: 'notes', action: 'wait_for', input: { role: 'button', name: 'Save note' } })
    expect(wait.json?.result?.status, wait.text).toBe('completed')
    const frame = await t.hub.ctx.gateway.frames.current('notes')
    expect(frame.state).toMatchObject({ specialist: 'devtools', app: 'chromium' })
    expect(String(frame.state.url)).toMatch(/^file:\/\/.*notes\.html$/)
    // The page's actions and the desktop's own side by side; the desktop's AT-SPI ones are not offered.
    const offered = frame.contracts.map((contract) => contract.id)
    expect(offered).toEqual(expect.arrayContaining(['click', 'fill', 'hover', 'press', 'wait_for', 'key', 'type_text', 'click_at', 'shortcuts', 'discover']))
    expect(offered).not.toContain('type')

    const field = refIn((await call('gui_find_widget', { tile_id: 'notes', role: 'textbox', label: 'Title' })).text)
    expect(field).toBeDefined()
    const filled = await call('action_request', { surface: 'notes', action: 'fill', target: field, input: { text: 'Groceries' } })
    expect(filled.json?.result?.status, filled.text).toBe('completed')
    const button = refIn((await call('gui_find_widget', { tile_id: 'notes', role: 'button', label: 'Save note' })).text)
    const pressed = await call('surface_act', { surface: 'notes', ref: button, op: 'click' })
    expect(pressed.isError, pressed.text).toBe(false)
    const after = await call('action_request', { surface: 'notes', action: 'wait_for', input: { text: 'Saved: Groceries' } })
    expect(after.json?.result?.status, after.text).toBe('completed')
    // The same element keeps its ref across frames: refs are bound to the DOM node.
    expect(refIn((await call('gui_find_widget', { tile_id: 'notes', role: 'button', label: 'Save note' })).text)).toBe(button)
  }, 60_000)

  it('types where the keyboard is: gui_send_text goes as keys on the tile\'s display into the focused field', async () => {
    const field = refIn((await call('gui_find_widget', { tile_id: 'notes', role: 'textbox', label: 'Title' })).text)
    await call('surface_act', { surface: 'notes', ref: field, op: 'click' })
    await call('gui_send_keys', { tile_id: 'notes', keys: 'ctrl+a' })
    const typed = await call('gui_send_text', { tile_id: 'notes', text: 'Milk' })
    expect(typed.json, typed.text).toMatchObject({ success: true })
    const button = refIn((await call('gui_find_widget', { tile_id: 'notes', role: 'button', label: 'Save note' })).text)
    await call('surface_act', { surface: 'notes', ref: button, op: 'click' })
    const after = await call('action_request', { surface: 'notes', action: 'wait_for', input: { text: 'Saved: Milk' } })
    expect(after.json?.result?.status, after.text).toBe('completed')
  }, 60_000)

  it('weighs a page button by its words: "Delete all notes" waits for a person, then runs', async () => {
    const wipe = refIn((await call('gui_find_widget', { tile_id: 'notes', role: 'button', label: 'Delete all notes' })).text)
    const held = await call('surface_act', { surface: 'notes', ref: wipe, op: 'click', wait_ms: 0 })
    expect(held.json?.result?.status, held.text).toBe('awaiting_approval')
    expect((await call('gui_find_widget', { tile_id: 'notes', role: 'paragraph' })).text).not.toContain('All notes deleted')
    const approved = await api<{ result: ActionResult }>(t.hub, `/api/approvals/${String(held.json?.result?.approvalId)}/approve`, { token: t.adminToken, body: {} })
    expect(approved.json.result.status).toBe('completed')
    const after = await call('action_request', { surface: 'notes', action: 'wait_for', input: { text: 'All notes deleted' } })
    expect(after.json?.result?.status, after.text).toBe('completed')
  }, 60_000)

  it('names the toolkit Chromium says it is', async () => {
    const report = await call('gui_discover_capabilities', { tile_id: 'notes' })
    expect(report.json).toMatchObject({ toolkit: 'electron', schema_available: false })
  }, 60_000)

  it('reads a Chromium app behind a wrapper over AT-SPI: types through EditableText, presses its button', async () => {
    const wait = await call('action_request', { surface: 'wrapped', action: 'wait_for', input: { role: 'button', name: 'Save note' } })
    expect(wait.json?.result?.status, wait.text).toBe('completed')
    const frame = await t.hub.ctx.gateway.frames.current('wrapped')
    expect(frame.state.specialist).toBeUndefined()
    const fieldRef = refIn((await call('gui_find_widget', { tile_id: 'wrapped', role: 'textbox', label: 'Title' })).text)
    expect(fieldRef).toBeDefined()
    const typed = await call('surface_act', { surface: 'wrapped', ref: fieldRef, op: 'type', text: 'Groceries' })
    expect(typed.isError, typed.text).toBe(false)
    const button = refIn((await call('gui_find_widget', { tile_id: 'wrapped', role: 'button', label: 'Save note' })).text)
    const pressed = await call('surface_act', { surface: 'wrapped', ref: button, op: 'click' })
    expect(pressed.isError, pressed.text).toBe(false)
    const after = await call('action_request', { surface: 'wrapped', action: 'wait_for', input: { role: 'static', name: 'Saved: Groceries' } })
    expect(after.json?.result?.status, after.text).toBe('completed')
  }, 60_000)
})

/** Every name in a walked tree, depth first. */
const namesIn = (nodes: readonly AccessibleNode[]): string[] => nodes.flatMap((node) => [node.name, ...namesIn(node.children)])

describe('a Chromium started without --force-renderer-accessibility, walked late', () => {
  it('shows its page on AT-SPI however late the first walk comes: the walk asks each app what a screen reader asks', async () => {
    const session = await DesktopSession.start({})
    const bus = AtspiBus.connect(session.a11yBusAddress)
    try {
      session.launch(['/usr/lib/chromium/chromium', ...chromiumArgs('profile-late')])
      // Asked nothing while it starts, Chromium's window keeps a null child: the page is never built.
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      let names: string[] = []
      for (let tries = 0; tries < 50 && !names.includes('Save note'); tries++) {
        names = namesIn((await walkAccessibles(bus)).apps)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      expect(names).toContain('Save note')
    } finally {
      bus.disconnect()
      await session.close()
    }
  }, 60_000)
})
