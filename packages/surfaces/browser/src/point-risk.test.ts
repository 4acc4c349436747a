import { type Layout, type UiNode, sealFrame } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { BROWSER_ACTIONS } from './browser-actions.js'
import { riskAtPoint } from './point-risk.js'

describe('the risk of a click at a point of the view', () => {
  // Scrolled 300 down: a point of the view is 300 above the same point of the page.
  const layout: Layout = { page: { x: 0, y: 300, width: 800, height: 600 }, list: { x: 0, y: 320, width: 400, height: 200 }, wipe: { x: 10, y: 340, width: 80, height: 24 }, help: { x: 10, y: 400, width: 80, height: 20 } }
  const tree: UiNode = {
    id: 'page',
    kind: 'box',
    role: 'document',
    children: [{ id: 'list', kind: 'box', role: 'generic', children: [{ id: 'wipe', kind: 'box', role: 'button', name: 'Delete all' }, { id: 'help', kind: 'box', role: 'link', name: 'Help' }] }],
  }
  const frame = sealFrame({
    surface: 'browser-1',
    route: 'http://127.0.0.1:9/',
    tree,
    layout,
    state: {},
    contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click' || c.id === 'click_at'),
    targets: [{ contract: 'click', nodeId: 'list' }, { contract: 'click', nodeId: 'wipe', risk: 'destructive' }, { contract: 'click', nodeId: 'help', risk: 'external' }],
  })

  it('is the highest of the targets drawn there, in the view\'s coordinates', () => {
    expect(riskAtPoint(frame, { x: 20, y: 50 })?.risk).toBe('destructive')
    expect(riskAtPoint(frame, { x: 20, y: 105 })?.risk).toBe('external')
    // Inside the list's box alone: a click there is the list's, read.
    expect(riskAtPoint(frame, { x: 300, y: 50 })?.risk).toBe('read')
  })

  it('is nothing where no target is drawn: the action\'s own risk stands', () => {
    expect(riskAtPoint(frame, { x: 600, y: 50 })).toBeNull()
    // (20, 350) of the view is (20, 650) of the page: nothing to act on is drawn there.
    expect(riskAtPoint(frame, { x: 20, y: 350 })).toBeNull()
  })
})
