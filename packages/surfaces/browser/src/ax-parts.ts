import type { CDPSession } from 'playwright-core'
import type { DomRanges, Rect } from './dom-ranges.js'
import type { LongTexts, TextFocus } from './long-texts.js'
import type { AxNode } from './page-capture.js'
import { drawSkipped } from './skipped-content.js'

/**
 * A document with more elements than this (about 15,000 DOM nodes with their texts) has its
 * accessibility tree read in parts: the whole tree of Bash's manual (19,000 elements) is 19 MB
 * of JSON that DevTools carries at about 8 MB/s, while an agent reads what is in view and a
 * few folds.
 */
export const PARTIAL_READ_ELEMENTS = 6_000
/** A part that holds at most this many lines is read whole (in view) or left unread whole (out of view): one expansion shows it. */
export const PART_LINES = 200
/** Levels read one round of calls each, below the root; a part this deep is read whole. */
const MAX_LEVELS = 24
/**
 * A node whose children the tree would answer with more nodes than this (see
 * DomRanges.childrenAsked) has them decided from the DOM snapshot instead: Chromium answers
 * the children of a node with every ignored node below them and the children of those (a
 * feed's thousands of bare `div`s under a bare `body`), in time that grows with their square:
 * 0.4 s for 2,000 cards, 56 s for 30,000 (Chromium 156).
 */
const CHILDREN_ASKED_MAX = 2_000
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
 * One document's accessibility tree, read in parts: from the root, level by level only where
 * a part is too big to decide on; a part in view (or wanted) and small enough is read whole
 * in one call, a part out of view is left unread with what the DOM snapshot says it holds
 * (`unread`). Node ids are Chromium's, stable while the tree lives,
 * so the parts fit together.
 */
