import { refFor } from '@tessera/protocol'

/**
 * The node ids of one browser tile. An element's id is bound to its identity — the document
 * it lives in (frame and loader) and its backend node id there — and never to a position, so
 * it keeps its id while it lives however the page reorders. Ids come from a counter and are
 * never given to anything else; an id whose ref would equal the ref of any id issued before
 * is skipped, so a ref an agent kept can only ever name its own element: once the element is
 * gone the ref resolves to nothing and the request fails as stale instead of acting on
 * whatever took its place (backend ids restart at 1 after a cross-site navigation).
 */
export class NodeLedger {
  /** Document key → backend node id → node id. */
  readonly #byDocument = new Map<string, Map<number, string>>()
  /** Every ref any id of this tile ever had: never handed out twice. */
  readonly #issuedRefs = new Set<string>()
  /** Node id → where it points, while its document is shown. */
  readonly #places = new Map<string, { documentKey: string; backendNodeId: number }>()
  #next = 1

  /** The id of an element, made on first sight. */
  idOf(documentKey: string, backendNodeId: number): string {
    let ids = this.#byDocument.get(documentKey)
    if (ids === undefined) {
      ids = new Map()
      this.#byDocument.set(documentKey, ids)
    }
    const known = ids.get(backendNodeId)
    if (known !== undefined) return known
    const id = this.#fresh()
    ids.set(backendNodeId, id)
    this.#places.set(id, { documentKey, backendNodeId })
    return id
  }

  /** Where an id points: its document and backend node id, or undefined once forgotten. */
  locate(nodeId: string): { documentKey: string; backendNodeId: number } | undefined {
    return this.#places.get(nodeId)
  }

  /**
   * Forgets the elements of documents no longer shown (a page navigated away): their ids
   * and refs stay retired.
   */
  keepDocuments(live: ReadonlySet<string>): void {
    for (const [key, ids] of [...this.#byDocument]) {
      if (live.has(key)) continue
      for (const id of ids.values()) this.#places.delete(id)
      this.#byDocument.delete(key)
    }
  }

  #fresh(): string {
    for (;;) {
      const id = `e${(this.#next++).toString(36)}`
      const ref = refFor(id)
      if (this.#issuedRefs.has(ref)) continue
      this.#issuedRefs.add(ref)
      return id
    }
  }
}
