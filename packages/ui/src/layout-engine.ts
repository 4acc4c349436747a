import { type Layout, type NodeKind, type NodeStyle, TesseraError, type UiNode } from '@tessera/protocol'
import Yoga, { Direction, Display, type MeasureFunction, MeasureMode, type Node as YogaNode } from 'yoga-layout'
import { isHidden } from '@tessera/protocol'
import { type TextSize, fontMetrics, measureText } from './text-measure.js'
import { applyStyle } from './yoga-style.js'
import { LAYOUT_PRECISION, round } from './layout-precision.js'

export { LAYOUT_PRECISION, round }

export interface Viewport {
  width: number
  height: number
}

/**
 * A layout engine that keeps its yoga nodes between calls, matched by node id. A surface
 * snapshots again after every action, and the new tree mostly repeats the last one: only
 * nodes that changed are created or reconfigured, yoga re-lays out only the dirty path,
 * and only nodes yoga moved are read back. On a 10,000-node tree that is roughly ten
 * times faster than a fresh layout, which pays for every node crossing into WebAssembly
 * and for the full flexbox pass.
 */
export interface LayoutEngine {
  /** Absolute bounds of every node, rounded to LAYOUT_PRECISION decimals, keyed by id. */
  layout(tree: UiNode, viewport: Viewport): Layout
  /** Frees every yoga node the engine holds. Further calls to layout() start from scratch. */
  dispose(): void
  /** Yoga nodes currently held; 0 after dispose(). */
  readonly size: number
}

/** Output coordinates are rounded to this many decimals so float noise never reaches a frame hash. */

/**
 * Pixel snapping is off: yoga would round a text node narrower than the width its text was
 * measured at, and the renderers, re-wrapping at the laid-out width, would then break
 * lines differently from the layout. Rounding happens once, on the way out.
 */
const config = Yoga.Config.create()
config.setPointScaleFactor(0)

/** What the engine remembers about one node, to tell what changed since last time. */
interface Entry {
  readonly yoga: YogaNode
  readonly kind: NodeKind
  style: NodeStyle | undefined
  hidden: boolean
  /** The text, font size and line height its measure function was built for; undefined when it has none. */
  measured: MeasuredText | undefined
  /** The yoga children, in order, exactly as attached right now. */
  children: Entry[]
  /** Layout relative to the parent as last read from yoga; reread only when yoga reports a new layout. */
  left: number
  top: number
  width: number
  height: number
}

interface MeasuredText {
  text: string
  fontSize: number | undefined
  lineHeight: number | undefined
}

/** The tree in pre-order, with each node's parent index (-1 for the root) and subtree size. */
interface FlatTree {
  nodes: UiNode[]
  parents: number[]
  /** Nodes in the subtree rooted here, itself included: a node's first child is at index + 1, its next sibling at index + size. */
  sizes: number[]
}

export function createLayoutEngine(): LayoutEngine {
  let entries = new Map<string, Entry>()

  const freeAll = (extra: Iterable<Entry>): void => {
    const all = new Set<Entry>(entries.values())
    for (const entry of extra) all.add(entry)
    // Freeing a yoga node detaches it from its owner and orphans its children, so any order is safe.
    for (const entry of all) entry.yoga.free()
    entries = new Map()
  }

  return {
    layout(tree, viewport) {
      checkViewport(viewport)
      const flat = flatten(tree)
      const next = new Map<string, Entry>()
      let ordered: Entry[]
      try {
        ordered = reconcile(flat, entries, next)
      } catch (error) {
        // A half-applied update cannot be trusted; start over next time rather than leak or mislay.
        freeAll(next.values())
        throw error
      }
      entries = next
      const root = ordered[0] as Entry
      root.yoga.calculateLayout(viewport.width, viewport.height, Direction.LTR)
      return readLayout(flat, ordered)
    },
    dispose() {
      freeAll([])
    },
    get size() {
      return entries.size
    },
  }
}

function flatten(tree: UiNode): FlatTree {
  const nodes: UiNode[] = []
  const parents: number[] = []
  const sizes: number[] = []
  const seen = new Set<string>()
  const visit = (node: UiNode, parent: number): void => {
    // Layouts are records keyed by id; "__proto__" would rewrite the record's prototype instead.
    if (typeof node.id !== 'string' || node.id.length === 0 || node.id === '__proto__') {
      throw new TesseraError('invalid_frame', `expected a non-empty node id, found ${JSON.stringify(node.id) ?? 'undefined'}`, {
        expected: 'non-empty string other than "__proto__"',
        found: typeof node.id === 'string' ? node.id : typeof node.id,
      })
    }
    if (seen.has(node.id)) {
      throw new TesseraError('invalid_frame', `expected unique node ids, found "${node.id}" twice while laying out`, {
        id: node.id,
      })
    }
    seen.add(node.id)
    const index = nodes.length
    nodes.push(node)
    parents.push(parent)
    sizes.push(1)
    const children = node.children
    if (children !== undefined) for (let i = 0; i < children.length; i++) visit(children[i] as UiNode, index)
    sizes[index] = nodes.length - index
  }
  visit(tree, -1)
  return { nodes, parents, sizes }
}

