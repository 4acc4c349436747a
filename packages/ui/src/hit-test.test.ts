import type { Bounds, UiNode } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'
import { buildFrame } from './frame.js'
import { box, text } from './elements.js'
import { findNode, hitTest, nodeAtPath } from '@tessera/protocol'
import { computeLayout } from './layout.js'
import { finalizeTree } from './node-ids.js'
import { generateTree } from './test-support/generated-tree.js'

const centre = (bounds: Bounds) => ({ x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 })

function isInside(node: UiNode, ancestor: UiNode): boolean {
  return findNode(ancestor, node.id) === node
}

describe('hitTest', () => {
  const tree = finalizeTree(
    box({ style: { width: 200, height: 200 } }, [
      box({ key: 'panel', style: { height: 100, padding: 10 } }, [text({ key: 'label', text: 'Hello' })]),
      box({ key: 'overlay', style: { position: 'absolute', left: 50, top: 50, width: 100, height: 100 } }),
      box({ key: 'ghost', states: { hidden: true }, style: { position: 'absolute', left: 0, top: 0, width: 200, height: 200 } }),
      box({ key: 'popout', style: { position: 'absolute', left: 150, top: 150, width: 10, height: 10 } }, [
        box({ key: 'tip', style: { position: 'absolute', left: 20, top: 20, width: 10, height: 10 } }),
      ]),
    ]),
  )
  const layout = computeLayout(tree, { width: 200, height: 200 })

  it('returns the deepest node under the point', () => {
    expect(hitTest(tree, layout, { x: 12, y: 12 })?.id).toBe('root/panel/label')
    expect(hitTest(tree, layout, { x: 5, y: 5 })?.id).toBe('root/panel')
  })

  it('lets later siblings cover earlier ones', () => {
    expect(hitTest(tree, layout, { x: 60, y: 60 })?.id).toBe('root/overlay')
  })

  it('skips hidden nodes, and finds children that overflow their parent', () => {
    expect(hitTest(tree, layout, { x: 190, y: 120 })?.id).toBe('root')
    expect(hitTest(tree, layout, { x: 175, y: 175 })?.id).toBe('root/popout/tip')
  })

  it('uses half-open bounds and misses outside the tree', () => {
    expect(hitTest(tree, layout, { x: 150, y: 120 })?.id).toBe('root')
    expect(hitTest(tree, layout, { x: 149.99, y: 120 })?.id).toBe('root/overlay')
    expect(hitTest(tree, layout, { x: 500, y: 500 })).toBeNull()
    expect(hitTest(tree, layout, { x: Number.NaN, y: 0 })).toBeNull()
  })

  it('finds nodes by id and by path', () => {
    expect(findNode(tree, 'root/panel/label')?.text).toBe('Hello')
    expect(findNode(tree, 'nope')).toBeNull()
    expect(nodeAtPath(tree, [0, 0])?.id).toBe('root/panel/label')
    expect(nodeAtPath(tree, [])?.id).toBe('root')
    expect(nodeAtPath(tree, [9])).toBeNull()
  })

  it('hits every action target at the centre of its bounds (small tree)', () => {
    const small = finalizeTree(
      box({ style: { flexDirection: 'row', padding: 4, gap: 4 } }, [
        box({ semantic: { agentAction: agentAction({ id: 'a', kind: 'k', title: 'A', risk: 'read' }) } }, [text('Alpha')]),
        box({ semantic: { agentAction: agentAction({ id: 'b', kind: 'k', title: 'B', risk: 'write' }) }, style: { padding: 6 } }),
      ]),
    )
    const frame = buildFrame({ surface: 's', route: '/', tree: small, state: {}, viewport: { width: 300, height: 40 } })
    expect(frame.targets).toHaveLength(2)
    for (const target of frame.targets) {
      const owner = findNode(frame.tree, target.nodeId as string) as UiNode
      const hit = hitTest(frame.tree, frame.layout, centre(frame.layout[owner.id] as Bounds))
      expect(hit && isInside(hit, owner)).toBe(true)
    }
  })

  it('hits every visible action target at its centre in a generated ~500-node tree', () => {
    const generated = generateTree(500, 7)
    const big = finalizeTree(generated.root)
    const frame = buildFrame({ surface: 'big', route: '/', tree: big, state: {}, viewport: { width: 1280, height: 800 } })
    expect(frame.targets).toHaveLength(generated.actionCount)
    let checked = 0
    for (const target of frame.targets) {
      const owner = findNode(frame.tree, target.nodeId as string)
      const bounds = frame.layout[target.nodeId as string] as Bounds
      if (bounds.width === 0 || bounds.height === 0) continue // inside a hidden subtree
      const hit = hitTest(frame.tree, frame.layout, centre(bounds))
      expect(hit, `action ${target.contract}`).not.toBeNull()
      expect(isInside(hit as UiNode, owner as UiNode), `action ${target.contract} hit ${hit?.id}`).toBe(true)
      checked++
    }
    expect(checked).toBeGreaterThan(50)
  })
})
