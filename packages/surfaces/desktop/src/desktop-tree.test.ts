import { NodeLedger } from '@tessera/kit'
import { describe, expect, it } from 'vitest'
import type { AccessibleNode } from './atspi-tree.js'
import { buildDesktopTree, cleanName } from './desktop-tree.js'

function node(role: string, name: string, more: Partial<AccessibleNode> = {}): AccessibleNode {
  return { ref: { bus: ':1.5', path: `/a/${role}/${name}` }, role, name, description: '', states: new Set(['sensitive', 'showing']), interfaces: new Set(), extents: undefined, text: undefined, value: undefined, actions: [], keyBindings: [], children: [], folded: false, ...more }
}

describe('a desktop app as a frame', () => {
  it('names widgets the way a person reads them', () => {
    expect(cleanName('4 4')).toBe('4')
    expect(cleanName('GtkMenuButton')).toBeUndefined()
    expect(cleanName('  Save  as ')).toBe('Save as')
    expect(cleanName('Save Save as')).toBe('Save Save as')
    // What no person sees is not read out: a document's cell can hide words in tag characters.
    expect(cleanName(`Total${String.fromCodePoint(0xe0041, 0xe0042)}\u200b`)).toBe('Total')
    expect(cleanName('\u200b\u200b')).toBeUndefined()
  })

  it('drops structure, says a caption once, and makes pressable and editable widgets targets with their risk', () => {
    const deleteButton = node('push button', 'GtkButton', { actions: ['click'], children: [node('label', 'Delete all', { text: 'Delete all' })] })
    const field = node('text', '', { states: new Set(['sensitive', 'showing', 'editable']), interfaces: new Set(['org.a11y.atspi.EditableText']), text: '12', extents: { x: 10, y: 20, width: 100, height: 30 } })
    const app = node('application', 'notes', { children: [node('frame', 'Notes', { children: [node('filler', '', { children: [deleteButton, field] })] })] })
    const built = buildDesktopTree({ apps: [app], count: 6, truncated: false }, new NodeLedger(), 'Notes')
    const window = built.tree.children?.[0]?.children?.[0]
    expect(window).toMatchObject({ role: 'window', name: 'Notes' })
    // The filler is gone; the button took its label's words, and the label is not said again.
    expect(window?.children?.map((child) => [child.role, child.name, child.value])).toEqual([['button', 'Delete all', undefined], ['textbox', undefined, '12']])
    expect(window?.children?.[0]?.children).toBeUndefined()
    const [press, type] = built.targets
    expect(press).toMatchObject({ contract: 'click', risk: 'destructive', enabled: true })
    expect(type).toMatchObject({ contract: 'type', enabled: true })
    expect(built.layout[type?.nodeId ?? '']).toEqual({ x: 10, y: 20, width: 100, height: 30 })
  })
})
