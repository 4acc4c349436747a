import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttpClient, removeDir, useTestHub, callToolFully } from '../support/hub.js'

/**
 * The seed's gui_* tools on Mousepad (GTK 3): launch it as a tile, type a text, save it
 * through its own Save As dialog, and find the file on disk with that text.
 */
describe('the gui_* tools on a real text editor', () => {
  const t = useTestHub({ tiles: [] })
  let client: Client
  const saved = mkdtempSync(join(tmpdir(), 'tessera-gui-saved-'))
  const call = (name: string, args: Record<string, unknown>) => callToolFully(client, name, args)
  let tile = ''

  beforeAll(async () => {
    client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await client?.close()
    removeDir(saved)
  })

  it('launches an app as a tile, lists and focuses it, and refuses what it cannot do', async () => {
    const launched = await call('gui_app_launch', { app: 'mousepad', location: { x: 2000, y: 100 } })
    expect(launched.isError, launched.text).toBe(false)
    expect(launched.json).toMatchObject({ backend: 'native', location: { x: 2000, y: 100 } })
    tile = String(launched.json?.tile_id)
    expect((await call('gui_app_list', {})).json).toMatchObject({ apps: [{ tile_id: tile, app: 'Mousepad', backend: 'native', state: 'running', focused: true }] })
    expect((await call('gui_app_focus', { tile_id: tile })).json).toMatchObject({ success: true, previous_focus: tile })
    const vnc = await call('gui_app_launch', { app: 'mousepad', backend: 'vnc' })
    expect(vnc.isError).toBe(true)
    expect(vnc.text).toMatch(/invalid_input.*"backend" expected one of "native", "wasm", "auto", found "vnc"/)
    const unknown = await call('gui_app_launch', { app: 'rm -rf /' })
    expect(unknown.isError).toBe(true)
  })

  it('reads the widget tree, finds widgets fuzzily by role, label and state, and shows pixels', async () => {
    const tree = (await call('gui_get_widget_tree', { tile_id: tile })).text
    expect(tree).toMatch(/window "Untitled 1 - Mousepad" <0,0 \d+x\d+>/)
    expect(tree).toMatch(/menuitem "Delete Line" \[click destructive/)
    const shallow = (await call('gui_get_widget_tree', { tile_id: tile, depth: 2 })).text
    expect(shallow).toContain('window "Untitled 1 - Mousepad"')
    expect(shallow).not.toContain('menuitem')
    const found = await call('gui_find_widget', { tile_id: tile, label: 'save as' })
    expect(found.text.split('\n')[0]).toMatch(/^(menuitem|button) "Save As\.\.\." @[n1-9][0-9a-z.]* \(enabled\) \[click\]/)
    // Mousepad hides its toolbar: what is not on the screen is not in the tree, but a closed menu's items are (their own actions run them).
    expect((await call('gui_find_widget', { tile_id: tile, role: 'button', label: 'undo' })).text).toBe('no widget matches')
    const disabled = (await call('gui_find_widget', { tile_id: tile, role: 'menuitem', state: 'disabled' })).text
    expect(disabled).toContain('menuitem "Undo"')
    expect(disabled).not.toContain('menuitem "Save"')
    const shot = await call('gui_screenshot', { tile_id: tile })
    expect(shot.content.find((part) => part.type === 'image')?.mimeType).toBe('image/png')
    expect(shot.text).toMatch(/"width":1280,"height":800/)
  })

  it('types a text and saves it through the app\'s Save As dialog: the file is on disk with the text', async () => {
    const words = 'Written by an agent — ünïcödé ✓'
    const typed = await call('gui_send_text', { tile_id: tile, text: words })
    expect(typed.json).toMatchObject({ success: true, characters_sent: [...words].length })
    expect((await call('gui_send_keys', { tile_id: tile, keys: 'Ctrl+S' })).json).toMatchObject({ success: true })
    const dialog = await call('action_request', { surface: tile, action: 'wait_for', input: { role: 'dialog', name: 'Save As' } })
    expect(dialog.json?.result?.status, dialog.text).toBe('completed')
    const file = join(saved, 'notes.txt')
    // The file chooser's field has no name of its own: the label beside it ("Name:") names it.
    expect((await call('gui_find_widget', { tile_id: tile, role: 'textbox', label: 'name' })).text.split('\n')[0]).toMatch(/^textbox "Name"/)
    // The dialog waits for an answer: the text goes to its first field, the name.
    expect((await call('gui_send_text', { tile_id: tile, text: file })).json).toMatchObject({ success: true })
    await call('gui_send_keys', { tile_id: tile, keys: 'Return' })
    const gone = await call('action_request', { surface: tile, action: 'wait_for', input: { role: 'dialog', name: 'Save As', gone: true } })
    expect(gone.json?.result?.status, gone.text).toBe('completed')
    expect(existsSync(file)).toBe(true)
    expect(readFileSync(file, 'utf8')).toContain(words)
    const after = (await call('gui_get_widget_tree', { tile_id: tile, depth: 2 })).text
    expect(after, after).toMatch(/window "[^"]*notes\.txt[^"]*"/)
  })

  it('drags across a line to select it (XTEST, a button held), and typed text takes the selection\'s place', async () => {
    const replaced = await call('action_request', { surface: tile, action: 'app.replace_text', input: { text: 'first line of text\nsecond line' } })
    expect(replaced.json?.result?.status, replaced.text).toBe('completed')
    const field = (await call('gui_find_widget', { tile_id: tile, role: 'textbox', state: 'focused' })).json?.widgets as Array<{ bounds?: { x: number; y: number; width: number; height: number } }> | undefined
    const box = field?.[0]?.bounds
    expect(box, JSON.stringify(field)).toBeDefined()
    if (box === undefined) return
    // From the start of the first line to well past its end: the whole line and nothing of the next.
    const y = box.y + 9
    const dragged = await call('action_request', { surface: tile, action: 'drag_at', input: { from: { x: box.x + 1, y }, to: { x: box.x + box.width - 20, y } } })
    expect(dragged.json?.result?.status, dragged.text).toBe('completed')
    expect((await call('gui_send_text', { tile_id: tile, text: 'replaced' })).json).toMatchObject({ success: true })
    const after = (await call('gui_find_widget', { tile_id: tile, role: 'textbox', state: 'focused' })).json?.widgets as Array<{ value?: string; name?: string }> | undefined
    const text = after?.[0]?.value ?? after?.[0]?.name ?? ''
    // The frame shows a text's lines joined by spaces.
    expect(text).toContain('replaced second line')
    expect(text).not.toContain('first line')
    const outside = await call('action_request', { surface: tile, action: 'drag_at', input: { from: { x: 1, y: 1 }, to: { x: 5000, y: 1 } } })
    expect(outside.text).toMatch(/invalid_input.*expected a point inside the tile \(1280×800\), found 5000,1/)
  })

  it('closes the tile and its app', async () => {
    expect((await call('gui_app_close', { tile_id: tile })).json).toMatchObject({ success: true })
    expect((await call('gui_app_list', {})).text).toContain('no desktop app tiles')
  })
})
