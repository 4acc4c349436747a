import type { TextExcerpt, UnreadPart } from '@tessera/protocol'
import type { CDPSession, Frame as PlaywrightFrame, Page } from 'playwright-core'
import { PARTIAL_READ_ELEMENTS, readAxInParts } from './ax-parts.js'
import type { ChangeMark } from './change-mark.js'
import { DomRanges, SNAPSHOT_STYLES, type SnapshotNodes, maySkipContent } from './dom-ranges.js'
import { LONG_TEXT_GATE_CHARS, LongTexts, type PlainTextLayout, type SnapshotTextBoxes, type TextFocus } from './long-texts.js'
import { plainTextSnapshot } from './plain-text-snapshot.js'
import { type KeptLayout, LAYOUT_PROBE_EXPRESSION, type LayoutProbe, pinnedElements, readProbe, reuseLayout } from './kept-layout.js'

/** One node of `Accessibility.getFullAXTree`, as far as the frame uses it. */
export interface AxNode {
  nodeId: string
  ignored: boolean
  role?: { value?: unknown }
  name?: { value?: unknown }
  value?: { value?: unknown }
  description?: { value?: unknown }
  /** Each with its value, or the nodes it relates to (`activedescendant`, `labelledby`). */
  properties?: Array<{ name: string; value: { value?: unknown; relatedNodes?: Array<{ backendDOMNodeId?: number }> } }>
  childIds?: string[]
  backendDOMNodeId?: number
  /** Not read: a part of a huge document out of view, with what its DOM holds (see readAxInParts). */
  unread?: UnreadPart
  /** Of a long text read from the DOM: the part of it the node's name holds (LongTexts.textIn). */
  excerpt?: TextExcerpt
}

/** What the DOM snapshot says of one element: its tag, attributes, bounds and whether it listens for clicks. */
export interface DomFacts {
  tag: string
  attributes: ReadonlyMap<string, string>
  /** In page coordinates (the top document's, scroll included). */
  bounds?: { x: number; y: number; width: number; height: number }
  clickable: boolean
  /**
   * Where a pointer cursor starts: the page styles this element, and not its parent, as
   * something to click. A list whose items a handler on the list answers (jQuery UI's
   * autocomplete, React's root listener) marks its items only this way.
   */
  pointer?: true
  /** The document an iframe element shows, when it is in this process. */
  contentDocument?: number
  /** An input's value as it is now (what a person sees in it), where the page set aria-valuenow, which may lag it. */
  inputValue?: string
  /** The file or symbol an image or an SVG `<use>` draws, by its name (`trash` of `/img/trash.png`, `icon-trash` of `#icon-trash`): what an icon says when no class does. */
  icon?: string
  /** The class names and icons of what it holds two levels down, controls aside: the icon a button draws (`<i class="fa-trash">`, `<use href="#icon-trash">`), which the accessibility tree leaves out. */
  heldMarkup?: string[]
}

/** One document of the page: the top one or an iframe's, with its accessibility tree and DOM facts. */
export interface CapturedDocument {
  /** Frame id and loader id: an element's identity is its backend node id within this. */
  key: string
  frameId: string
  url: string
  ax: AxNode[]
  dom: ReadonlyMap<number, DomFacts>
  /** The iframe element that shows this document: its document's key and backend node id. */
  owner?: { documentKey: string; backendNodeId: number }
  /** The session that reaches this document's nodes (an out-of-process iframe has its own). */
  session: CDPSession
  /** For a document of an out-of-process iframe: that iframe, whose place on the page offsets its coordinates. */
  remoteFrame?: PlaywrightFrame
  /** For a document read in parts: its DOM as ranges, to tell which unread parts say some words. */
  ranges?: DomRanges
  /** For a document read in parts: the parts an agent expanded, each the elements it groups, kept as one part. */
  parts?: ReadonlyArray<readonly number[]>
  /** Its texts too long for the tree, where it may hold some: a find looks through them whole. */
  long?: LongTexts
}

