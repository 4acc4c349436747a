import { type AgentPattern, byLineWords } from '@tessera/kit'
import { type UnreadPart, cutWhole } from '@tessera/protocol'

/** What the ranges read of one document of a DOM snapshot (`DOMSnapshot.captureSnapshot`). */
export interface SnapshotNodes {
  parentIndex?: number[]
  nodeName?: number[]
  nodeValue?: number[]
  backendNodeId?: number[]
  attributes?: number[][]
  isClickable?: { index: number[] }
}

export interface SnapshotLayout {
  nodeIndex: number[]
  bounds: number[][]
  /** Each laid-out node's computed styles, in the order asked (SNAPSHOT_STYLES), as string indexes. */
  styles?: number[][]
}

/** The computed styles a capture asks the DOM snapshot for: what the page styles as clickable, what a scroll moves with the view, what the browser skips drawing. */
export const SNAPSHOT_STYLES = ['cursor', 'position', 'content-visibility'] as const
const CONTENT_VISIBILITY = SNAPSHOT_STYLES.indexOf('content-visibility')

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/** Elements that sit inside a line of text: their text reads as one with their block's. */
export const INLINE = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'FONT', 'I', 'KBD', 'LABEL', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME', 'TT', 'U', 'VAR', 'BR', 'WBR', 'NOBR'])
/** Elements a person can act on, whatever the page does with them. */
const CONTROLS = new Set(['BUTTON', 'SELECT', 'TEXTAREA', 'SUMMARY'])
/** Roles a page gives elements it makes into controls. */
const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton'])
/** Lists and tables keep a line of their own in an outline. */
const CONTAINERS = new Set(['UL', 'OL', 'DL', 'TABLE', 'MENU'])
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6'])
/** Rows of a list or a table: several things in one prints as a line of its own. */
const ROWS = new Set(['LI', 'TR', 'DT', 'DD'])
/** A row of at most this many leaves prints on one line (the outline's packing). */
const PACKED = 6
/** An element with this many children or more keeps a line of its own (the outline's repeated runs). */
const REPEATED = 10
/** Attributes whose words a find matches besides the text (an icon button's name is its label). */
const SEARCHED_ATTRIBUTES = new Set(['aria-label', 'title', 'alt', 'placeholder', 'value'])
const LABEL_CHARS = 60

