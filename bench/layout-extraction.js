// Layout + action extraction on a 10,000-node tree; the peer is yoga alone laying out the
// same tree shape (what Tessera adds on top of the layout engine it uses).
import Yoga from 'yoga-layout'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { sealFrame } from '@tessera/protocol'
import { BASELINE, baselineTree } from './surface-kit.js'
import { agentAction, box, computeLayout, createLayoutEngine, finalizeTree, text } from '@tessera/ui'
import { fmt, percentile, sample } from './stats.js'

function bigTree(rows, perRow, changedRow = -1) {
  const action = (r) => agentAction({ id: `open-${r}`, kind: 'navigate', title: `Open row ${r}`, risk: 'read' })
  return box({ key: 'root', style: { width: 1280, flexDirection: 'column' } }, Array.from({ length: rows }, (_, r) =>
    box({ key: `row-${r}`, role: 'row', style: { flexDirection: 'row', height: 24, gap: 4 }, semantic: r % 10 === 0 ? { agentAction: action(r) } : undefined },
      Array.from({ length: perRow }, (_, c) => text({ key: `c${c}`, text: r === changedRow && c === 0 ? `edited ${r}` : `cell ${r}:${c}` })))))
}

function countNodes(node) {
  return 1 + (node.children ?? []).reduce((n, child) => n + countNodes(child), 0)
}

function yogaOnly(rows, perRow) {
  const root = Yoga.Node.create()
  root.setWidth(1280)
  root.setFlexDirection(Yoga.FLEX_DIRECTION_COLUMN)
  for (let r = 0; r < rows; r += 1) {
    const row = Yoga.Node.create()
    row.setFlexDirection(Yoga.FLEX_DIRECTION_ROW)
    row.setHeight(24)
    row.setGap(Yoga.GUTTER_COLUMN, 4)
    for (let c = 0; c < perRow; c += 1) {
      const cell = Yoga.Node.create()
      cell.setWidth(60)
      cell.setHeight(17.5)
      row.insertChild(cell, c)
    }
    root.insertChild(row, r)
  }
  root.calculateLayout(1280, undefined, Yoga.DIRECTION_LTR)
  let sum = 0
  const walk = (node, x, y) => {
    const l = node.getComputedLayout()
    sum += l.width
    for (let i = 0; i < node.getChildCount(); i += 1) walk(node.getChild(i), x + l.left, y + l.top)
  }
  walk(root, 0, 0)
  root.freeRecursive()
  return sum
}

export async function benchLayoutExtraction() {
  const rows = 1000
  const perRow = 9
  const tree = finalizeTree(bigTree(rows, perRow))
  const nodes = countNodes(tree)
  let actions = 0
  const ours = await sample(() => {
    const layout = computeLayout(tree, { width: 1280, height: 800 })
    actions = sealFrame({ surface: 'bench', route: '/', tree, layout, state: {} }).targets.length
  }, { iterations: 30, warmup: 5 })
  const peer = await sample(() => yogaOnly(rows, perRow), { iterations: 30, warmup: 5 })
  // The path an app takes on every re-render: a freshly built tree with one text changed,
  // laid out by the engine the runtime keeps between frames.
  const engine = createLayoutEngine()
  const trees = Array.from({ length: 40 }, (_, i) => finalizeTree(bigTree(rows, perRow, i)))
  const warm = await sample((i) => {
    const next = trees[i % trees.length]
    actions = sealFrame({ surface: 'bench', route: '/', tree: next, layout: engine.layout(next, { width: 1280, height: 800 }), state: {} }).targets.length
  }, { iterations: 30, warmup: 10 })
  engine.dispose()
  // The whole frame an app builds on every render (layout, targets, the id), here and in the
  // commit before the surface kit, whose id hashed the geometry too.
  const { buildFrame } = await import('@tessera/ui')
  const before = await import(pathToFileURL(join(baselineTree(), 'packages', 'ui', 'dist', 'index.js')).href)
  const wholeFrame = async (ui) => {
    const retained = ui.createLayoutEngine()
    const times = await sample((i) => {
      ui.buildFrame({ surface: 'bench', route: '/', tree: trees[i % trees.length], state: {}, viewport: { width: 1280, height: 800 }, layoutEngine: retained })
    }, { iterations: 20, warmup: 5 })
    retained.dispose()
    return percentile(times, 50)
  }
  const frameNow = await wholeFrame({ buildFrame, createLayoutEngine })
  const frameBefore = await wholeFrame(before)
  const p50 = percentile(ours, 50)
  const p50Warm = percentile(warm, 50)
  return {
    name: `Layout + action extraction (sealFrame: targets and the meaning id), ${nodes.toLocaleString('en-US')}-node tree (${actions} actions)`,
    budget: '≤ 20 ms (re-render through the retained engine)',
    ok: p50Warm <= 20,
    rows: [
      ['re-render, retained engine, one text changed: p50 (ms)', fmt(p50Warm, 2)],
      ['re-render, retained engine: p99 (ms)', fmt(percentile(warm, 99), 2)],
      ['cold layout + extraction p50 (ms)', fmt(p50, 2)],
      ['peer: yoga alone, cold, same shape, p50 (ms)', fmt(percentile(peer, 50), 2)],
      ['ratio cold ours / cold yoga alone', fmt(p50 / percentile(peer, 50), 2)],
      [`whole frame an app builds per render (buildFrame), before (${BASELINE}), p50 (ms)`, fmt(frameBefore, 2)],
      ['whole frame an app builds per render (buildFrame), now, p50 (ms)', fmt(frameNow, 2)],
      ['ratio now / before', fmt(frameNow / frameBefore, 2)],
    ],
  }
}
