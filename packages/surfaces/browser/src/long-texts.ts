import { type AgentPattern, WHOLE_TEXT_CHARS } from '@tessera/kit'
import { type TextExcerpt, cutWhole } from '@tessera/protocol'
import { INLINE, type Rect, type SnapshotLayout, type SnapshotNodes } from './dom-ranges.js'

/**
 * Rendered lines (text boxes) of one text past which its accessibility tree takes too long.
 * Chromium gives every line of a text a node of its own (an inline text box), at a cost that
 * grows with the square of their number in one text: a log of 20,000 lines in a `pre` took
 * 9 s a read, and every call that returned the text's node paid it; 2,500 lines, 0.3 s.
 */
export const LONG_TEXT_BOXES = 500
/**
 * Rendered lines of a whole document past which its tree is read in parts: each line is a
 * node of the tree (20,000 lines in 200 texts still took 3.8 s).
 */
export const DOCUMENT_TEXT_BOXES = 5_000
/**
 * Characters of text in a document (the probe's quick count) below which no text of it can
 * be long enough to matter: a capture then asks for the whole tree at once, without waiting
 * for the DOM snapshot to say how its texts are laid out.
 */
export const LONG_TEXT_GATE_CHARS = 50_000
/** Of a long text, the frame keeps what an expansion prints of any text, and a little more to show it was cut. */
const KEPT_CHARS = WHOLE_TEXT_CHARS + 1
/** Texts that are no text of the page. */
const UNSHOWN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'])

/** The post-layout text boxes of a DOM snapshot's document: each is one line (or run) of one text node. */
export interface SnapshotTextBoxes {
  layoutIndex: number[]
  /** In page coordinates: x, y, width, height. */
  bounds?: number[][]
  /** Where each box's run starts in its node's text, in UTF-16 units. */
  start?: number[]
}

/** What a find looks for in a long text: an agent's words (any case) or its regular expression; or a line an agent reads one text from. */
export interface TextFocus {
  words?: string
  pattern?: AgentPattern
  /** A line (from 1) of one text, known by its first text node's backend id (its ref's). */
  line?: { at: number; of: number }
}

/** Which lines of a long text a capture keeps: those a find asked for, else those in view. */
export interface TextWindow {
  view?: Rect
  focus?: TextFocus
}

/** A long text's part that a frame keeps, and where it lies in the whole. */
export interface HeldText {
  text: string
  backendNodeId: number
  /** Set where the text is longer than the part kept, or the part starts past its first line. */
  excerpt?: TextExcerpt
}

/**
 * The texts of one document too long to read through the accessibility tree, as the DOM
 * snapshot lays them out, and the elements that hold them: the nearest ancestor of each that
 * is no inline element (a `pre` holding its `code`). Such an element, when it holds nothing
 * to act on, is read from the DOM: its own node from the tree, its text from the snapshot.
 */
export class LongTexts {
  /** Snapshot indexes of the elements that hold a long text, ascending. */
  readonly holders: readonly number[]
  /** Text boxes in the whole document. */
  readonly boxes: number
  readonly #nodes: SnapshotNodes
  readonly #strings: readonly string[]
  /** Where, in a subtree's whole text (its text nodes starting where `starts` says), the first line drawn below the view's top starts. */
  readonly #firstInView: (starts: ReadonlyMap<number, number>, view: Rect) => number
  /** Of a text file's page: where its text lies (see ofPlainText). */
  readonly plain: PlainTextLayout | undefined

  private constructor(holders: number[], boxes: number, nodes: SnapshotNodes, strings: readonly string[], firstInView: (starts: ReadonlyMap<number, number>, view: Rect) => number, plain?: PlainTextLayout) {
    this.holders = holders
    this.boxes = boxes
    this.#nodes = nodes
    this.#strings = strings
    this.#firstInView = firstInView
    this.plain = plain
  }