export interface PageCapture {
  url: string
  title: string
  /** The visible part of the top document, in page coordinates. */
  viewport: { x: number; y: number; width: number; height: number }
  documents: CapturedDocument[]
  /** Where the top document stood in its changes before the capture read it. */
  mark: ChangeMark | null
}

interface FrameTree {
  frame: { id: string; loaderId: string; url: string }
  childFrames?: FrameTree[]
}

interface RareStrings {
  index: number[]
  value: number[]
}

interface SnapshotDocument {
  documentURL: number
  frameId: number
  scrollOffsetX?: number
  scrollOffsetY?: number
  nodes: SnapshotNodes & { contentDocumentIndex?: { index: number[]; value: number[] }; inputValue?: RareStrings }
  layout: { nodeIndex: number[]; bounds: number[][]; styles?: number[][] }
  textBoxes?: SnapshotTextBoxes
  /** Of a text file's page read without a DOM snapshot: where its text lies, in place of text boxes. */
  plain?: PlainTextLayout
}

interface Snapshot {
  documents: SnapshotDocument[]
  strings: string[]
}

/** Where pages keep a tooltip's words instead of `title` (Bootstrap moves `title` to the second or third once its tooltip is set up). */
export const TOOLTIP_ATTRIBUTES = ['data-tooltip', 'data-original-title', 'data-bs-original-title', 'data-title']

/** Elements that are controls of their own: the markup inside one is its own, not its holder's. */
const CONTROL_TAGS = new Set(['button', 'a', 'input', 'select', 'textarea'])
/** How far down an element's markup is read: a button, its icon's wrapper, the icon. */
const HELD_MARKUP_DEPTH = 2

/** Elements that draw an icon from a file or a symbol, and the attributes that name it. */
const ICON_SOURCES: Readonly<Record<string, readonly string[]>> = { img: ['src'], input: ['src'], image: ['href', 'xlink:href'], use: ['href', 'xlink:href'] }
/** The most of an icon's name kept: a file's name, not a data URL's payload. */
const ICON_NAME_CHARS = 80

