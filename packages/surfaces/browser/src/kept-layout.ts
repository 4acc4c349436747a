import type { CDPSession } from 'playwright-core'
import { type ChangeMark, readChangeMark } from './change-mark.js'
import { DomRanges, type SnapshotLayout, type SnapshotNodes } from './dom-ranges.js'
import type { LongTexts } from './long-texts.js'
import type { DomFacts } from './page-capture.js'
import { PLAIN_TEXT_TEST, plainViewStart } from './plain-text-snapshot.js'

/**
 * The layout of a huge top document as one capture read it, for the next capture to reuse.
 * DevTools carries the DOM snapshot of such a page at about 8 MB/s (Bash's manual: 4 MB, half
 * a second), while a scroll moves nothing in it but what is pinned to the view. The page's
 * change watch counts what can lay it out anew (a DOM change, typing, a focus change, an
 * element's own scroll, a load, an animation's end); while that count stands, only
 * the document scrolled, and the kept layout holds once its fixed and sticky elements are
 * placed anew. A page that fakes the count only misleads the outline of itself.
 */
export interface KeptLayout {
  documentKey: string
  /** The page's layout version and element count when the snapshot was taken. */
  version: number
  elements: number
  view: { width: number; height: number }
  nodes: SnapshotNodes
  layout: SnapshotLayout
  strings: readonly string[]
  facts: ReadonlyMap<number, DomFacts>
  ranges: DomRanges
  /** Its texts too long for the accessibility tree. */
  long: LongTexts
  /** Snapshot indexes of the outermost fixed and sticky elements: they move with the view. */
  pinned: readonly number[]
}

/** What the page says of itself before a capture, in one evaluation. */
export interface LayoutProbe {
  elements: number
  /** Null where the change watch is not in the page (it could not say what changed). */
  version: number | null
  scroll: { x: number; y: number }
  /** Characters of text in the body, scripts' included: a quick bound on how long its texts can be. */
  textChars: number
  /** Whether the document is a text file as the browser shows it (see plain-text-snapshot.ts). */
  plain: boolean
  /** Where the document stood in its changes as the capture began; null without the change watch. */
  mark: ChangeMark | null
}

export const LAYOUT_PROBE_EXPRESSION = `[document.getElementsByTagName("*").length, typeof window.__tesseraLayoutVersion === "function" ? window.__tesseraLayoutVersion() : null, window.scrollX, window.scrollY, document.body ? document.body.textContent.length : 0, ${PLAIN_TEXT_TEST}, typeof window.__tesseraChangeMark === "function" ? window.__tesseraChangeMark() : null]`

export function readProbe(value: unknown): LayoutProbe {
  const [elements, version, x, y, textChars, plain, mark] = Array.isArray(value) ? value : []
  return { elements: Number(elements) || 0, version: typeof version === 'number' ? version : null, scroll: { x: Number(x) || 0, y: Number(y) || 0 }, textChars: Number(textChars) || 0, plain: plain === true, mark: readChangeMark(mark) }
}

/** The outermost elements laid out `position: fixed` or `sticky` (the snapshot's styles: cursor, then position). */
export function pinnedElements(nodes: SnapshotNodes, layout: SnapshotLayout, strings: readonly string[]): number[] {
  const fixed = strings.indexOf('fixed')
  const sticky = strings.indexOf('sticky')
  if (layout.styles === undefined || (fixed < 0 && sticky < 0)) return []
  const pinned = new Set<number>()
  for (let l = 0; l < layout.nodeIndex.length; l++) {
    const position = layout.styles[l]?.[1]
    if (position !== undefined && position >= 0 && (position === fixed || position === sticky)) pinned.add(layout.nodeIndex[l] as number)
  }
  const parents = nodes.parentIndex ?? []
  const outermost = (index: number): boolean => {
    for (let p = parents[index] ?? -1; p >= 0; p = parents[p] ?? -1) if (pinned.has(p)) return false
    return true
  }
  return [...pinned].filter(outermost).sort((a, b) => a - b)
}

/**
 * The kept layout, its pinned elements placed where the view now has them, when the page says
 * nothing was laid out anew since it was taken; undefined when a new snapshot is needed.
 */
export async function reuseLayout(kept: KeptLayout | undefined, probe: LayoutProbe, documentKey: string, view: { width: number; height: number }, session: CDPSession): Promise<KeptLayout | undefined> {
  if (kept === undefined || probe.version === null || kept.documentKey !== documentKey || kept.version !== probe.version || kept.elements !== probe.elements) return undefined
  if (kept.view.width !== view.width || kept.view.height !== view.height) return undefined
  // A text file's page has nothing pinned; where its text is in view, the page says again.
  if (kept.long.plain !== undefined) {
    const viewStart = await plainViewStart(session).catch(() => null)
    return viewStart === null ? undefined : { ...kept, long: kept.long.scrolledTo(viewStart) }
  }
  const backendIds = kept.nodes.backendNodeId ?? []
  // Asked together: one round trip for all of them, not one after another.
  const boxes = await Promise.all(kept.pinned.map((index) => session.send('DOM.getBoxModel', { backendNodeId: backendIds[index] as number }).catch(() => null) as Promise<{ model: { border: number[] } } | null>))
  const shifts: Array<{ from: number; to: number; dx: number; dy: number }> = []
  for (const [k, index] of kept.pinned.entries()) {
    const was = kept.facts.get(backendIds[index] as number)?.bounds
    const box = boxes[k] ?? null
    if (box === null || was === undefined) {
      // Drawn now and not then, or the other way round: a new snapshot says where.
      if (box !== null || was !== undefined) return undefined
      continue
    }
    const quad = box.model.border
    // The box model is in the view's coordinates; the snapshot's are the page's.
    const x = Math.min(quad[0] ?? 0, quad[2] ?? 0, quad[4] ?? 0, quad[6] ?? 0) + probe.scroll.x
    const y = Math.min(quad[1] ?? 0, quad[3] ?? 0, quad[5] ?? 0, quad[7] ?? 0) + probe.scroll.y
    if (Math.abs(x - was.x) > 0.5 || Math.abs(y - was.y) > 0.5) shifts.push({ from: index, to: kept.ranges.end(index), dx: x - was.x, dy: y - was.y })
  }
  if (shifts.length === 0) return kept
  const bounds = kept.layout.bounds.map((box, l) => {
    const index = kept.layout.nodeIndex[l] as number
    const shift = shifts.find((s) => index >= s.from && index < s.to)
    return shift === undefined || box === undefined ? box : [(box[0] ?? 0) + shift.dx, (box[1] ?? 0) + shift.dy, box[2] ?? 0, box[3] ?? 0]
  }) as number[][]
  const facts = new Map(kept.facts)
  for (const shift of shifts) {
    for (let index = shift.from; index < shift.to; index++) {
      const id = backendIds[index] as number
      const fact = facts.get(id)
      if (fact?.bounds !== undefined) facts.set(id, { ...fact, bounds: { ...fact.bounds, x: fact.bounds.x + shift.dx, y: fact.bounds.y + shift.dy } })
    }
  }
  const layout = { nodeIndex: kept.layout.nodeIndex, bounds, ...(kept.layout.styles === undefined ? {} : { styles: kept.layout.styles }) }
  return { ...kept, layout, facts, ranges: new DomRanges(kept.nodes, layout, kept.strings) }
}
