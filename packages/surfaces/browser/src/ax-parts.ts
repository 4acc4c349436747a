import type { CDPSession } from 'playwright-core'
import type { DomRanges, Rect } from './dom-ranges.js'
import type { LongTexts, TextFocus } from './long-texts.js'
import type { AxNode } from './page-capture.js'

/**
 * A document with more elements than this (about 15,000 DOM nodes with their texts) has its
 * accessibility tree read in parts: the whole tree of Bash's manual (19,000 elements) is 19 MB
 * of JSON that DevTools carries at about 8 MB/s, while an agent reads what is in view and a
 * few folds.
 */
export const PARTIAL_READ_ELEMENTS = 6_000
/** A part that holds at most this many lines is read whole (in view) or left unread whole (out of view): one expansion shows it. */
export const PART_LINES = 200
/** The tree's first levels, read in one call; below them each level is one round of calls made together. */
const FIRST_DEPTH = 3
/** Where a long text may be near the top: only the root's children at first, since a call that returns a long text's node pays for its lines. */
const FIRST_DEPTH_WITH_LONG_TEXT = 1
const MAX_LEVELS = 24
/** Rendered this far beyond the viewport, a part still counts as in view (a line half scrolled in). */
const VIEW_MARGIN = 100

/** Which parts to read whatever their place: nodes of the DOM snapshot, ascending. */
export interface PartsWanted {
  indexes: readonly number[]
  /** What a find looks for: a long text keeps its lines around the first match. */
  focus?: TextFocus
}

type Decision = 'read' | 'unread' | 'open' | 'done' | 'text'

/**
 * One document's accessibility tree, read in parts: the first levels at once, then level by
 * level only where a part is too big to decide on; a part in view (or wanted) and small
 * enough is read whole in one call, a part out of view is left unread with what the DOM
 * snapshot says it holds (`unread`). Node ids are Chromium's, stable while the tree lives,
 * so the parts fit together.
 */
export async function readAxInParts(session: CDPSession, frameId: string, ranges: DomRanges, viewport: Rect, wanted: PartsWanted, long?: LongTexts): Promise<AxNode[]> {
  const holders = long?.holders ?? []
  const first = (await session.send('Accessibility.getFullAXTree', { frameId, depth: holders.length > 0 ? FIRST_DEPTH_WITH_LONG_TEXT : FIRST_DEPTH })) as { nodes: AxNode[] }
  const byId = new Map<string, AxNode>()
  const order: AxNode[] = []
  const add = (node: AxNode): void => {
    if (!byId.has(node.nodeId)) order.push(node)
    byId.set(node.nodeId, node)
  }
  for (const node of first.nodes) add(node)
  const frontier = (): AxNode[] => [...byId.values()].filter((node) => (node.childIds ?? []).some((id) => !byId.has(id)))
  const view = { x: viewport.x - VIEW_MARGIN, y: viewport.y - VIEW_MARGIN, width: viewport.width + 2 * VIEW_MARGIN, height: viewport.height + 2 * VIEW_MARGIN }
  const decide = (node: AxNode): Decision => {
    const role = node.role?.value
    if (role === 'StaticText' || role === 'InlineTextBox') return 'done'
    const index = ranges.indexOf(node.backendDOMNodeId)
    if (index === undefined) return 'open'
    const lines = ranges.lines(index)
    if (!ranges.drawn(index)) return 'read'
    // A long text is never asked of the tree: its holder, with nothing to act on in it, is read from the DOM; above it, level by level.
    if (ranges.holdsAny(index, holders)) return long?.isHolder(index) === true && ranges.part(index).actions === 0 ? 'text' : 'open'
    // A part of no lines out of view (a table's separator row) stays unread too: a call each would be most of a capture's calls.
    const needed = ranges.holdsAny(index, wanted.indexes) || ranges.shows(index, view)
    if (lines <= PART_LINES) return needed ? 'read' : 'unread'
    return 'open'
  }
  let pending = frontier()
  for (let level = 0; pending.length > 0 && level < MAX_LEVELS; level++) {
    const next: AxNode[] = []
    await Promise.all(
      pending.map(async (node) => {
        const decision = level === MAX_LEVELS - 1 ? 'read' : decide(node)
        if (decision === 'done') return
        if (decision === 'text') {
          const index = ranges.indexOf(node.backendDOMNodeId) as number
          const held = long?.textIn(index, ranges.end(index), { view: viewport, focus: wanted.focus })
          if (held === undefined) return add({ ...node, childIds: [] })
          const text: AxNode = { nodeId: `dom-text-${held.backendNodeId}`, ignored: false, role: { value: 'StaticText' }, name: { value: held.text }, childIds: [], backendDOMNodeId: held.backendNodeId, ...(held.excerpt === undefined ? {} : { excerpt: held.excerpt }) }
          add({ ...node, childIds: [text.nodeId] })
          add(text)
          return
        }
        if (decision === 'unread') {
          const index = ranges.indexOf(node.backendDOMNodeId) as number
          add({ ...node, childIds: [], unread: ranges.part(index) })
          return
        }
        if (decision === 'read' && node.backendDOMNodeId !== undefined) {
          const part = (await session.send('Accessibility.queryAXTree', { backendNodeId: node.backendDOMNodeId }).catch(() => ({ nodes: [] }))) as { nodes: AxNode[] }
          for (const found of part.nodes) add(found)
          return
        }
        const children = (await session.send('Accessibility.getChildAXNodes', { id: node.nodeId, frameId }).catch(() => ({ nodes: [] }))) as { nodes: AxNode[] }
        for (const child of children.nodes) {
          add(child)
          if ((child.childIds ?? []).length > 0) next.push(child)
        }
      }),
    )
    pending = next.filter((node) => (node.childIds ?? []).some((id) => !byId.has(id)))
  }
  // The root first, as a whole tree's answer has it; the rest in the order met.
  return order.map((node) => byId.get(node.nodeId) as AxNode)
}
