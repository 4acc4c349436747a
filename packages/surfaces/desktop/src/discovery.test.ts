import type { Frame } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import type { AccessibleNode } from './atspi-tree.js'
import { type DiscoveryHost, discoverCapabilities } from './discovery.js'

let serial = 0
function node(role: string, name: string, more: Partial<AccessibleNode> = {}): AccessibleNode {
  return { ref: { bus: ':1.1', path: `/n/${++serial}` }, role, name, description: '', states: new Set(['sensitive', 'showing', 'visible']), interfaces: new Set(), extents: undefined, text: undefined, value: undefined, actions: [], keyBindings: [], children: [], folded: false, ...more }
}

const emptyFrame = { tree: { id: 'desktop', kind: 'box', children: [] }, contracts: [], targets: [] } as unknown as Frame

/**
 * The cascade's logic over accessibles as a toolkit reports them: LibreOffice fills a menu's
 * items only once it is opened, so deep discovery opens it, reads it and closes it; an item is
 * never run.
 */
describe('discoverCapabilities', () => {
  it('opens a menu whose items say nothing, reads them, closes it, and runs no item but one that opens a dialog', async () => {
    const unread = node('menu', 'Format', { actions: ['click'], children: [node('menu item', 'Bold'), node('menu item', 'Cells...')] })
    const read = node('menu', 'File', { actions: ['click'], children: [node('menu item', 'Save', { actions: ['click'], keyBindings: ['s;<Alt>f:s;<Primary>s'] }), node('menu item', 'Send...', { actions: ['click'] })] })
    const app = node('application', 'demo', { children: [node('frame', 'Demo', { children: [node('menu bar', '', { children: [read, unread] })] })] })
    const opened: string[] = []
    const dialogsRun: string[] = []
    let closed = 0
    // "Cells..." opens a dialog with a Close button; Escape closes it.
    const dialog = node('dialog', 'Format Cells', { children: [node('push button', 'Close', { actions: ['click'] }), node('push button', 'OK', { actions: ['click'] })] })
    let dialogOpen = false
    const host: DiscoveryHost = {
      walkAll: async () => ({ apps: [dialogOpen ? { ...app, children: [...app.children, dialog] } : app], count: 8, truncated: false }),
      walkUnder: async (menu) => ({ ...menu, children: [node('menu item', 'Bold', { actions: ['click'], keyBindings: ['b;<Alt>o:b;<Primary>b'] }), node('menu item', 'Cells...', { actions: ['click'], keyBindings: [';;<Primary>1'] })] }),
      frame: async () => emptyFrame,
      open: async (what) => {
        opened.push(what.name)
      },
      closeAll: async () => {
        closed++
        dialogOpen = false
      },
      openDialog: async (item) => {
        dialogsRun.push(item.name)
        dialogOpen = true
      },
      toolkit: async () => 'vcl',
    }
    const shallow = await discoverCapabilities(host, 'demo', undefined, false)
    expect(opened).toEqual([])
    expect(shallow.explored).toMatchObject({ menus_opened: 0, menu_items: 4 })
    const deep = await discoverCapabilities(host, 'demo', undefined, true)
    expect(opened).toEqual(['Format'])
    // The menu closed, then the one dialog an item ending in "..." promises: Save and Bold never run.
    expect(dialogsRun).toEqual(['Cells...'])
    expect(closed).toBe(2)
    expect(deep.capabilities.dialogs).toEqual([{ menu: 'Format › Cells...', title: 'Format Cells', controls: ['push button "Close"', 'push button "OK"'] }])
    expect(deep.explored).toMatchObject({ menus_opened: 1, dialogs_opened: 1, menu_items: 4 })
    const keys = deep.capabilities.shortcuts.filter((s) => s.source === 'discovered').map((s) => `${String(s.keys)} ${String(s.action)}`)
    expect(keys).toEqual(['Ctrl+S Save', 'Ctrl+B Bold', 'Ctrl+1 Cells...'])
    expect(deep.exploration_confidence).toBeGreaterThan(shallow.exploration_confidence)
  })
})
