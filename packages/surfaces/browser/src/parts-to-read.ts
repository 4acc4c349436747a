import type { UnreadRequest } from '@tessera/protocol'
import type { CapturedDocument } from './page-capture.js'

/** Where an unread part of the last capture is: its document and the elements (a run of siblings) it groups. */
export interface UnreadPlace {
  document: CapturedDocument
  elements: readonly number[]
}

/** A find reads at most this many parts: an outline lists fewer matches than that. */
const MAX_FOUND_PARTS = 60

/**
 * The parts of a huge page an agent asked to read (a fold it expanded, a find, an element a
 * selector named): read by every capture from then on, so that refs in them keep working,
 * and forgotten with their document.
 */
export class PartsToRead {
  readonly #wanted = new Map<string, Set<number>>()
  /** Per document, the parts asked for, by their first element: each stays one part once read, so folds keep their offsets. */
  readonly #parts = new Map<string, Map<number, readonly number[]>>()
  #unread = new Map<string, UnreadPlace>()

  /** What to read in a document, for `capturePage`. */
  readonly of = (documentKey: string): { elements: readonly number[]; parts: ReadonlyArray<readonly number[]> } => ({
    elements: [...(this.#wanted.get(documentKey) ?? [])],
    parts: [...(this.#parts.get(documentKey)?.values() ?? [])],
  })

  /** What the last capture left unread, by node id; documents no longer shown are forgotten. */
  update(unread: ReadonlyMap<string, UnreadPlace>, liveDocuments: ReadonlySet<string>): void {
    this.#unread = new Map(unread)
    for (const key of this.#wanted.keys()) if (!liveDocuments.has(key)) this.#wanted.delete(key)
    for (const key of this.#parts.keys()) if (!liveDocuments.has(key)) this.#parts.delete(key)
  }

  /** Whether the last capture left anything unread. */
  get anyUnread(): boolean {
    return this.#unread.size > 0
  }

  /** Reads this part from the next capture on; whether it was not asked for yet. */
  #wantPart(place: UnreadPlace): boolean {
    const first = place.elements[0]
    if (first === undefined) return false
    let parts = this.#parts.get(place.document.key)
    if (parts === undefined) {
      parts = new Map()
      this.#parts.set(place.document.key, parts)
    }
    if (parts.has(first)) return false
    parts.set(first, place.elements)
    return true
  }

  /** Reads this element from the next capture on; whether it was not asked for yet. */
  want(documentKey: string, backendNodeId: number): boolean {
    let set = this.#wanted.get(documentKey)
    if (set === undefined) {
      set = new Set()
      this.#wanted.set(documentKey, set)
    }
    if (set.has(backendNodeId)) return false
    set.add(backendNodeId)
    return true
  }

  /** The unread parts a request names, and those whose text says its words (up to MAX_FOUND_PARTS); whether any is new. */
  read(request: UnreadRequest): boolean {
    let added = false
    for (const id of request.nodes ?? []) {
      const place = this.#unread.get(id)
      if (place !== undefined && this.#wantPart(place)) added = true
    }
    const words = request.text?.trim()
    if (words !== undefined && words !== '') {
      let found = 0
      for (const place of this.#unread.values()) {
        if (found >= MAX_FOUND_PARTS) break
        const ranges = place.document.ranges
        if (ranges === undefined || !place.elements.some((element) => ranges.says(ranges.indexOf(element) ?? -1, words))) continue
        found++
        if (this.#wantPart(place)) added = true
      }
    }
    return added
  }
}
