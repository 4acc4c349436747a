import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'
import { box, text } from './elements.js'
import { buildFrame } from './frame.js'
import { renderHtml } from './render-html.js'

const open = agentAction({ id: 'open', kind: 'navigate', title: 'Open', risk: 'read' })

function html(tree: ReturnType<typeof box>): string {
  return renderHtml(buildFrame({ surface: 's', route: '/', state: {}, viewport: { width: 300, height: 300 }, tree }))
}

function roleOf(markup: string, id: string): string | null {
  const tag = new RegExp(`<[a-z]+ data-node-id="${id}"[^>]*>`).exec(markup)?.[0] ?? ''
  return / role="([^"]+)"/.exec(tag)?.[1] ?? null
}

describe('ARIA roles in a rendered frame', () => {
  it('keeps a list and its items when they form one', () => {
    const markup = html(box({ key: 'l', role: 'list', name: 'Things' }, [text({ key: 'a', role: 'listitem', text: 'A' }), text({ key: 'b', role: 'listitem', text: 'B' })]))
    expect(roleOf(markup, 'l')).toBe('list')
    expect(roleOf(markup, 'l/a')).toBe('listitem')
  })

  it('drops roles whose structure is not there (a row outside a table, a list of buttons) and never nests buttons', () => {
    const markup = html(
      box({ key: 'root' }, [
        box({ key: 'l', role: 'list', semantic: { agentAction: open } }, [box({ key: 'r', role: 'row', name: 'c-1', semantic: { agentAction: open } }, [text('c-1')])]),
        box({ key: 'orphan', role: 'row' }, [text('x')]),
      ]),
    )
    // A button cannot hold buttons: the clickable list is a group, its rows the buttons.
    expect(roleOf(markup, 'root/l')).toBe('group')
    expect(markup).toContain('<div data-node-id="root/l"')
    expect(markup).toContain('<button data-node-id="root/l/r"')
    expect(roleOf(markup, 'root/l/r')).toBeNull()
    expect(roleOf(markup, 'root/orphan')).toBeNull()
    // The frame's own role stays readable.
    expect(markup).toContain('data-node-id="root/l/r" data-role="row"')
  })

  it("names a button by its visible words unless its label contains them", () => {
    const markup = html(box({ key: 'root' }, [box({ key: 'b', name: 'Claim c-1', semantic: { agentAction: open } }, [text('c-1'), text('€1,250')]), box({ key: 'c', name: 'Open c-1 now', semantic: { agentAction: open } }, [text('c-1')])]))
    expect(markup).not.toMatch(/data-node-id="root\/b"[^>]*aria-label/)
    expect(markup).toMatch(/data-node-id="root\/c"[^>]*aria-label="Open c-1 now"/)
  })

  it('writes no role ARIA does not define, and gives a heading a level', () => {
    const markup = html(box({ key: 'root' }, [text({ key: 't', role: 'text', text: 'x' }), text({ key: 'h', role: 'heading', text: 'Title' })]))
    expect(roleOf(markup, 'root/t')).toBeNull()
    expect(roleOf(markup, 'root/h')).toBe('heading')
    expect(markup).toMatch(/data-node-id="root\/h"[^>]* aria-level="2"/)
  })
})
