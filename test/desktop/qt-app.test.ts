import { describe, expect, it } from 'vitest'
import { useTestHub, useAgentClient } from '../support/hub.js'

/**
 * A Qt 5 app (FeatherPad, no schema) through the same AT-SPI specialist, its accessibility
 * switched on by the session: Qt names actions Press and ShowMenu, holds a menu bar's menus
 * as `menu item`s with a `popup menu`, and says shortcuts only through GetKeyBinding.
 */
describe('a Qt app as a tile', () => {
  const t = useTestHub({ tiles: [{ kind: 'desktop', id: 'qt', command: ['featherpad'] }] })
  const { call } = useAgentClient(t)


  it('types into its editor and reads the text back from the tree', async () => {
    const typed = await call('gui_send_text', { tile_id: 'qt', text: 'Qt über alles? No: Qt über AT-SPI.' })
    expect(typed.json, typed.text).toMatchObject({ success: true })
    const found = await call('gui_find_widget', { tile_id: 'qt', role: 'textbox' })
    expect(found.text).toContain('"Qt über alles? No: Qt über AT-SPI."')
    // Its toolbar's buttons are pressed by their own Press action.
    expect((await call('gui_find_widget', { tile_id: 'qt', role: 'button', label: 'Undo' })).text).toMatch(/^button "Undo" @[n1-9][0-9a-z.]* \(enabled\) \[click\]/)
  })

  it('discovers its menus and their shortcuts, and names the toolkit', async () => {
    const report = await call('gui_discover_capabilities', { tile_id: 'qt' })
    expect(report.isError, report.text).toBe(false)
    expect(report.json).toMatchObject({ app_name: 'featherpad', toolkit: 'qt5', schema_available: false })
    const caps = report.json?.capabilities as { menus: Array<{ name: string }>; shortcuts: Array<{ keys: string; action: string; category: string; source: string }> }
    expect(caps.menus.map((menu) => menu.name)).toEqual(['File', 'Edit', 'Options', 'Search', 'Help'])
    expect(caps.shortcuts).toContainEqual(expect.objectContaining({ keys: 'Ctrl+S', action: 'Save', category: 'file', source: 'discovered' }))
    expect(caps.shortcuts).toContainEqual(expect.objectContaining({ keys: 'Ctrl+F', action: 'Find', category: 'search', source: 'discovered' }))
    // Qt's own, from the toolkit: Alt shows the menu bar's mnemonics.
    expect(caps.shortcuts).toContainEqual(expect.objectContaining({ keys: 'Alt', source: 'toolkit' }))
  })
})