/** The first index of sorted `list` that is ≥ `value`. */
function lowerBound(list: readonly number[], value: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((list[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Whether any element of a document's snapshot has `content-visibility: auto` (a quick look: whether it skips anything now, DomRanges says). */
export function maySkipContent(layout: SnapshotLayout, strings: readonly string[]): boolean {
  const auto = strings.indexOf('auto')
  return auto >= 0 && layout.styles !== undefined && layout.styles.some((styles) => styles[CONTENT_VISIBILITY] === auto)
}

/** Elements whose content a page never shows as such. */
const UNSHOWN = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'LINK', 'META'])

/** Tags of elements that are mere containers unless something marks them (see DomRanges.childrenAsked). */
/** Elements whose texts keep their blanks and line breaks. */
const PRE_TAGS = new Set(['PRE', 'TEXTAREA', 'LISTING', 'XMP', 'PLAINTEXT'])
const MAY_BE_IGNORED = new Set(['HTML', 'BODY', 'DIV', 'SPAN', 'TBODY', 'THEAD', 'TFOOT', 'FONT', 'CENTER', 'B', 'I', 'U', 'S', 'SMALL', 'BIG', 'EM', 'STRONG'])

/**
 * One document of a DOM snapshot as ranges: the snapshot lists nodes in document order, so an
 * element's subtree is the run of nodes from it to `end`. What a part of the page holds (its
 * lines and actions, roughly as an outline prints them; its first heading; whether its text
 * says some words; whether any of it is on screen) is then a sum over a range, without
 * reading its accessibility tree.
 */
export class DomRanges {
  readonly #strings: readonly string[]
  readonly #nodes: SnapshotNodes
  readonly #parent: readonly number[]
  readonly #end: Int32Array
  readonly #byBackend = new Map<number, number>()
  /** Lines of each node and what it holds, as an outline prints them (on the high side). */
  readonly #lines: Int32Array
  /** Actions before each node, summed in document order. */
  readonly #actions: Int32Array
  /** The box around each node and everything under it, in page coordinates (empty: +∞/−∞). */
  readonly #top: Float64Array
  readonly #bottom: Float64Array
  readonly #left: Float64Array
  readonly #right: Float64Array
  readonly #headings: number[] = []
  readonly #texts: number[] = []
  /** Of a node the browser skips (see the constructor), the element with `content-visibility: auto` that skips it; else -1. */
  readonly #skippedBy: Int32Array
  /** The elements that skip drawing what they hold, ascending. */
  readonly #skipRoots: number[] = []
  #searchable: string[] | null = null
  #joined: { text: string; at: Int32Array } | null = null

  /** From the top document's snapshot, whose bounds are page coordinates already. */
  constructor(nodes: SnapshotNodes, layout: SnapshotLayout, strings: readonly string[]) {
    this.#strings = strings
    this.#nodes = nodes
    const parent = nodes.parentIndex ?? []
    this.#parent = parent
    const backend = nodes.backendNodeId ?? []
    const n = backend.length
    this.#end = new Int32Array(n)
    this.#top = new Float64Array(n).fill(Infinity)
    this.#left = new Float64Array(n).fill(Infinity)
    this.#bottom = new Float64Array(n).fill(-Infinity)
    this.#right = new Float64Array(n).fill(-Infinity)
    const laidOut = new Uint8Array(n)
    const auto = strings.indexOf('auto')
    const skipping: number[] = []
    for (let l = 0; l < layout.nodeIndex.length; l++) {
      const i = layout.nodeIndex[l] as number
      const box = layout.bounds[l]
      if (box === undefined || i >= n) continue
      laidOut[i] = 1
      if (auto >= 0 && layout.styles?.[l]?.[CONTENT_VISIBILITY] === auto) skipping.push(i)
      const [x = 0, y = 0, w = 0, h = 0] = box
      if (w === 0 && h === 0) continue
      this.#top[i] = Math.min(this.#top[i] as number, y)
      this.#left[i] = Math.min(this.#left[i] as number, x)
      this.#bottom[i] = Math.max(this.#bottom[i] as number, y + h)
      this.#right[i] = Math.max(this.#right[i] as number, x + w)
    }
    // Children come after their parent: one pass backwards sums every subtree.
    const size = new Int32Array(n).fill(1)
    for (let i = n - 1; i > 0; i--) {
      const p = parent[i] ?? -1
      if (p >= 0) size[p] = (size[p] as number) + (size[i] as number)
    }
    for (let i = 0; i < n; i++) {
      this.#end[i] = i + (size[i] as number)
      this.#byBackend.set(backend[i] as number, i)
    }
    // What an element with `content-visibility: auto` holds is not laid out while it is off screen (Node.js's docs
    // style every section so: all.html lays out 28,000 of 453,000 nodes), yet it is the page's, and a find in the
    // browser finds it: it counts as drawn where its element is (what the accessibility tree lacks of it is drawn
    // when wanted, see skipped-content.ts).
    this.#skippedBy = new Int32Array(n).fill(-1)
    for (const root of skipping) {
      for (let i = root + 1; i < (this.#end[root] as number); i++) {
        if (laidOut[i] === 1) continue
        if (this.#skipRoots[this.#skipRoots.length - 1] !== root) this.#skipRoots.push(root)
        laidOut[i] = 1
        this.#skippedBy[i] = root
        this.#top[i] = this.#top[root] as number
        this.#left[i] = this.#left[root] as number
        this.#bottom[i] = this.#bottom[root] as number
        this.#right[i] = this.#right[root] as number
      }
    }
    for (let i = n - 1; i > 0; i--) {
      const p = parent[i] ?? -1
      if (p < 0) continue
      this.#top[p] = Math.min(this.#top[p] as number, this.#top[i] as number)
      this.#left[p] = Math.min(this.#left[p] as number, this.#left[i] as number)
      this.#bottom[p] = Math.max(this.#bottom[p] as number, this.#bottom[i] as number)
      this.#right[p] = Math.max(this.#right[p] as number, this.#right[i] as number)
    }
    this.#lines = new Int32Array(n)
    this.#actions = new Int32Array(n + 1)
    this.#weigh(parent, laidOut)
  }

  /**
   * The element whose `content-visibility: auto` has the browser skip the node at `index` (it
   * is off screen): its accessibility tree holds nothing of what it skips until it is drawn.
   */
  skippedBy(index: number): number | undefined {
    const root = this.#skippedBy[index] ?? -1
    return root < 0 ? undefined : root
  }

  /** Whether the browser skips drawing anything of the document now (see skippedBy). */
  get skipsAny(): boolean {
    return this.#skipRoots.length > 0
  }

  /** The elements that skip drawing what they hold (see skippedBy), ascending. */
  get skipRoots(): readonly number[] {
    return this.#skipRoots
  }

  /** The element that skips drawing what the node at `index` holds: the one that skips the node, or the node itself where it skips its children. */
  skipRootOf(index: number): number | undefined {
    return this.skippedBy(index) ?? (this.skipsChildren(index) ? index : undefined)
  }

  /** Whether the browser skips what the element at `index` holds (see skippedBy). */
  skipsChildren(index: number): boolean {
    const first = index + 1
    return first < (this.#end[index] as number) && this.skippedBy(first) !== undefined
  }

  /** The node's children in the DOM that a page shows (its elements and texts; no comment, script or style), by index. */
  children(index: number): number[] {
    const out: number[] = []
    for (let child = index + 1; child < (this.#end[index] as number); child = this.#end[child] as number) {
      const tag = this.#tag(child)
      if (tag === '#text' || (!/^[#:]/.test(tag) && !UNSHOWN.has(tag))) out.push(child)
    }
    return out
  }

  /** The node's backend node id. */
  backendIdOf(index: number): number {
    return this.#nodes.backendNodeId?.[index] ?? -1
  }

  /**
   * A CSS selector that names the element at `index` alone in its document (`:root > :nth-child(2) > …`),
   * or undefined for one in a shadow root, which no selector of the document reaches.
   */
  selectorOf(index: number): string | undefined {
    const steps: string[] = []
    for (let at = index; at >= 0; at = this.#parent[at] ?? -1) {
      const parent = this.#parent[at] ?? -1
      const tag = this.#tag(at)
      if (tag === '#document-fragment') return undefined
      if (parent < 0 || this.#tag(parent) === '#document') return [':root', ...steps].join(' > ')
      let position = 0
      // Texts, comments and pseudo-elements (`::before`, `::marker`, which the snapshot lists) are no children a selector counts.
      for (let sibling = parent + 1; sibling <= at; sibling = this.#end[sibling] as number) if (!/^[#:]/.test(this.#tag(sibling))) position++
      steps.unshift(`:nth-child(${position})`)
    }
    return undefined
  }

  /** The index just past the subtree of `index`: its nodes are `index` up to this. */
  end(index: number): number {
    return this.#end[index] as number
  }

  indexOf(backendNodeId: number | undefined): number | undefined {
    return backendNodeId === undefined ? undefined : this.#byBackend.get(backendNodeId)
  }

  /** Whether the subtree of `index` holds any of `sorted` (node indexes, ascending). */
  holdsAny(index: number, sorted: readonly number[]): boolean {
    const k = lowerBound(sorted, index)
    return k < sorted.length && (sorted[k] as number) < (this.#end[index] as number)
  }

  /** Whether any of the subtree of `index` is drawn inside `rect`. */
  shows(index: number, rect: Rect): boolean {
    return (this.#top[index] as number) < rect.y + rect.height && (this.#bottom[index] as number) > rect.y && (this.#left[index] as number) < rect.x + rect.width && (this.#right[index] as number) > rect.x
  }

  /** The box around everything drawn of these elements and what they hold, by backend node id; undefined when none is drawn. */
  box(backendNodeIds: readonly number[]): Rect | undefined {
    let top = Infinity
    let left = Infinity
    let bottom = -Infinity
    let right = -Infinity
    for (const backendNodeId of backendNodeIds) {
      const index = this.#byBackend.get(backendNodeId)
      if (index === undefined) continue
      top = Math.min(top, this.#top[index] as number)
      left = Math.min(left, this.#left[index] as number)
      bottom = Math.max(bottom, this.#bottom[index] as number)
      right = Math.max(right, this.#right[index] as number)
    }
    return Number.isFinite(top) ? { x: left, y: top, width: right - left, height: bottom - top } : undefined
  }

  /** Whether the node at `index` is a text, not an element. */
  isText(index: number): boolean {
    return this.#tag(index) === '#text'
  }

  /**
   * A text node's words as the accessibility tree names it, from the snapshot alone: its value;
   * none where the tree leaves it out (not drawn, or only blanks outside a `pre`, whose blanks
   * are its lines).
   */
  textOf(index: number): string | undefined {
    if (!this.isText(index) || !this.drawn(index)) return undefined
    const value = this.#value(index)
    return value.trim() === '' && !this.#inPre(index) ? undefined : value
  }

  #inPre(index: number): boolean {
    for (let at = this.#parent[index] ?? -1; at >= 0; at = this.#parent[at] ?? -1) if (PRE_TAGS.has(this.#tag(at))) return true
    return false
  }

  /**
   * About how many nodes the accessibility tree answers for the children of `index`: each
   * child, and below a child it may ignore (a bare `div` or `span`) that child's own, and so
   * on; counted up to just past `limit`.
   */
  childrenAsked(index: number, limit: number): number {
    let count = 0
    const stack = [index]
    while (stack.length > 0 && count <= limit) {
      const at = stack.pop() as number
      for (let child = at + 1; child < (this.#end[at] as number) && count <= limit; child = this.#end[child] as number) {
        count++
        if (this.#mayBeIgnored(child)) stack.push(child)
      }
    }
    return count
  }

  /** A container the tree may leave out, its children standing in its place: nothing marks it as anything of its own. */
  #mayBeIgnored(i: number): boolean {
    return MAY_BE_IGNORED.has(this.#tag(i)) && ['id', 'role', 'tabindex', 'aria-label'].every((name) => this.#attribute(i, name) === undefined)
  }

  /** Whether any of the subtree of `index` is drawn at all. */
  drawn(index: number): boolean {
    return Number.isFinite(this.#top[index] as number)
  }

  /** What the subtree of `index` holds, as an outline would count it (lines on the high side). */
  part(index: number): UnreadPart {
    const end = this.#end[index] as number
    const lines = this.#lines[index] as number
    const actions = (this.#actions[end] as number) - (this.#actions[index] as number)
    return { lines, actions, ...this.#label(index) }
  }

  /** The lines of the subtree of `index`, as an outline would print them (on the high side). */
  lines(index: number): number {
    return this.#lines[index] as number
  }

  /** Whether the text of the subtree of `index` (or a label, title, alt text, placeholder or value in it) holds `words`, any case. */
  says(index: number, words: string): boolean {
    if (index < 0 || index >= this.#end.length) return false
    const wanted = words.toLowerCase()
    const searchable = this.#searchableTexts()
    const end = this.#end[index] as number
    for (let i = index; i < end; i++) if ((searchable[i] as string).includes(wanted)) return true
    return false
  }

  /**
   * Whether the subtree of `index` says `words` across its text nodes, read as one text with
   * no white space at all (any case): a line of code the page highlights word by word, a
   * sentence split by a `<small>`, still say what an outline joined from them says.
   */
  saysAcross(index: number, words: string): boolean {
    if (index < 0 || index >= this.#end.length) return false
    const wanted = squeezed(words)
    if (wanted === '') return false
    const joined = this.#joinedText()
    const end = this.#end[index] as number
    const upTo = end < this.#end.length ? (joined.at[end] as number) : joined.text.length
    return joined.text.slice(joined.at[index] as number, upTo).includes(wanted)
  }

  /**
   * Whether an agent's regular expression matches a text of the subtree of `index`, in the
   * page's own case with white space as single spaces and line breaks kept: a text node, label, title, alt text,
   * placeholder or value alone (as one line of a find says it), or all of them read as one
   * text (as a line that joins a sentence's texts and links says it).
   */
  matches(index: number, pattern: AgentPattern): boolean {
    if (index < 0 || index >= this.#end.length) return false
    const end = this.#end[index] as number
    const words: string[] = []
    const said = (text: string): boolean => {
      // Line breaks stay (a pattern's ^ and $ mark the ends of a block's lines): finding a part a pattern then misses only reads it.
      const one = byLineWords(text)
      words.push(one)
      return pattern.test(one)
    }
    for (let i = index; i < end; i++) {
      if (this.#tag(i) === '#text' && said(this.#value(i))) return true
      const flat = this.#nodes.attributes?.[i] ?? []
      for (let a = 0; a + 1 < flat.length; a += 2) if (SEARCHED_ATTRIBUTES.has((this.#strings[flat[a] as number] ?? '').toLowerCase()) && said(this.#strings[flat[a + 1] as number] ?? '')) return true
    }
    return pattern.test(words.join(' '))
  }

  #tag(i: number): string {
    return this.#strings[this.#nodes.nodeName?.[i] ?? -1] ?? ''
  }

  #value(i: number): string {
    const v = this.#nodes.nodeValue?.[i] ?? -1
    return v < 0 ? '' : (this.#strings[v] ?? '')
  }

  #attribute(i: number, name: string): string | undefined {
    const flat = this.#nodes.attributes?.[i] ?? []
    for (let a = 0; a + 1 < flat.length; a += 2) if ((this.#strings[flat[a] as number] ?? '').toLowerCase() === name) return this.#strings[flat[a + 1] as number] ?? ''
    return undefined
  }

  /** A control (its text is its name, not lines of its own), an element the page listens to, or neither. */
  #actionable(i: number, clickable: ReadonlySet<number>): 'control' | 'listener' | undefined {
    const tag = this.#tag(i)
    if (tag.startsWith('#') || tag === 'HTML' || tag === 'BODY') return undefined
    if (this.#control(i, tag)) return 'control'
    // A page that listens on a whole region (a delegated handler) makes no control of its text.
    return clickable.has(i) ? 'listener' : undefined
  }

  #control(i: number, tag: string): boolean {
    if (CONTROLS.has(tag)) return true
    if (tag === 'A') return this.#attribute(i, 'href') !== undefined
    if (tag === 'INPUT') return this.#attribute(i, 'type')?.toLowerCase() !== 'hidden'
    const role = this.#attribute(i, 'role')?.trim().split(/\s+/)[0]
    return (role !== undefined && CONTROL_ROLES.has(role)) || this.#attribute(i, 'contenteditable') !== undefined
  }

  /**
   * Lines and actions per node. Its own line: an element one can act on is one; a run of text
   * within one block (texts split by inline elements read as one) is one, and another after
   * each control in it. Then, from the leaves up, what an outline adds: a list or a table has
   * a line of its own, and so has an element of ten children or more (a repeated run); a row
   * (list item, table row, term) of several things is a line of its own, with them on it when
   * they are a few leaves. Only what is drawn counts.
   */
  #weigh(parent: readonly number[], laidOut: Uint8Array): void {
    const n = this.#end.length
    const clickable = new Set(this.#nodes.isClickable?.index ?? [])
    const inControl = new Uint8Array(n)
    const blockOf = new Int32Array(n)
    const textLast = new Uint8Array(n)
    const own = new Int32Array(n)
    const elementChildren = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      const p = parent[i] ?? -1
      const tag = this.#tag(i)
      const isText = tag === '#text'
      const inline = isText || INLINE.has(tag)
      blockOf[i] = inline && p >= 0 ? (blockOf[p] as number) : i
      inControl[i] = p >= 0 && (inControl[p] === 1 || this.#actionableCached(p, clickable) === 'control') ? 1 : 0
      if (p >= 0 && !tag.startsWith('#')) elementChildren[p] = (elementChildren[p] as number) + 1
      let actions = 0
      if (laidOut[i] === 1) {
        const block = p >= 0 ? (blockOf[p] as number) : i
        if (isText) {
          if (this.#value(i).trim() !== '') {
            this.#texts.push(i)
            if (inControl[i] === 0 && textLast[block] === 0) {
              own[i] = 1
              textLast[block] = 1
            }
          }
        } else if (!tag.startsWith('#')) {
          if (this.#actionableCached(i, clickable) !== undefined) {
            actions = 1
            if (inControl[i] === 0) {
              own[i] = 1
              textLast[block] = 0
            }
          }
          if (HEADINGS.has(tag)) this.#headings.push(i)
        }
      }
      this.#actions[i + 1] = (this.#actions[i] as number) + actions
    }
    // From the leaves up: children come after their parent, so one pass backwards sees every child before it.
    const inner = new Int32Array(n)
    const deep = new Uint8Array(n)
    for (let i = n - 1; i >= 0; i--) {
      const tag = this.#tag(i)
      const held = inner[i] as number
      const mine = own[i] as number
      let lines: number
      // A control is its own line, whatever it holds.
      if (mine === 1 && this.#actionableCached(i, clickable) === 'control') lines = 1
      else if (laidOut[i] === 1 && (CONTAINERS.has(tag) || (elementChildren[i] as number) >= REPEATED)) lines = mine + 1 + held
      else if (laidOut[i] === 1 && ROWS.has(tag) && held >= 2) lines = mine + (held <= PACKED && deep[i] === 0 ? 1 : 1 + held)
      else lines = mine + held
      this.#lines[i] = lines
      const p = parent[i] ?? -1
      if (p < 0) continue
      inner[p] = (inner[p] as number) + lines
      if (lines >= 2 || (lines >= 1 && (ROWS.has(tag) || CONTAINERS.has(tag)))) deep[p] = 1
    }
  }

  readonly #actionableMemo = new Map<number, 'control' | 'listener' | undefined>()

  #actionableCached(i: number, clickable: ReadonlySet<number>): 'control' | 'listener' | undefined {
    if (this.#actionableMemo.has(i)) return this.#actionableMemo.get(i)
    const known = this.#actionable(i, clickable)
    this.#actionableMemo.set(i, known)
    return known
  }

  /** Its first heading's words, else its first words. */
  #label(index: number): { heading: string } | { words: string } | undefined {
    const end = this.#end[index] as number
    const h = lowerBound(this.#headings, index)
    const heading = h < this.#headings.length && (this.#headings[h] as number) < end ? (this.#headings[h] as number) : undefined
    const from = heading ?? index
    const upTo = heading === undefined ? end : (this.#end[heading] as number)
    let words = ''
    for (let t = lowerBound(this.#texts, from); t < this.#texts.length && (this.#texts[t] as number) < upTo && words.length < LABEL_CHARS; t++) {
      words = `${words} ${this.#value(this.#texts[t] as number)}`.replace(/\s+/g, ' ')
      if (heading === undefined) break
    }
    const trimmed = words.trim()
    if (trimmed === '') return undefined
    const label = trimmed.length > LABEL_CHARS ? `${cutWhole(trimmed, LABEL_CHARS - 1)}…` : trimmed
    return heading === undefined ? { words: label } : { heading: label }
  }

  /** Every text node's words in document order as one text without white space, and where each node's subtree starts in it. */
  #joinedText(): { text: string; at: Int32Array } {
    if (this.#joined !== null) return this.#joined
    const at = new Int32Array(this.#end.length)
    const pieces: string[] = []
    let length = 0
    for (let i = 0; i < this.#end.length; i++) {
      at[i] = length
      if (this.#tag(i) !== '#text') continue
      const piece = squeezed(this.#value(i))
      pieces.push(piece)
      length += piece.length
    }
    this.#joined = { text: pieces.join(''), at }
    return this.#joined
  }

  #searchableTexts(): string[] {
    if (this.#searchable !== null) return this.#searchable
    const out: string[] = []
    for (let i = 0; i < this.#end.length; i++) {
      let words = this.#tag(i) === '#text' ? this.#value(i) : ''
      const flat = this.#nodes.attributes?.[i] ?? []
      for (let a = 0; a + 1 < flat.length; a += 2) if (SEARCHED_ATTRIBUTES.has((this.#strings[flat[a] as number] ?? '').toLowerCase())) words += ` ${this.#strings[flat[a + 1] as number] ?? ''}`
      // As a person reads it: a line break in the source is a space.
      out.push(words.replace(/\s+/g, ' ').toLowerCase())
    }
    this.#searchable = out
    return out
  }
}

/** Words without any white space, in lower case: how texts joined in different ways compare. */
function squeezed(words: string): string {
  return words.replace(/\s+/g, '').toLowerCase()
}
