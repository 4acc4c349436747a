import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { parkedApps } from '@tessera/surface-desktop'
import { afterAll, describe, expect, it } from 'vitest'
import { removeDir, useTestHub, useAgentClient } from '../support/hub.js'

/** The rows of the first sheet of an .ods file, each cell's text, read from its content.xml. */
function odsRows(file: string): string[][] {
  const content = new TextDecoder().decode(unzipSync(readFileSync(file))['content.xml'])
  const sheet = /<table:table [^>]*>([\s\S]*?)<\/table:table>/.exec(content)?.[1] ?? ''
  return [...sheet.matchAll(/<table:table-row[^>]*>([\s\S]*?)<\/table:table-row>/g)]
    .map(([, row]) => [...(row ?? '').matchAll(/<table:table-cell[^>]*?(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)].map(([, cell]) => (cell ?? '').replace(/<[^>]+>/g, '')))
    .map((cells) => cells.filter((cell, i) => cell !== '' || cells.slice(i).some((rest) => rest !== '')))
    .filter((cells) => cells.length > 0)
}

/**
 * The seed's spreadsheet workflow on LibreOffice Calc (VCL through its GTK 3 plugin), as an
 * agent does it over MCP: a header row and monthly sales typed cell by cell, a sum, saved as
 * sales.ods through the schema's save_as, and the cells checked in the saved file.
 */
describe('LibreOffice Calc as a tile', () => {
  const t = useTestHub({ tiles: [] })
  let tile = ''
  const saved = mkdtempSync(join(tmpdir(), 'tessera-calc-saved-'))
  const { call } = useAgentClient(t)

  afterAll(async () => {
    removeDir(saved)
  })

  it('launches Calc, whose sheet is a managed table the walk does not list cell by cell', async () => {
    const launched = await call('gui_app_launch', { app: 'libreoffice-calc' })
    expect(launched.isError, launched.text).toBe(false)
    tile = String(launched.json?.tile_id)
    const tree = (await call('gui_get_widget_tree', { tile_id: tile })).text
    expect(tree).toMatch(/table "Sheet Sheet1"/)
    expect(tree).toMatch(/textbox: "A1"/)
  }, 90_000)

  it('enters a header row and monthly sales, saves sales.ods, and the saved file holds those cells', async () => {
    const rows = [
      ['Month', 'Sales'],
      ['Jan', '1200'],
      ['Feb', '1350'],
      ['Mar', '980'],
      ['Apr', '1410'],
    ]
    for (const row of rows) {
      for (const [i, cell] of row.entries()) {
        const typed = await call('gui_send_text', { tile_id: tile, text: cell })
        expect(typed.json, typed.text).toMatchObject({ success: true })
        await call('gui_send_keys', { tile_id: tile, keys: i === row.length - 1 ? 'Return' : 'Tab' })
      }
    }
    await call('gui_send_text', { tile_id: tile, text: 'Total' })
    await call('gui_send_keys', { tile_id: tile, keys: 'Tab' })
    await call('gui_send_text', { tile_id: tile, text: '=SUM(B2:B5)' })
    await call('gui_send_keys', { tile_id: tile, keys: 'Return' })
    // The Name Box says where the cursor went: row 7, column A.
    expect((await call('gui_get_widget_tree', { tile_id: tile })).text).toMatch(/textbox: "A7"/)
    // The sheet lists none of its cells; the frame reads those on the screen that hold something.
    const cells = await call('gui_find_widget', { tile_id: tile, role: 'cell' })
    expect(cells.text).toContain('cell "A1": "Month"')
    expect(cells.text).toContain('cell "B5": "1410"')
    expect(cells.text).toContain('cell "B6": "4940"')
    expect(cells.text).not.toContain('cell "C1"')
    const went = await call('action_request', { surface: tile, action: 'app.go_to_cell', input: { cell: 'B6' } })
    expect(went.json?.result?.status, went.text).toBe('completed')
    expect((await call('gui_get_widget_tree', { tile_id: tile })).text).toMatch(/textbox: "B6"/)

    const file = join(saved, 'sales.ods')
    const save = await call('action_request', { surface: tile, action: 'app.save_as', input: { path: file } })
    expect(save.json?.result?.status, save.text).toBe('completed')
    expect(existsSync(file)).toBe(true)
    expect(odsRows(file)).toEqual([...rows, ['Total', '4940']])
    expect((await call('gui_get_widget_tree', { tile_id: tile, depth: 3 })).text).toContain('window "sales.ods - LibreOffice Calc"')
  }, 120_000)

  it('discovers Calc\'s menus and dialogs by opening each and closing it again, running nothing else', async () => {
    const report = await call('gui_discover_capabilities', { tile_id: tile, deep: true })
    expect(report.isError, report.text).toBe(false)
    expect(report.json).toMatchObject({ app_name: 'libreoffice-calc', toolkit: 'vcl', schema_available: true })
    // Each menu once, though Calc shows its menu bar twice; a menu whose items had said nothing yet was opened to read them.
    const menus = (report.json?.capabilities as { menus: Array<{ name: string; items: number }> }).menus
    expect(menus.map((menu) => menu.name)).toEqual(['File', 'Edit', 'View', 'Insert', 'Format', 'Styles', 'Sheet', 'Data', 'Tools', 'Window', 'Help'])
    expect((report.json?.explored as { menu_items: number }).menu_items).toBeGreaterThan(150)
    // Dialogs that items ending in "..." promise, opened and closed again; none stayed open.
    const dialogs = (report.json?.capabilities as { dialogs: Array<{ menu: string; title?: string; stuck?: string }> }).dialogs
    expect(dialogs.filter((d) => d.title !== undefined).length, JSON.stringify(dialogs)).toBeGreaterThanOrEqual(3)
    expect(dialogs.some((d) => d.stuck !== undefined), JSON.stringify(dialogs)).toBe(false)
    const shortcuts = (report.json?.capabilities as { shortcuts: Array<{ keys: string; action: string; source: string }> }).shortcuts
    expect(shortcuts.filter((s) => s.source === 'discovered').length).toBeGreaterThan(20)
    // Still the saved spreadsheet, with no menu left open.
    const tree = (await call('gui_get_widget_tree', { tile_id: tile, depth: 3 })).text
    expect(tree).toContain('window "sales.ods - LibreOffice Calc"')
    expect(tree).not.toMatch(/^    dialog /m)
  }, 120_000)

  it('keeps a second Calc ready once one was opened: the next launch takes it, a fresh spreadsheet on a display of its own', async () => {
    // Parked a few seconds after the first launch.
    expect(await parkedApps.whenReady('libreoffice-calc:native')).toBe(true)
    const second = await call('gui_app_launch', { app: 'libreoffice-calc' })
    expect(second.isError, second.text).toBe(false)
    const id = String(second.json?.tile_id)
    expect(id).not.toBe(tile)
    expect(parkedApps.keys()).not.toContain('libreoffice-calc:native')
    // The parked copy is the new tile's own: its own document, not the first tile's, and its actions run.
    const tree = (await call('gui_get_widget_tree', { tile_id: id, depth: 3 })).text
    expect(tree).toContain('window "Untitled 1 - LibreOffice Calc"')
    expect(tree).not.toContain('sales.ods')
    const went = await call('action_request', { surface: id, action: 'app.go_to_cell', input: { cell: 'C3' } })
    expect(went.json?.result?.status, went.text).toBe('completed')
    expect((await call('gui_get_widget_tree', { tile_id: id })).text).toMatch(/textbox: "C3"/)
    expect((await call('gui_get_widget_tree', { tile_id: tile, depth: 3 })).text).toContain('window "sales.ods - LibreOffice Calc"')
    const closed = await call('gui_app_close', { tile_id: id })
    expect(closed.json, closed.text).toMatchObject({ success: true })
  }, 90_000)
})