/**
 * Brings the yoga tree in line with `flat`, moving entries from `previous` to `next`.
 * Returns the entries in the order of `flat.nodes`. The order of the steps is what keeps
 * yoga from aborting (it kills the whole WebAssembly instance if a child that still has
 * an owner is inserted, or a node with a measure function gets a child): detach, then
 * reconfigure, then free, then attach.
 */
function reconcile(flat: FlatTree, previous: Map<string, Entry>, next: Map<string, Entry>): Entry[] {
  const { nodes } = flat

  // 1. Match every node to a retained entry of the same kind, or create one.
  const ordered: Entry[] = []
  const created: boolean[] = []
  for (const node of nodes) {
    const kept = previous.get(node.id)
    const entry = kept !== undefined && kept.kind === node.kind ? kept : newEntry(node.kind)
    next.set(node.id, entry)
    ordered.push(entry)
    created.push(entry !== kept)
  }

  // 2. Which entries get a different child list. Most keep theirs, so the comparison walks
  //    the flat tree in place and only allocates a list for entries that change.
  const relinked: Array<{ entry: Entry; children: Entry[] }> = []
  for (let i = 0; i < nodes.length; i++) {
    const entry = ordered[i] as Entry
    if (!childrenMatch(flat, ordered, i, entry.children)) relinked.push({ entry, children: childEntries(flat, ordered, i) })
  }

  // 3. Detach the children of every entry whose child list changes.
  for (const { entry } of relinked) {
    for (const child of entry.children) entry.yoga.removeChild(child.yoga)
    entry.children = []
  }

  // 4. Style and text, only where they changed. After detaching, because a node may only
  //    get a measure function once it has no children; before freeing anything, because
  //    a rejected style throws here and the caller then frees both maps, each node once.
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as UiNode
    configure(ordered[i] as Entry, node, created[i] as boolean)
  }

  // 5. Free what is gone (a node whose id vanished or whose kind changed).
  for (const [id, entry] of previous) {
    if (next.get(id) !== entry) entry.yoga.free()
  }

  // 6. Attach the new child lists.
  for (const { entry, children } of relinked) {
    for (let i = 0; i < children.length; i++) entry.yoga.insertChild((children[i] as Entry).yoga, i)
    entry.children = children
  }
  return ordered
}

function childrenMatch(flat: FlatTree, ordered: Entry[], index: number, current: readonly Entry[]): boolean {
  const end = index + (flat.sizes[index] as number)
  let child = index + 1
  let k = 0
  for (; child < end; child += flat.sizes[child] as number, k++) {
    if (current[k] !== ordered[child]) return false
  }
  return k === current.length
}

function childEntries(flat: FlatTree, ordered: Entry[], index: number): Entry[] {
  const end = index + (flat.sizes[index] as number)
  const children: Entry[] = []
  for (let child = index + 1; child < end; child += flat.sizes[child] as number) children.push(ordered[child] as Entry)
  return children
}

function newEntry(kind: NodeKind): Entry {
  return {
    yoga: Yoga.Node.createWithConfig(config),
    kind,
    style: undefined,
    hidden: false,
    measured: undefined,
    children: [],
    left: 0,
    top: 0,
    width: 0,
    height: 0,
  }
}

function configure(entry: Entry, node: UiNode, fresh: boolean): void {
  const hidden = isHidden(node)
  if (fresh) {
    if (node.style !== undefined) applyStyle(entry.yoga, node.style, node.id)
    if (hidden) entry.yoga.setDisplay(Display.None)
  } else if (hidden !== entry.hidden || !sameStyle(entry.style, node.style)) {
    // Styles are replaced whole: configure a scratch node from nothing, then copy it over,
    // so properties the new style no longer sets really are unset.
    const scratch = Yoga.Node.createWithConfig(config)
    try {
      if (node.style !== undefined) applyStyle(scratch, node.style, node.id)
      if (hidden) scratch.setDisplay(Display.None)
      entry.yoga.copyStyle(scratch)
    } finally {
      scratch.free()
    }
  }
  entry.style = node.style
  entry.hidden = hidden

  // Only leaves may measure: yoga aborts if a node with a measure function gets a child.
  const wantsMeasure = node.kind === 'text' && (node.children === undefined || node.children.length === 0)
  if (!wantsMeasure) {
    if (entry.measured !== undefined) {
      entry.yoga.unsetMeasureFunc()
      entry.measured = undefined
    }
    return
  }
  const text = node.text ?? ''
  const fontSize = node.style?.fontSize
  const lineHeight = node.style?.lineHeight
  const measured = entry.measured
  if (measured !== undefined && measured.text === text && measured.fontSize === fontSize && measured.lineHeight === lineHeight) {
    return
  }
  entry.yoga.setMeasureFunc(textMeasureFunc(text, node.style))
  // A new measure function does not invalidate yoga's cached size by itself.
  entry.yoga.markDirty()
  entry.measured = { text, fontSize, lineHeight }
}

