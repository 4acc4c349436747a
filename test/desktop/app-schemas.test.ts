import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { removeDir, useTestHub, useAgentClient } from '../support/hub.js'

/**
 * What Tessera knows of an app and how it learns the rest, over MCP on real apps: custom
 * actions of the shipped schemas run as contracts (GNOME Calculator computes, Mousepad saves),
 * shortcuts from schema, menus, toolkit and overlay, discovery of an app with no schema
 * (galculator), the AI-added overlay's four answers, and one clipboard across tiles.
 */
describe('app schemas, shortcuts, discovery, the overlay and the clipboard', () => {
  const t = useTestHub({
    tiles: [
      { kind: 'desktop', id: 'calc', app: 'gnome-calculator' },
      { kind: 'desktop', id: 'pad', app: 'mousepad' },
      { kind: 'desktop', id: 'pad2', app: 'mousepad', title: 'Second Mousepad' },
      // No schema ships for galculator: a person configured it as a command.
      { kind: 'desktop', id: 'galc', command: ['galculator'] },
    ],
  })
  const saved = mkdtempSync(join(tmpdir(), 'tessera-schema-saved-'))
  const { call } = useAgentClient(t)
  const act = (surface: string, action: string, input: Record<string, unknown>) => call('action_request', { surface, action, input })

  afterAll(async () => {
    removeDir(saved)
  })

  it('runs a schema\'s custom action as a contract of the tile, and answers what it read', async () => {
    const snapshot = (await call('surface_snapshot', { surface: 'calc' })).text
    expect(snapshot).toContain('app.compute')
    const computed = await act('calc', 'app.compute', { expression: '6×7' })
    expect(computed.json?.result?.status, computed.text).toBe('completed')
    expect(computed.json?.result?.output).toMatchObject({ result: '42' })
    const again = await act('calc', 'app.compute', { expression: '100÷8' })
    expect(again.json?.result?.output).toMatchObject({ result: '12.5' })
    // The contract's input schema is the schema's params: checked before anything runs.
    const bad = await act('calc', 'app.compute', { expr: '1+1' })
    expect(bad.json?.result?.error?.code).toBe('invalid_input')
    const unknown = await act('calc', 'app.fly', {})
    expect(unknown.json?.result?.error?.code ?? unknown.text).toMatch(/not_found|invalid/)
  })

  it('saves a file in Mousepad with the schema\'s save_as: the file is on disk with the text', async () => {
    const file = join(saved, 'schema-notes.txt')
    const replaced = await act('pad', 'app.replace_text', { text: 'Saved by a custom action ✓' })
    expect(replaced.json?.result?.status, replaced.text).toBe('completed')
    const savedAs = await act('pad', 'app.save_as', { path: file })
    expect(savedAs.json?.result?.status, savedAs.text).toBe('completed')
    expect(existsSync(file)).toBe(true)
    expect(readFileSync(file, 'utf8')).toContain('Saved by a custom action ✓')
  })

  it('lists shortcuts from the schema, the app\'s menus, the toolkit and the overlay, filterable by category', async () => {
    const all = await call('gui_get_shortcuts', { tile_id: 'pad' })
    expect(all.isError, all.text).toBe(false)
    const shortcuts = all.json?.shortcuts as Array<{ keys: string; action: string; category: string }>
    expect(shortcuts).toContainEqual({ keys: 'Ctrl+Shift+S', action: 'Save As...', category: 'file' })
    // Read from Mousepad's menus, in no schema: an accelerator, and a mnemonic path for an item without one.
    expect(shortcuts).toContainEqual(expect.objectContaining({ keys: 'Ctrl+Alt+U', action: 'Convert › To Opposite Case', category: 'edit' }))
    expect(shortcuts).toContainEqual(expect.objectContaining({ keys: 'Alt+F L', action: 'Save All', category: 'file' }))
    expect(shortcuts).toContainEqual(expect.objectContaining({ keys: 'F10', category: 'navigate' }))
    const ai = await call('gui_get_shortcuts', { tile_id: 'pad', category: 'ai-added' })
    expect((ai.json?.shortcuts as Array<{ keys: string }>).map((s) => s.keys)).toEqual(['Ctrl+Alt+Shift+?', 'Ctrl+Alt+Shift+D', 'Ctrl+Alt+Shift+H', 'Ctrl+Alt+Shift+S'])
    const search = await call('gui_get_shortcuts', { tile_id: 'pad', category: 'search' })
    expect(search.text).toContain('Ctrl+F  Find  (search)')
    expect(search.text).not.toContain('Ctrl+S ')
  })

  it('discovers an app with no schema: its menus, their shortcuts and its widgets, with a confidence figure, cached', async () => {
    const report = await call('gui_discover_capabilities', { tile_id: 'galc', deep: true })
    expect(report.isError, report.text).toBe(false)
    expect(report.json).toMatchObject({ app_name: 'galculator', toolkit: 'gtk3', schema_available: false, cached: false })
    const caps = report.json?.capabilities as { shortcuts: Array<{ keys: string; action: string; source: string }>; menus: Array<{ name: string; items: number }>; widgets: Array<{ role: string; name: string }> }
    expect(caps.menus.map((menu) => menu.name)).toEqual(['File', 'Edit', 'View', 'Calculator', 'Help'])
    expect(caps.shortcuts).toContainEqual(expect.objectContaining({ keys: 'Ctrl+Q', action: 'Quit', source: 'discovered' }))
    expect(caps.shortcuts).toContainEqual(expect.objectContaining({ keys: 'Ctrl+C', action: 'Copy Display Value', source: 'discovered' }))
    expect(caps.widgets).toContainEqual(expect.objectContaining({ role: 'button', name: 'AC' }))
    // Safe exploration opened the dialog an item ending in "..." promises, read it, and closed it.
    const dialogs = (report.json?.capabilities as { dialogs: Array<{ menu: string; title?: string; controls?: string[]; stuck?: string }> }).dialogs
    expect(dialogs, JSON.stringify(dialogs)).toContainEqual(expect.objectContaining({ menu: 'Edit › Preferences...' }))
    expect(dialogs.find((d) => d.menu === 'Edit › Preferences...')?.controls?.length).toBeGreaterThan(3)
    expect(dialogs.some((d) => d.stuck !== undefined), JSON.stringify(dialogs)).toBe(false)
    expect((report.json?.explored as { dialogs_opened: number }).dialogs_opened).toBe(1)
    const confidence = report.json?.exploration_confidence as number
    expect(confidence).toBeGreaterThan(0.5)
    expect(confidence).toBeLessThanOrEqual(1)
    expect(report.text).toMatch(/^galculator \(gtk3\): schema no, confidence [0-9.]+, 5 menus/)
    // Exploring closed what it opened: no menu is left open.
    const after = (await call('surface_snapshot', { surface: 'galc' })).text
    expect(after).not.toMatch(/menu "[^"]*"[^\n]*\(expanded\)/)
    expect(after.match(/^    (window|dialog) /gm)).toHaveLength(1)
    const cached = await call('gui_discover_capabilities', { tile_id: 'galc', deep: true })
    expect(cached.json).toMatchObject({ cached: true, exploration_confidence: confidence })
  })

  it('answers the four AI-added shortcuts itself, on any desktop tile; the app never sees them', async () => {
    const state = await call('gui_send_keys', { tile_id: 'calc', keys: 'Ctrl+Alt+Shift+?' })
    expect(state.json).toMatchObject({ windows: ['Calculator'] })
    expect((state.json?.fields as Array<{ value: string }>)[0]?.value).toBe('12.5')
    const dump = await call('gui_send_keys', { tile_id: 'calc', keys: 'ctrl+shift+alt+d' })
    expect(dump.text).toContain('window "Calculator"')
    const highlight = await call('gui_send_keys', { tile_id: 'calc', keys: 'Ctrl+Alt+Shift+H' })
    const image = highlight.content.find((part) => part.type === 'image')
    expect(image?.mimeType).toBe('image/png')
    expect(Buffer.from(image?.data ?? '', 'base64').subarray(1, 4).toString()).toBe('PNG')
    expect(highlight.text).toMatch(/^@[n1-9][0-9a-z.]* button <\d+,\d+ \d+x\d+> write$/m)
    const suggest = await call('gui_send_keys', { tile_id: 'calc', keys: 'Ctrl+Alt+Shift+S' })
    expect(suggest.text).toContain('action_request {surface: "calc", action: "app.compute"')
    // The display still says what it said: the chords went to no app.
    expect((await call('surface_snapshot', { surface: 'calc' })).text).toMatch(/textbox: "12.5"/)
  })

  it('copies in one tile and pastes in another, though each has its own display', async () => {
    await act('pad', 'app.replace_text', { text: 'from the first tile' })
    const copied = await call('gui_send_keys', { tile_id: 'pad', keys: 'Ctrl+A Ctrl+C' })
    expect(copied.isError, copied.text).toBe(false)
    const pasted = await call('gui_send_keys', { tile_id: 'pad2', keys: 'Ctrl+V' })
    expect(pasted.text).toContain('pasted 19 characters copied in pad')
    const second = await call('gui_find_widget', { tile_id: 'pad2', role: 'textbox' })
    expect(second.text).toContain('"from the first tile"')
    // And back: what the second copies, the first pastes.
    await act('pad2', 'app.replace_text', { text: 'and back again' })
    await call('gui_send_keys', { tile_id: 'pad2', keys: 'Ctrl+A Ctrl+C' })
    await call('gui_send_keys', { tile_id: 'pad', keys: 'Ctrl+A Ctrl+V' })
    expect((await call('gui_find_widget', { tile_id: 'pad', role: 'textbox' })).text).toContain('"and back again"')
  })
})