  static of(nodes: SnapshotNodes, layout: SnapshotLayout, textBoxes: SnapshotTextBoxes | undefined, strings: readonly string[]): LongTexts {
    const boxesOf = new Map<number, number[]>()
    const boxes = textBoxes?.layoutIndex ?? []
    boxes.forEach((l, box) => {
      const node = layout.nodeIndex[l]
      if (node === undefined) return
      const known = boxesOf.get(node)
      if (known === undefined) boxesOf.set(node, [box])
      else known.push(box)
    })
    const perNode = new Map([...boxesOf].map(([node, own]) => [node, own.length]))
    const parents = nodes.parentIndex ?? []
    const holders = new Set<number>()
    for (const [node, count] of perNode) {
      if (count <= LONG_TEXT_BOXES) continue
      let holder = parents[node] ?? -1
      while (holder >= 0 && INLINE.has(tagOf(nodes, strings, holder))) holder = parents[holder] ?? -1
      if (holder >= 0) holders.add(holder)
    }
    return new LongTexts([...holders].sort((a, b) => a - b), boxes.length, nodes, strings, (starts, view) => firstBoxInView(starts, view, boxesOf, textBoxes))
  }

  /** The one text of a text file as the browser shows it (see plain-text-snapshot.ts), laid out in `lines` lines, `viewStart` its first character in view. */
  static ofPlainText(nodes: SnapshotNodes, strings: readonly string[], plain: PlainTextLayout): LongTexts {
    const holders = plain.lines > LONG_TEXT_BOXES ? [plain.holder] : []
    return new LongTexts(holders, plain.lines, nodes, strings, (starts) => (starts.get(plain.text) ?? 0) + plain.viewStart, plain)
  }