export async function readAxInParts(session: CDPSession, frameId: string, ranges: DomRanges, viewport: Rect, wanted: PartsWanted, long?: LongTexts): Promise<AxNode[]> {
  const holders = long?.holders ?? []
  // What the page skips drawing (content-visibility: auto, off screen) is drawn where a part of it is wanted: the tree then has it.
  const skipRoots = [...new Set(wanted.indexes.flatMap((index) => ranges.skipRootOf(index) ?? []))]
  const drawn = skipRoots.length === 0 ? new Set<number>() : await drawSkipped(session, frameId, ranges, skipRoots)
  const unseenRoots = ranges.skipRoots.filter((root) => !drawn.has(root))
  /** Whether the tree holds nothing of what this node holds: the page skips drawing it, and nothing here drew it. */
  const unseen = (index: number): boolean => {
    const root = ranges.skipRootOf(index)
    return root !== undefined && !drawn.has(root)
  }
  /** A node of the tree that holds what the page skips: its children are the DOM's, for the walk to open or leave unread. */
  const withDomChildren = (node: AxNode): AxNode => {
    const index = ranges.indexOf(node.backendDOMNodeId)
    if (index === undefined || (node.childIds ?? []).length > 0 || !unseen(index)) return node
    return { ...node, childIds: ranges.children(index).map((child) => String(ranges.backendIdOf(child))) }
  }
  // The root alone, then level by level: asked for its first levels at once, Chromium walks the whole tree all the same (3 s of 20,000 table rows, each time; the root alone, 10 ms once built).
  const root = ((await session.send('Accessibility.getRootAXNode', { frameId })) as { node: AxNode }).node
  const byId = new Map<string, AxNode>()
  const order: AxNode[] = []
  const add = (node: AxNode): void => {
    if (!byId.has(node.nodeId)) order.push(node)
    byId.set(node.nodeId, node)
  }
  add(root)
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
    // Skipped content is not drawn, wherever its placeholder lies: in view only once the page draws it.
    const needed = ranges.holdsAny(index, wanted.indexes) || (ranges.shows(index, view) && !unseen(index))
    // A part that holds what the page skips is opened, not read whole: the tree would answer it empty there.
    if (lines <= PART_LINES) return !needed ? 'unread' : ranges.holdsAny(index, unseenRoots) || unseen(index) ? 'open' : 'read'
    return 'open'
  }
  /**
   * The children of a node the tree would answer slowly (CHILDREN_ASKED_MAX), as the DOM
   * snapshot knows them, each by its DOM node: Chromium names a node of the tree by its DOM
   * node's backend id. Undefined where the tree answers quickly, or a child is no DOM node (a
   * pseudo-element's text): then the tree is asked.
   */
  const domChildren = (node: AxNode): AxNode[] | undefined => {
    const at = ranges.indexOf(node.backendDOMNodeId)
    if (at !== undefined && unseen(at)) {
      // The tree has none of them: the node takes its children from the DOM, each named as the tree would name it.
      const children = ranges.children(at).map((child): AxNode => ({ nodeId: String(ranges.backendIdOf(child)), ignored: false, backendDOMNodeId: ranges.backendIdOf(child), childIds: [] }))
      add({ ...node, childIds: children.map((child) => child.nodeId) })
      return children
    }
    if (at === undefined || ranges.childrenAsked(at, CHILDREN_ASKED_MAX) <= CHILDREN_ASKED_MAX) return undefined
    const ids = node.childIds ?? []
    const children: AxNode[] = []
    for (const id of ids) {
      if (!/^[1-9]\d*$/.test(id) || ranges.indexOf(Number(id)) === undefined) return undefined
      children.push({ nodeId: id, ignored: false, backendDOMNodeId: Number(id), childIds: [] })
    }
    return children
  }
  /**
   * A child known by its DOM node alone: left unread or read whole as any part; else its own
   * node is asked, to be opened at the next level. A text is always there, as the tree's
   * answer would have brought it: read or not, it then stands alone among its siblings, and
   * the parts around it are the same from one capture to the next. Its words are the DOM
   * snapshot's, not asked of the tree: among that many siblings every call costs 12–25 ms, and
   * a block of code of 4,000 lines is tens of thousands of texts.
   */
  const readChild = async (child: AxNode, next: AxNode[]): Promise<void> => {
    const index = ranges.indexOf(child.backendDOMNodeId) as number
    if (ranges.isText(index)) {
      const words = ranges.textOf(index)
      if (words !== undefined) add({ nodeId: child.nodeId, ignored: false, role: { value: 'StaticText' }, name: { value: words }, childIds: [], backendDOMNodeId: child.backendDOMNodeId })
      return
    }
    const decision = decide(child)
    if (decision === 'unread') return add({ ...child, unread: ranges.part(index) })
    // Skipped, and too big to leave unread whole: opened from the DOM at the next level, standing for nothing itself.
    if (decision !== 'read' && unseen(index)) {
      const opened: AxNode = withDomChildren({ ...child, ignored: true, role: { value: 'generic' } })
      add(opened)
      return void next.push(opened)
    }
    const asked = decision === 'read' ? session.send('Accessibility.queryAXTree', { backendNodeId: child.backendDOMNodeId }) : session.send('Accessibility.getPartialAXTree', { backendNodeId: child.backendDOMNodeId, fetchRelatives: false })
    const found = ((await asked.catch(() => ({ nodes: [] }))) as { nodes: AxNode[] }).nodes.map(withDomChildren)
    for (const node of found) add(node)
    const own = found.find((node) => node.nodeId === child.nodeId)
    if (decision !== 'read' && own !== undefined && (own.childIds ?? []).length > 0) next.push(own)
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
        const known = domChildren(node)
        if (known !== undefined) return void (await Promise.all(known.map((child) => readChild(child, next))))
        const children = (await session.send('Accessibility.getChildAXNodes', { id: node.nodeId, frameId }).catch(() => ({ nodes: [] }))) as { nodes: AxNode[] }
        for (const answered of children.nodes) {
          const child = withDomChildren(answered)
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