/** Yoga asks the same question more than once per pass; the last answer is kept. */
function textMeasureFunc(text: string, style: NodeStyle | undefined): MeasureFunction {
  const metrics = fontMetrics(style)
  let lastWidth = Number.NaN
  let lastSize: TextSize = { width: 0, height: 0 }
  return (width, widthMode) => {
    const maxWidth = widthMode === MeasureMode.Undefined ? Number.POSITIVE_INFINITY : width
    if (maxWidth !== lastWidth) {
      lastSize = measureText(text, maxWidth, metrics)
      lastWidth = maxWidth
    }
    return lastSize
  }
}

/**
 * Absolute bounds from yoga's relative ones. Yoga flags every node it lays out again; an
 * unflagged node kept its size and its place in its parent, so its cached numbers stand
 * and the four calls into WebAssembly are skipped — most of a repeated layout's cost.
 *
 * Hidden subtrees are not read at all. Yoga zeroes them when it first meets them, but
 * never lays them out again (their nodes stay dirty, so later edits inside them do not
 * even propagate), which would leave stale or NaN numbers there. A hidden node sits at
 * its parent's origin with no size, and so does everything inside it — exactly what a
 * fresh layout reports.
 */
function readLayout(flat: FlatTree, ordered: Entry[]): Layout {
  const count = flat.nodes.length
  const absX = new Float64Array(count)
  const absY = new Float64Array(count)
  const inHidden = new Uint8Array(count)
  const layout: Layout = {}
  for (let i = 0; i < count; i++) {
    const entry = ordered[i] as Entry
    const id = (flat.nodes[i] as UiNode).id
    const parent = flat.parents[i] as number
    const parentX = parent >= 0 ? (absX[parent] as number) : 0
    const parentY = parent >= 0 ? (absY[parent] as number) : 0
    if (entry.hidden || (parent >= 0 && inHidden[parent] === 1)) {
      inHidden[i] = 1
      absX[i] = parentX
      absY[i] = parentY
      layout[id] = { x: round(parentX), y: round(parentY), width: 0, height: 0 }
      continue
    }
    const yoga = entry.yoga
    if (yoga.hasNewLayout()) {
      entry.left = yoga.getComputedLeft()
      entry.top = yoga.getComputedTop()
      entry.width = yoga.getComputedWidth()
      entry.height = yoga.getComputedHeight()
      yoga.markLayoutSeen()
      if (!Number.isFinite(entry.left + entry.top + entry.width + entry.height)) {
        throw new TesseraError('internal', `layout produced non-finite bounds for node "${id}"`, {
          nodeId: id,
          expected: 'finite numbers',
          found: { left: String(entry.left), top: String(entry.top), width: String(entry.width), height: String(entry.height) },
        })
      }
    }
    const x = parentX + entry.left
    const y = parentY + entry.top
    absX[i] = x
    absY[i] = y
    layout[id] = { x: round(x), y: round(y), width: round(entry.width), height: round(entry.height) }
  }
  return layout
}

function sameEntries(a: readonly Entry[], b: readonly Entry[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Apps rebuild style objects on every render, so identity alone would miss most matches. */
function sameStyle(a: NodeStyle | undefined, b: NodeStyle | undefined): boolean {
  if (a === b) return true
  if (a === undefined || b === undefined) return false
  const keysA = Object.keys(a)
  if (keysA.length !== Object.keys(b).length) return false
  for (const key of keysA) if (a[key] !== b[key]) return false
  return true
}


function checkViewport(viewport: Viewport): void {
  const { width, height } = viewport
  if (!Number.isFinite(width) || !Number.isFinite(height) || width < 0 || height < 0) {
    throw new TesseraError(
      'invalid_request',
      `expected a viewport with finite, non-negative width and height, found ${width}×${height}`,
      { expected: 'finite width ≥ 0 and height ≥ 0', found: { width: String(width), height: String(height) } },
    )
  }
}