  /** The same text file's texts with the view starting elsewhere in its text (it scrolled). */
  scrolledTo(viewStart: number): LongTexts {
    return this.plain === undefined ? this : LongTexts.ofPlainText(this.#nodes, this.#strings, { ...this.plain, viewStart })
  }

  /** Whether the document has more lines than a whole read carries in time, or a text that is long. */
  get needsParts(): boolean {
    return this.holders.length > 0 || this.boxes > DOCUMENT_TEXT_BOXES
  }

  isHolder(index: number): boolean {
    return this.holders.includes(index)
  }

  /** Whether a long text says what a find looks for, anywhere in it. */
  says(focus: Omit<TextFocus, 'line'>): boolean {
    return this.holders.some((holder) => {
      const { text } = this.#wholeText(holder, this.#subtreeEnd(holder))
      return text !== '' && foundAt(text, focus) !== undefined
    })
  }

  /**
   * The text of the nodes from `index` up to `end` (a subtree), as the page has it, and the
   * first text node's backend id. A frame keeps a window of it: from the first line of the
   * match a find asked for, else from the first line in view, as much as an expansion prints.
   * Scrolling through a log of 60,000 lines moves the window, and an agent reads on.
   */
  textIn(index: number, end: number, window: TextWindow = {}): HeldText | undefined {
    const { text, first, starts } = this.#wholeText(index, end)
    if (first === undefined) return undefined
    const at = (window.focus === undefined ? undefined : focusedAt(text, window.focus, first)) ?? (window.view === undefined ? 0 : this.#firstInView(starts, window.view))
    return { ...textWindow(text, at), backendNodeId: first }
  }

  /** The whole text of a subtree, its first text node's backend id, and where each text node starts in it. */
  #wholeText(index: number, end: number): { text: string; first: number | undefined; starts: Map<number, number> } {
    const parents = this.#nodes.parentIndex ?? []
    const values = this.#nodes.nodeValue ?? []
    const backend = this.#nodes.backendNodeId ?? []
    const runs: string[] = []
    const starts = new Map<number, number>()
    let length = 0
    let first: number | undefined
    for (let i = index; i < end; i++) {
      if (tagOf(this.#nodes, this.#strings, i) !== '#text' || UNSHOWN.has(tagOf(this.#nodes, this.#strings, parents[i] ?? -1))) continue
      first ??= backend[i]
      const value = this.#strings[values[i] ?? -1] ?? ''
      starts.set(i, length)
      runs.push(value)
      length += value.length
    }
    return { text: runs.join(''), first, starts }
  }

  /** Where a document's subtree ends: the snapshot lists nodes in document order, a subtree in one run. */
  #subtreeEnd(index: number): number {
    const parents = this.#nodes.parentIndex ?? []
    const inside = new Set([index])
    let i = index + 1
    while (i < parents.length && inside.has(parents[i] ?? -1)) inside.add(i++)
    return i
  }
}

/** Of a text file as the browser shows it: its `pre` and text node (snapshot indexes), its rendered lines, and where in its text the view starts. */
export interface PlainTextLayout {
  holder: number
  text: number
  lines: number
  viewStart: number
}

/** Where in the whole text its first line drawn below the view's top starts, by the DOM snapshot's text boxes; its last line's start when all of it is above. */
function firstBoxInView(starts: ReadonlyMap<number, number>, view: Rect, boxesOf: ReadonlyMap<number, readonly number[]>, textBoxes: SnapshotTextBoxes | undefined): number {
  const bounds = textBoxes?.bounds ?? []
  const runStarts = textBoxes?.start ?? []
  let last = 0
  for (const [node, start] of starts) {
    for (const box of boxesOf.get(node) ?? []) {
      const [, y = 0, , height = 0] = bounds[box] ?? []
      last = start + (runStarts[box] ?? 0)
      if (y + height > view.y) return last
    }
  }
  return last
}

/** Of a line longer than a window, the characters kept before `at`: what leads up to the match or the view. */
const LINE_LEAD_CHARS = 200

/**
 * What a frame keeps of a text: all of it, or, past what an expansion prints, a window from
 * the line that holds `at`, with where that line is in the text. A line longer than the
 * window (a minified JSON of one line) is kept from just before `at`, after an ellipsis: else
 * what a find found there, or the part in view, would lie past the window's end.
 */
export function textWindow(text: string, at = 0): { text: string; excerpt?: TextExcerpt } {
  const lineStart = at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1
  const inLine = at - lineStart > KEPT_CHARS - LINE_LEAD_CHARS
  // Never between the halves of a character.
  const lead = at - LINE_LEAD_CHARS
  const from = inLine ? (/[\uDC00-\uDFFF]/.test(text[lead] ?? '') ? lead - 1 : lead) : lineStart
  const kept = inLine ? `…${cutWhole(text.slice(from), KEPT_CHARS - 1)}` : cutWhole(text.slice(from), KEPT_CHARS)
  if (from === 0 && kept.length === text.length) return { text }
  return { text: kept, excerpt: { line: lineOf(text, from), lines: lineOf(text, text.endsWith('\n') ? text.length - 1 : text.length) } }
}

/** Where a text first says what a find looks for. */
export function foundAt(text: string, focus: TextFocus): number | undefined {
  if (focus.pattern !== undefined) return focus.pattern.byLines().firstMatch(text)?.index
  const words = focus.words?.trim().toLowerCase()
  if (words === undefined || words === '') return undefined
  const at = text.toLowerCase().indexOf(words)
  return at < 0 ? undefined : at
}

/** Where a window of a text starts for a focus: the match of a find, or, in the text a line was asked of, that line (its last, past the end). */
export function focusedAt(text: string, focus: TextFocus, backendNodeId: number | undefined): number | undefined {
  if (focus.line === undefined) return foundAt(text, focus)
  if (focus.line.of !== backendNodeId) return undefined
  let at = 0
  for (let line = 1; line < focus.line.at; line++) {
    const next = text.indexOf('\n', at)
    // A final line break ends the last line: it starts none.
    if (next < 0 || next === text.length - 1) break
    at = next + 1
  }
  return at
}

/** The line (from 1) that holds the character at `at`. */
function lineOf(text: string, at: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++
  return line
}

function tagOf(nodes: SnapshotNodes, strings: readonly string[], index: number): string {
  return strings[nodes.nodeName?.[index] ?? -1] ?? ''
}
