import type { UnreadRequest } from '@tessera/protocol'
import { agentPattern } from '@tessera/kit'
import type { CapturedDocument, WantedParts } from './page-capture.js'

/** Where an unread part of the last capture is: its document and the elements (a run of siblings) it groups. */
export interface UnreadPlace {
  document: CapturedDocument
  elements: readonly number[]
}

/** How much of the start of a text is looked for in the parts unread: about what one text node holds. */
const TEXT_START_CHARS = 24

/** How much of the start of a text is looked for across the text nodes of a part: enough to tell one paragraph or line of code from another. */
const JOINED_START_CHARS = 40

/** A find reads at most this many parts: an outline lists fewer matches than that. */
const MAX_FOUND_PARTS = 60

/** Parts by document, each by its first element. */
type PartsByDocument = Map<string, Map<number, readonly number[]>>

/** What one capture reads beyond the view, and which of the parts read once it took. */
export interface ReadingPlan {
  of: WantedParts
  /** Parts a find asked for, handed to this capture: it reads them, and no later one does. */
  readonly once: PartsByDocument
}

function add(parts: PartsByDocument, documentKey: string, elements: readonly number[]): boolean {
  const first = elements[0]
  if (first === undefined) return false
  let known = parts.get(documentKey)
  if (known === undefined) {
    known = new Map()
    parts.set(documentKey, known)
  }
  if (known.has(first)) return false
  known.set(first, elements)
  return true
}

/**
 * The parts of a huge page to read besides what is in view. A part an agent expanded, or one
 * holding an element it acts on (by ref or selector), is read by every capture from then on:
 * its refs keep working, and it stays one part, so the offsets of folds around it hold. A part
 * a find read is read for that one capture: a common word would otherwise keep dozens of parts
 * read for good and every later capture slow; a ref from the find's answer still acts, as its
 * part is read again when the ref is used. All is forgotten with the document.
 */
export class PartsToRead {
  readonly #kept: PartsByDocument = new Map()
  readonly #once: PartsByDocument = new Map()
  #unread = new Map<string, UnreadPlace>()
  /** The parts the last capture read for a find: read, they are not among its unread ones, and the next find may want them again. */
  #readOnce: Array<{ documentKey: string; elements: readonly number[] }> = []

  /** What the next capture reads: the parts kept, and those a find asked for until a capture takes them. */
  plan(): ReadingPlan {
    const once: PartsByDocument = new Map([...this.#once].map(([documentKey, parts]) => [documentKey, new Map(parts)]))
    return { once, of: (documentKey) => ({ parts: [...(this.#kept.get(documentKey)?.values() ?? []), ...(once.get(documentKey)?.values() ?? [])] }) }
  }

  /**
   * What the capture of `plan` left unread, by node id; the parts a find asked for are read
   * now, and documents no longer shown are forgotten.
   */
  update(plan: ReadingPlan, unread: ReadonlyMap<string, UnreadPlace>, liveDocuments: ReadonlySet<string>): void {
    this.#unread = new Map(unread)
    this.#readOnce = [...plan.once].flatMap(([documentKey, parts]) => [...parts.values()].map((elements) => ({ documentKey, elements })))
    for (const [documentKey, parts] of plan.once) for (const first of parts.keys()) this.#once.get(documentKey)?.delete(first)
    for (const parts of [this.#kept, this.#once]) for (const key of parts.keys()) if (!liveDocuments.has(key)) parts.delete(key)
  }

  /** Whether this element is in the document as the last capture saw it, in a part it left unread. */
  holds(documentKey: string, backendNodeId: number): boolean {
    for (const place of this.#unread.values()) {
      if (place.document.key !== documentKey || place.document.ranges === undefined) continue
      // The ranges are that capture's whole DOM: an element it lists lives, and the frame does not show it. One it lists
      // undrawn (a picker closed, display: none) is hidden, not left unread: a capture reads undrawn parts whatever their place.
      const index = place.document.ranges.indexOf(backendNodeId)
      return index !== undefined && place.document.ranges.drawn(index)
    }
    return false
  }

  /**
   * Whether a part the last capture left unread says the start of an outline's text. That
   * text joins the page's text nodes and may end cut ('…'): its first words are said across
   * the part's text nodes (a highlighted line of code is a dozen of them), or, cut at a
   * word's end, by one text node or a label, title or value.
   */
  saysStartOf(text: string): boolean {
    const whole = text.replace(/…$/, '').replace(/\s+/g, ' ').trim().toLowerCase()
    const start = whole.length <= TEXT_START_CHARS ? whole : whole.slice(0, TEXT_START_CHARS).replace(/\s\S*$/, '')
    if (start.length === 0) return false
    const across = whole.replace(/\s+/g, '').slice(0, JOINED_START_CHARS)
    for (const place of this.#unread.values()) {
      const ranges = place.document.ranges
      if (ranges === undefined) continue
      const says = (element: number): boolean => {
        const index = ranges.indexOf(element) ?? -1
        return ranges.saysAcross(index, across) || ranges.says(index, start)
      }
      if (place.elements.some(says)) return true
    }
    return false
  }

  /** Reads, from the next capture on, the unread part that holds this element; whether there was one not yet asked for. */
  readHolding(documentKey: string, backendNodeId: number): boolean {
    for (const place of this.#unread.values()) {
      const ranges = place.document.ranges
      if (place.document.key !== documentKey || ranges === undefined) continue
      const index = ranges.indexOf(backendNodeId)
      if (index === undefined) return false
      const holds = place.elements.some((element) => {
        const top = ranges.indexOf(element)
        return top !== undefined && ranges.holdsAny(top, [index])
      })
      if (holds) return add(this.#kept, documentKey, place.elements)
    }
    return false
  }

  /**
   * The unread parts a request names (kept), and those whose text says its words (up to
   * MAX_FOUND_PARTS, for the next capture only); whether any is new. `refs` are resolved by
   * the caller, which knows its ledger (readHolding).
   */
  read(request: UnreadRequest): boolean {
    let added = false
    for (const id of request.nodes ?? []) {
      const place = this.#unread.get(id)
      if (place !== undefined && add(this.#kept, place.document.key, place.elements)) added = true
    }
    const words = request.text?.trim()
    const pattern = request.pattern === undefined ? undefined : agentPattern(request.pattern, 'regex').byLines()
    if ((words !== undefined && words !== '') || pattern !== undefined) {
      // Each document's ranges, as the last capture took them.
      const rangesOf = new Map([...this.#unread.values()].flatMap((place) => (place.document.ranges === undefined ? [] : [[place.document.key, place.document.ranges] as const])))
      // The parts it left unread, then those it read for the find before (else a second find missed what the first one read).
      const parts = [...[...this.#unread.values()].map((place) => ({ documentKey: place.document.key, elements: place.elements })), ...this.#readOnce]
      let found = 0
      for (const part of parts) {
        if (found >= MAX_FOUND_PARTS) break
        const ranges = rangesOf.get(part.documentKey)
        if (ranges === undefined) continue
        // Words a page splits across elements (`no more than <code>$HISTFILESIZE</code>`) are found across its text nodes too.
        const says = (element: number): boolean => {
          const index = ranges.indexOf(element) ?? -1
          if (pattern !== undefined) return ranges.matches(index, pattern)
          return words !== undefined && (ranges.says(index, words) || ranges.saysAcross(index, words))
        }
        if (!part.elements.some(says)) continue
        found++
        const kept = this.#kept.get(part.documentKey)?.has(part.elements[0] ?? -1) === true
        if (!kept && add(this.#once, part.documentKey, part.elements)) added = true
      }
    }
    return added
  }
}
