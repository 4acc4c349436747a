import { WHOLE_TEXT_CHARS } from '@tessera/kit'
import { cutWhole } from '@tessera/protocol'
import { INLINE, type SnapshotLayout, type SnapshotNodes } from './dom-ranges.js'

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

  private constructor(holders: number[], boxes: number, nodes: SnapshotNodes, strings: readonly string[]) {
    this.holders = holders
    this.boxes = boxes
    this.#nodes = nodes
    this.#strings = strings
  }

  static of(nodes: SnapshotNodes, layout: SnapshotLayout, textBoxes: SnapshotTextBoxes | undefined, strings: readonly string[]): LongTexts {
    const perNode = new Map<number, number>()
    const boxes = textBoxes?.layoutIndex ?? []
    for (const l of boxes) {
      const node = layout.nodeIndex[l]
      if (node !== undefined) perNode.set(node, (perNode.get(node) ?? 0) + 1)
    }
    const parents = nodes.parentIndex ?? []
    const holders = new Set<number>()
    for (const [node, count] of perNode) {
      if (count <= LONG_TEXT_BOXES) continue
      let holder = parents[node] ?? -1
      while (holder >= 0 && INLINE.has(tagOf(nodes, strings, holder))) holder = parents[holder] ?? -1
      if (holder >= 0) holders.add(holder)
    }
    return new LongTexts([...holders].sort((a, b) => a - b), boxes.length, nodes, strings)
  }

  /** Whether the document has more lines than a whole read carries in time, or a text that is long. */
  get needsParts(): boolean {
    return this.holders.length > 0 || this.boxes > DOCUMENT_TEXT_BOXES
  }

  isHolder(index: number): boolean {
    return this.holders.includes(index)
  }

  /** The text of the nodes from `index` up to `end` (a subtree), as the page has it, cut past what a frame keeps; and the first text node's backend id. */
  textIn(index: number, end: number): { text: string; backendNodeId: number } | undefined {
    const parents = this.#nodes.parentIndex ?? []
    const values = this.#nodes.nodeValue ?? []
    const backend = this.#nodes.backendNodeId ?? []
    let text = ''
    let first: number | undefined
    for (let i = index; i < end && text.length < KEPT_CHARS; i++) {
      if (tagOf(this.#nodes, this.#strings, i) !== '#text' || UNSHOWN.has(tagOf(this.#nodes, this.#strings, parents[i] ?? -1))) continue
      first ??= backend[i]
      text += this.#strings[values[i] ?? -1] ?? ''
    }
    return first === undefined ? undefined : { text: cutWhole(text, KEPT_CHARS), backendNodeId: first }
  }
}

function tagOf(nodes: SnapshotNodes, strings: readonly string[], index: number): string {
  return strings[nodes.nodeName?.[index] ?? -1] ?? ''
}
