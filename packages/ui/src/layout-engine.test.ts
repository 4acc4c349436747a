import type { NodeStyle, UiNode } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { box, text } from './elements.js'
import { createLayoutEngine } from './layout-engine.js'
import { computeLayout } from './layout.js'
import { finalizeTree } from './node-ids.js'
import { generateTree, seededRandom } from './test-support/generated-tree.js'

const viewport = { width: 800, height: 600 }

function allNodes(tree: UiNode, out: UiNode[] = []): UiNode[] {
  out.push(tree)
  for (const child of tree.children ?? []) allNodes(child, out)
  return out
}

const STYLES: NodeStyle[] = [
  { padding: 3, flexDirection: 'row' },
  { paddingX: 7, flexDirection: 'column', gap: 2 },
  { width: '50%', alignItems: 'center' },
  { position: 'absolute', left: 5, top: 9, width: 30 },
  { flexGrow: 1, flexWrap: 'wrap', flexDirection: 'row' },
  { height: 12, margin: 1, justifyContent: 'space-between' },
  { fontSize: 20, maxWidth: 90 },
]

function pickStyle(random: () => number): NodeStyle {
  return STYLES[Math.floor(random() * STYLES.length)] as NodeStyle
}

/** One random edit of the kinds a re-rendering app makes, applied to a deep copy. */
function mutate(tree: UiNode, random: () => number, serial: number): UiNode {
  const copy = structuredClone(tree)
  const nodes = allNodes(copy)
  const pick = () => nodes[Math.floor(random() * nodes.length)] as UiNode
  const containers = nodes.filter((node) => node.kind === 'box')
  const pickContainer = () => containers[Math.floor(random() * containers.length)] as UiNode
  const roll = random()
  const target = pick()
  if (roll < 0.15 && target.kind === 'text') target.text = `${target.text ?? ''} more words ${serial}`
  else if (roll < 0.25) target.states = { ...target.states, hidden: !(target.states?.hidden ?? false) }
  else if (roll < 0.4) target.style = { ...target.style, ...pickStyle(random) }
  else if (roll < 0.5) delete target.style
  else if (roll < 0.65) {
    const parent = pickContainer()
    const fresh: UiNode = random() < 0.5 ? { id: `new-${serial}`, kind: 'text', text: `new ${serial}` } : { id: `new-${serial}`, kind: 'box', style: { height: 7 } }
    parent.children = [...(parent.children ?? [])]
    parent.children.splice(Math.floor(random() * (parent.children.length + 1)), 0, fresh)
  } else if (roll < 0.75) {
    // Delete a subtree.
    for (const node of nodes) {
      const index = node.children?.findIndex((child) => child === target) ?? -1
      if (index >= 0) node.children?.splice(index, 1)
    }
  } else if (roll < 0.87) {
    // Move a subtree somewhere else (never into itself).
    const inside = new Set(allNodes(target))
    const destination = containers.filter((node) => !inside.has(node))
    const to = destination[Math.floor(random() * destination.length)]
    if (to !== undefined && target !== copy) {
      for (const node of nodes) {
        const index = node.children?.findIndex((child) => child === target) ?? -1
        if (index >= 0) node.children?.splice(index, 1)
      }
      to.children = [...(to.children ?? []), target]
    }
  } else if (roll < 0.95) {
    pickContainer().children?.reverse()
  } else if (target !== copy) {
    // Same id, different kind: the engine must replace the yoga node, not reuse it.
    target.kind = target.kind === 'text' ? 'box' : 'text'
    if (target.kind === 'text') {
      delete target.children
      target.text = 'was a box'
    }
  }
  return copy
}

describe('createLayoutEngine', () => {
  it('matches a fresh layout after every edit of a long random edit sequence', () => {
    // UI_FUZZ_SEEDS=60 runs a much longer search when changing the engine.
    const seeds = Number(process.env.UI_FUZZ_SEEDS ?? 3)
    for (let seed = 1; seed <= seeds; seed++) {
      const random = seededRandom(seed)
      const engine = createLayoutEngine()
      let tree = finalizeTree(generateTree(120, seed).root)
      for (let step = 0; step < 150; step++) {
        const width = random() < 0.1 ? 500 + Math.floor(random() * 500) : viewport.width
        expect(engine.layout(tree, { width, height: 600 })).toEqual(computeLayout(tree, { width, height: 600 }))
        expect(engine.size).toBe(allNodes(tree).length)
        tree = mutate(tree, random, step)
      }
      engine.dispose()
      expect(engine.size).toBe(0)
    }
  })

  it('re-lays out a rebuilt identical tree to identical bounds', () => {
    const engine = createLayoutEngine()
    const build = () => finalizeTree(generateTree(300, 9).root)
    const first = engine.layout(build(), viewport)
    expect(engine.layout(build(), viewport)).toEqual(first)
    engine.dispose()
  })

  it('picks up a text change in an otherwise untouched tree', () => {
    const engine = createLayoutEngine()
    const render = (label: string) => finalizeTree(box({ style: { alignItems: 'flex-start' } }, [text(label), text('after')]))
    expect(engine.layout(render('ab'), viewport)['root/text0']?.width).toBeCloseTo(2 * 8.4)
    const changed = engine.layout(render('abcd'), viewport)
    expect(changed['root/text0']?.width).toBeCloseTo(4 * 8.4)
    expect(changed).toEqual(computeLayout(render('abcd'), viewport))
    engine.dispose()
  })

  it('recovers from a rejected style: frees everything, then lays out from scratch', () => {
    const engine = createLayoutEngine()
    engine.layout(finalizeTree(box({}, [text('a'), text('b')])), viewport)
    expect(engine.size).toBe(3)
    const bad = finalizeTree(box({}, [text('a'), box({ style: { flexDirection: 'diagonal' as never } })]))
    expect(() => engine.layout(bad, viewport)).toThrow(/flexDirection/)
    expect(engine.size).toBe(0)
    const good = finalizeTree(box({}, [text('a')]))
    expect(engine.layout(good, viewport)).toEqual(computeLayout(good, viewport))
    engine.dispose()
  })

  it('rejects duplicate ids before touching its retained nodes', () => {
    const engine = createLayoutEngine()
    const tree = finalizeTree(box({}, [text('a')]))
    engine.layout(tree, viewport)
    const duplicate: UiNode = { id: 'root', kind: 'box', children: [{ id: 'x', kind: 'box' }, { id: 'x', kind: 'box' }] }
    expect(() => engine.layout(duplicate, viewport)).toThrow(/"x" twice/)
    expect(engine.layout(tree, viewport)).toEqual(computeLayout(tree, viewport))
    engine.dispose()
  })
})