/** The name of the icon an address draws: a symbol's fragment, or a file's name less its extension; none for inline data. */
function iconName(address: string): string | undefined {
  if (/^\s*data:/i.test(address)) return undefined
  const fragment = /#([^#]+)$/.exec(address)?.[1]
  const file = fragment ?? /([^/?#]+?)(?:\.[a-z0-9]{1,5})?(?:[?#].*)?$/i.exec(address)?.[1]
  return file === undefined || file === '' ? undefined : file.slice(0, ICON_NAME_CHARS)
}

/** Gives each element the class names and icons of what it holds, HELD_MARKUP_DEPTH levels down, controls aside. */
function holdMarkup(facts: ReadonlyMap<number, DomFacts>, backendIds: readonly number[], parents: readonly number[]): void {
  const at = (index: number): DomFacts | undefined => facts.get(backendIds[index] as number)
  for (let i = 0; i < backendIds.length; i++) {
    const own = at(i)
    const classes = [own?.attributes.get('class'), own?.icon].filter((name) => name !== undefined && name.trim() !== '').join(' ')
    if (own === undefined || classes === '' || CONTROL_TAGS.has(own.tag)) continue
    let holderIndex = parents[i] ?? -1
    for (let depth = 1; depth <= HELD_MARKUP_DEPTH && holderIndex >= 0; depth++) {
      const holder = at(holderIndex)
      if (holder === undefined) break
      ;(holder.heldMarkup ??= []).push(classes)
      if (CONTROL_TAGS.has(holder.tag)) break
      holderIndex = parents[holderIndex] ?? -1
    }
  }
}

/** Where pages name what an element does for their own code and tests (`data-testid="delete-button"`): markup, as a class is. */
export const NAMING_ATTRIBUTES = ['data-testid', 'data-test', 'data-test-id', 'data-qa', 'data-cy', 'data-action']

/** Attributes the frame reads; the rest of an element's attributes are never copied out of the snapshot. */
const KEPT_ATTRIBUTES = new Set([...NAMING_ATTRIBUTES, 'role', 'type', 'name', 'id', 'class', 'autocomplete', 'href', 'action', 'formaction', 'method', 'target', 'data-agent-action', 'data-agent-risk', 'data-agent-title', 'data-agent-sensitive', 'data-method', 'for', 'data-turbo-method', 'download', 'draggable', 'accept', 'multiple', 'inputmode', 'contenteditable', 'tabindex', 'aria-sort', 'aria-haspopup', 'aria-valuenow', ...TOOLTIP_ATTRIBUTES])

function loaderIds(tree: FrameTree, into = new Map<string, { loaderId: string; url: string }>()): Map<string, { loaderId: string; url: string }> {
  into.set(tree.frame.id, { loaderId: tree.frame.loaderId, url: tree.frame.url })
  for (const child of tree.childFrames ?? []) loaderIds(child, into)
  return into
}

function rareIndex(rare: { index: number[] } | undefined): Set<number> {
  return new Set(rare?.index ?? [])
}

/** The elements (by snapshot index) whose cursor is a pointer while their nearest drawn ancestor's is not. */
function pointerStarts(doc: SnapshotDocument, strings: readonly string[]): Set<number> {
  const starts = new Set<number>()
  const styles = doc.layout.styles
  const pointer = strings.indexOf('pointer')
  if (styles === undefined || pointer < 0) return starts
  const cursor = new Map<number, boolean>()
  for (let l = 0; l < doc.layout.nodeIndex.length; l++) cursor.set(doc.layout.nodeIndex[l] as number, styles[l]?.[0] === pointer)
  const parents = doc.nodes.parentIndex ?? []
  for (const [i, isPointer] of cursor) {
    if (!isPointer) continue
    // An element drawn as its children only (display: contents) has no layout: look past it.
    let p = parents[i] ?? -1
    while (p >= 0 && !cursor.has(p)) p = parents[p] ?? -1
    if (p < 0 || cursor.get(p) !== true) starts.add(i)
  }
  return starts
}

/** The DOM facts of each document of one snapshot, bounds offset into page coordinates. */
function domFacts(snapshot: Snapshot, offset: { x: number; y: number }): Array<{ frameId: string; url: string; facts: Map<number, DomFacts>; scroll: { x: number; y: number } }> {
  const out = snapshot.documents.map((doc) => {
    const facts = new Map<number, DomFacts>()
    const names = doc.nodes.nodeName ?? []
    const backendIds = doc.nodes.backendNodeId ?? []
    const attributes = doc.nodes.attributes ?? []
    const clickable = rareIndex(doc.nodes.isClickable)
    const pointers = pointerStarts(doc, snapshot.strings)
    const contentDocs = new Map<number, number>()
    const rare = doc.nodes.contentDocumentIndex
    if (rare !== undefined) rare.index.forEach((nodeIndex, i) => contentDocs.set(nodeIndex, rare.value[i] as number))
    const inputValues = new Map<number, number>()
    doc.nodes.inputValue?.index.forEach((nodeIndex, i) => inputValues.set(nodeIndex, doc.nodes.inputValue?.value[i] as number))
    for (let i = 0; i < backendIds.length; i++) {
      const tag = snapshot.strings[names[i] as number] ?? ''
      // Of a text node only its bounds matter; comments and the document carry nothing the frame reads.
      if (tag.startsWith('#') && tag !== '#text') continue
      const attrs = new Map<string, string>()
      const flat = attributes[i] ?? []
      const iconAttributes = ICON_SOURCES[tag.toLowerCase()]
      let icon: string | undefined
      for (let a = 0; a + 1 < flat.length; a += 2) {
        const key = (snapshot.strings[flat[a] as number] ?? '').toLowerCase()
        if (KEPT_ATTRIBUTES.has(key)) attrs.set(key, snapshot.strings[flat[a + 1] as number] ?? '')
        if (iconAttributes?.includes(key) === true) icon = iconName(snapshot.strings[flat[a + 1] as number] ?? '') ?? icon
      }
      const contentDocument = contentDocs.get(i)
      // A spin button's aria-valuenow is what the page last said of it; typing into it changes the value first (jQuery UI's spinner).
      // Without one Chromium says 0, for a field that is empty or holds what was typed: the field's text is its value, empty too.
      const saysValue = tag.toLowerCase() === 'input' && (attrs.has('aria-valuenow') || attrs.get('role')?.trim().toLowerCase() === 'spinbutton')
      const typed = saysValue ? inputValues.get(i) : undefined
      const inputValue = !saysValue ? undefined : typed === undefined ? '' : (snapshot.strings[typed] ?? '')
      facts.set(backendIds[i] as number, { tag: tag.toLowerCase(), attributes: attrs, clickable: clickable.has(i), ...(icon === undefined ? {} : { icon }), ...(pointers.has(i) ? { pointer: true as const } : {}), ...(contentDocument === undefined ? {} : { contentDocument }), ...(inputValue === undefined ? {} : { inputValue }) })
    }
    holdMarkup(facts, backendIds, doc.nodes.parentIndex ?? [])
    return { doc, facts, byIndex: backendIds }
  })
  // Bounds: each document's own; a child document is placed inside its iframe element below.
  const result = out.map(({ doc, facts, byIndex }) => {
    for (let l = 0; l < doc.layout.nodeIndex.length; l++) {
      const fact = facts.get(byIndex[doc.layout.nodeIndex[l] as number] as number)
      const box = doc.layout.bounds[l]
      if (fact === undefined || box === undefined || fact.bounds !== undefined) continue
      fact.bounds = { x: box[0] ?? 0, y: box[1] ?? 0, width: box[2] ?? 0, height: box[3] ?? 0 }
    }
    return { frameId: snapshot.strings[doc.frameId] ?? '', url: snapshot.strings[doc.documentURL] ?? '', facts, scroll: { x: doc.scrollOffsetX ?? 0, y: doc.scrollOffsetY ?? 0 } }
  })
  const place = (index: number, origin: { x: number; y: number }, seen: Set<number>): void => {
    if (seen.has(index)) return
    seen.add(index)
    const entry = result[index]
    if (entry === undefined) return
    for (const fact of entry.facts.values()) {
      if (fact.bounds !== undefined) fact.bounds = { ...fact.bounds, x: fact.bounds.x + origin.x, y: fact.bounds.y + origin.y }
    }
    for (const fact of entry.facts.values()) {
      if (fact.contentDocument === undefined || fact.bounds === undefined) continue
      const child = result[fact.contentDocument]
      if (child === undefined) continue
      place(fact.contentDocument, { x: fact.bounds.x - child.scroll.x, y: fact.bounds.y - child.scroll.y }, seen)
    }
  }
  place(0, offset, new Set())
  return result
}

/** The page's sessions: its own, and one per out-of-process iframe (another site's). */
export class PageSessions {
  readonly #page: Page
  /** The last layout of the top document, when it was read in parts (see KeptLayout). */
  keptLayout: KeptLayout | undefined
  /**
   * The page's URL at the last capture, and whether its top document's tree was read whole. A
   * capture of the same URL whose tree was read whole then asks for its DOM snapshot and tree
   * together with the probe that says how big it is: one round trip sooner (6 ms on a small
   * page, 17 on one whose animations keep the renderer busy). A new URL waits for the probe: a
   * huge document's whole tree, or a long text's, takes seconds, and it is read in parts.
   */
  #last: { url: string; whole: boolean } | undefined
  #main: Promise<CDPSession> | null = null
  readonly #frames = new WeakMap<PlaywrightFrame, Promise<CDPSession | null>>()

  constructor(page: Page) {
    this.#page = page
  }

  /** Whether the page is where the last capture read the top document's tree whole. */
  smallAsLast(): boolean {
    return this.#last !== undefined && this.#last.url === this.#page.url() && this.#last.whole
  }

  /** How this capture reads the top document's tree. */
  measured(whole: boolean): void {
    this.#last = { url: this.#page.url(), whole }
  }

  /** A capture that did not end: the next one waits for the probe (the tree asked early may be what took so long: a text that grew long since). */
  forget(): void {
    this.#last = undefined
  }

  main(): Promise<CDPSession> {
    this.#main ??= this.#page
      .context()
      .newCDPSession(this.#page)
      .then(async (session) => {
        await session.send('Accessibility.enable')
        await session.send('DOM.enable')
        // Page events tell of windows the page opens (Page.windowOpen) before they exist.
        await session.send('Page.enable')
        return session
      })
    return this.#main
  }

  /** The session of an out-of-process iframe, or null for a frame its parent's session reaches. */
  ofFrame(frame: PlaywrightFrame): Promise<CDPSession | null> {
    let known = this.#frames.get(frame)
    if (known === undefined) {
      known = this.#page
        .context()
        .newCDPSession(frame)
        .then(async (session) => {
          await session.send('Accessibility.enable')
          await session.send('DOM.enable')
          return session
        })
        // Playwright refuses a frame that shares its parent's process: that is the answer, not a failure.
        .catch(() => null)
      this.#frames.set(frame, known)
    }
    return known
  }

  /** Every out-of-process iframe's session with the frame id it knows itself by. */
  async remote(): Promise<Array<{ session: CDPSession; frame: PlaywrightFrame }>> {
    const frames = this.#page.frames().filter((frame) => frame !== this.#page.mainFrame() && !frame.isDetached())
    const sessions = await Promise.all(frames.map(async (frame) => ({ frame, session: await this.ofFrame(frame) })))
    return sessions.filter((entry): entry is { frame: PlaywrightFrame; session: CDPSession } => entry.session !== null)
  }
}

/** What of a document to read whatever its place: parts (runs of siblings an agent expanded, searched or acts in), by their elements. */
export type WantedParts = (documentKey: string) => { parts: ReadonlyArray<readonly number[]>; focus?: TextFocus }

/**
 * One session's documents: its DOM snapshot and the accessibility tree of each of its frames,
 * in bulk; a huge top document's tree in parts (what `view` shows, what is wanted, the rest
 * unread).
 */
async function captureSession(session: CDPSession, offset: { x: number; y: number }, view: { width: number; height: number }, wanted: WantedParts, kept?: PageSessions, remoteFrame?: PlaywrightFrame): Promise<{ documents: CapturedDocument[]; scroll: { x: number; y: number }; mark: ChangeMark | null }> {
  // How big the top document is decides how its tree is read, and whether its last layout holds; the page says both in one quick call.
  const noProbe: LayoutProbe = { elements: 0, version: null, scroll: { x: 0, y: 0 }, textChars: 0, plain: false, mark: null }
  // The root frame's tree: without a frame id, the session's own top document.
  const full = (frameId?: string): Promise<{ nodes: AxNode[] }> => session.send('Accessibility.getFullAXTree', frameId === undefined ? {} : { frameId }).catch(() => ({ nodes: [] })) as Promise<{ nodes: AxNode[] }>
  // The cursor says what the page styles as clickable; the position, what a scroll moves with the view (KeptLayout); content-visibility, what is the page's though not laid out (DomRanges).
  const domSnapshot = (): Promise<Snapshot> => session.send('DOMSnapshot.captureSnapshot', { computedStyles: [...SNAPSHOT_STYLES], includeDOMRects: false }) as Promise<Snapshot>
  // Asked before anything of the page is read: the changes it counts as of now are all in what the capture reads (see ChangeMark).
  const probed = remoteFrame !== undefined ? Promise.resolve(noProbe) : session.send('Runtime.evaluate', { expression: LAYOUT_PROBE_EXPRESSION, returnByValue: true }).then((answer) => readProbe(answer.result.value), () => noProbe)
  const frameTree = session.send('Page.getFrameTree') as Promise<{ frameTree: FrameTree }>
  const early = kept?.smallAsLast() === true ? { snapshot: domSnapshot(), top: full() } : undefined
  early?.snapshot.catch(() => undefined)
  const [tree, probe] = await Promise.all([frameTree, probed])
  const loaders = loaderIds(tree.frameTree)
  const topFrame = tree.frameTree.frame.id
  const huge = probe.elements > PARTIAL_READ_ELEMENTS
  // Enough text for a long one: the DOM snapshot, asked first, says how its texts are laid out (a tree asked early is read whole all the same).
  const inParts = huge || (early === undefined && probe.textChars > LONG_TEXT_GATE_CHARS)
  kept?.measured(!inParts)
  // It grew past reading whole since: the tree asked early goes unread (its DOM snapshot serves all the same).
  if (huge && early !== undefined) await early.top
  const keyOf = (frameId: string): string => `${frameId}/${loaders.get(frameId)?.loaderId ?? ''}`
  // A huge document alone in its process (no iframe to place) that only scrolled since: its last layout, no new snapshot.
  const reused = inParts && kept !== undefined && loaders.size === 1 ? await reuseLayout(kept.keptLayout, probe, keyOf(topFrame), view, session) : undefined
  if (kept !== undefined) kept.keptLayout = reused
  if (reused !== undefined) {
    const asked = wanted(reused.documentKey)
    const indexes = partIndexes(reused.ranges, asked.parts)
    const ax = await readAxInParts(session, topFrame, reused.ranges, { ...probe.scroll, ...view }, { indexes, focus: asked.focus }, reused.long)
    const url = loaders.get(topFrame)?.url ?? ''
    return { documents: [{ key: reused.documentKey, frameId: topFrame, url, ax, dom: reused.facts, session, ranges: reused.ranges, parts: asked.parts, long: reused.long }], scroll: probe.scroll, mark: probe.mark }
  }
  // Asked together with the DOM snapshot: the renderer answers one after the other, but no round trip waits on another.
  const axTrees = new Map([...loaders.keys()].filter((frameId) => !inParts || frameId !== topFrame).map((frameId) => [frameId, early !== undefined && frameId === topFrame ? early.top : full(frameId)]))
  // A text file's page, alone in its tab: its few elements and where its text lies, without a text box per line.
  const plain = inParts && probe.plain && remoteFrame === undefined && loaders.size === 1 ? await plainTextSnapshot(session, topFrame, loaders.get(topFrame)?.url ?? '') : null
  const snapshot: Snapshot = plain ?? (await (early?.snapshot ?? domSnapshot()))
  const docs = domFacts(snapshot, offset)
  const topDoc = snapshot.documents[0]
  const owners = new Map<number, { documentKey: string; backendNodeId: number }>()
  for (const doc of docs) {
    for (const [backendNodeId, fact] of doc.facts) {
      if (fact.contentDocument !== undefined) owners.set(fact.contentDocument, { documentKey: keyOf(doc.frameId), backendNodeId })
    }
  }
  const documents = await Promise.all(
    docs.map(async (doc, index) => {
      let ranges: DomRanges | undefined
      let expanded: ReadonlyArray<readonly number[]> | undefined
      let ax: AxNode[]
      // Its texts' layout, where they may be long: how this capture reads the tree, and, where the tree was asked early, how the next one does (a log that grew long since).
      const mayBeLong = inParts || probe.textChars > LONG_TEXT_GATE_CHARS
      const long = !mayBeLong || index !== 0 || doc.frameId !== topFrame || topDoc === undefined ? undefined : topDoc.plain !== undefined ? LongTexts.ofPlainText(topDoc.nodes, snapshot.strings, topDoc.plain) : LongTexts.of(topDoc.nodes, topDoc.layout, topDoc.textBoxes, snapshot.strings)
      if (long !== undefined && !huge) kept?.measured(!long.needsParts)
      if (inParts && long !== undefined && topDoc !== undefined && (huge || long.needsParts)) {
        const parts = new DomRanges(topDoc.nodes, topDoc.layout, snapshot.strings)
        const asked = wanted(keyOf(doc.frameId))
        const indexes = partIndexes(parts, asked.parts)
        ax = await readAxInParts(session, doc.frameId, parts, { ...doc.scroll, ...view }, { indexes, focus: asked.focus }, long)
        ranges = parts
        expanded = asked.parts
        if (kept !== undefined && probe.version !== null && loaders.size === 1) {
          kept.keptLayout = { documentKey: keyOf(doc.frameId), version: probe.version, elements: probe.elements, view, nodes: topDoc.nodes, layout: topDoc.layout, strings: snapshot.strings, facts: doc.facts, ranges: parts, long, pinned: pinnedElements(topDoc.nodes, topDoc.layout, snapshot.strings) }
        }
      } else {
        // A page that skips drawing some of its content (content-visibility: auto, off screen) has none of it in its whole tree: read in parts, it is there, folded.
        const skipping = index === 0 && doc.frameId === topFrame && remoteFrame === undefined && topDoc !== undefined && maySkipContent(topDoc.layout, snapshot.strings) ? new DomRanges(topDoc.nodes, topDoc.layout, snapshot.strings) : undefined
        if (skipping?.skipsAny === true) {
          const asked = wanted(keyOf(doc.frameId))
          const indexes = partIndexes(skipping, asked.parts)
          ax = await readAxInParts(session, doc.frameId, skipping, { ...doc.scroll, ...view }, { indexes, focus: asked.focus }, long)
          ranges = skipping
          expanded = asked.parts
        } else ax = (await (axTrees.get(doc.frameId) ?? full(doc.frameId))).nodes
      }
      const owner = owners.get(index)
      return { key: keyOf(doc.frameId), frameId: doc.frameId, url: doc.url, ax, dom: doc.facts, session, ...(owner === undefined ? {} : { owner }), ...(remoteFrame === undefined ? {} : { remoteFrame }), ...(ranges === undefined ? {} : { ranges }), ...(expanded === undefined ? {} : { parts: expanded }), ...(long === undefined ? {} : { long }) }
    }),
  )
  // Trees of frames this process does not hold (another site's) were asked for nothing: let them settle unread.
  await Promise.allSettled(axTrees.values())
  return { documents, scroll: docs[0]?.scroll ?? { x: 0, y: 0 }, mark: probe.mark }
}

/** The snapshot indexes of the elements of these parts, ascending: what readAxInParts reads whatever its place. */
function partIndexes(ranges: DomRanges, parts: ReadonlyArray<readonly number[]>): number[] {
  return parts.flat().flatMap((backendNodeId) => ranges.indexOf(backendNodeId) ?? []).sort((a, b) => a - b)
}

/**
 * The whole page in a handful of round trips: per process, one DOM snapshot (every document's
 * elements, attributes and layout) and one accessibility tree per document — never a call per
 * node. Out-of-process iframes are captured through their own sessions and hung under their
 * iframe elements.
 */
export async function capturePage(page: Page, sessions: PageSessions, wanted: WantedParts = () => ({ parts: [] })): Promise<PageCapture> {
  const main = await sessions.main()
  const size = page.viewportSize() ?? { width: 1280, height: 720 }
  // No wait for a rendering step first: the accessibility tree brings itself up to date when
  // asked (a node unhidden or renamed a moment before reads as it is now, measured on
  // Chromium 156), and a navigation or an action has already waited for a quiet DOM.
  const [top, remote, title] = await Promise.all([captureSession(main, { x: 0, y: 0 }, size, wanted, sessions), sessions.remote(), page.title().catch(() => '')])
  const documents = [...top.documents]
  for (const { session, frame } of remote) {
    const element = await frame.frameElement().catch(() => null)
    const box = element === null ? null : await element.boundingBox().catch(() => null)
    await element?.dispose().catch(() => undefined)
    // The element's box is in viewport coordinates; page coordinates add the top document's scroll.
    const offset = box === null ? { x: 0, y: 0 } : { x: box.x + top.scroll.x, y: box.y + top.scroll.y }
    const captured = await captureSession(session, offset, size, wanted, undefined, frame).catch(() => null)
    if (captured === null || captured.documents.length === 0) continue
    const root = captured.documents[0] as CapturedDocument
    const owner = await main.send('DOM.getFrameOwner', { frameId: root.frameId }).catch(() => null)
    const ownerDoc = owner === null ? undefined : documents.find((doc) => doc.dom.has(owner.backendNodeId))
    if (owner !== null && ownerDoc !== undefined) root.owner = { documentKey: ownerDoc.key, backendNodeId: owner.backendNodeId }
    documents.push(...captured.documents)
  }
  return { url: page.url(), title, viewport: { x: top.scroll.x, y: top.scroll.y, width: size.width, height: size.height }, documents, mark: top.mark }
}
