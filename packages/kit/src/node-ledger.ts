/**
 * The node ids of one tile. An element's id is bound to its identity — the scope it lives in
 * (a browser document: frame and loader; a desktop app: its bus name) and its key there (a
 * backend node id, an accessible's object path) — and never to a position, so it keeps its id
 * while it lives however the UI reorders. Ids come from a counter (`1`, `2`, …), are never
 * given to anything else and serve as their own refs (`@12`: a bare number costs an agent one
 * token less than `@e12` in o200k), so a ref an agent kept can only ever
 * name its own element: once the element is gone the ref
 * resolves to nothing and the request fails as stale instead of acting on whatever took its
 * place (browser backend ids restart at 1 after a cross-site navigation; an app reuses paths).
 */
export class NodeLedger {
  /** Scope → key → node id. */
  readonly #byScope = new Map<string, Map<string | number, string>>()
  /** Node id → where it points, while its scope is shown. */
  readonly #places = new Map<string, { scope: string; key: string | number }>()
  #nextElement = 1
  #nextText = 1

  /**
   * The id of an element, made on first sight. A text (`kind: 'text'`) is never acted on, so
   * it counts on its own (`t1`, `t2`, …): the elements' numbers, which agents read and copy,
   * stay small on a page of prose. Its id is a ref only where a long text is cut in a big
   * element, to read it whole.
   */
  idOf(scope: string, key: string | number, kind: 'element' | 'text' = 'element'): string {
    let ids = this.#byScope.get(scope)
    if (ids === undefined) {
      ids = new Map()
      this.#byScope.set(scope, ids)
    }
    const known = ids.get(key)
    if (known !== undefined) return known
    const id = kind === 'text' ? `t${this.#nextText++}` : String(this.#nextElement++)
    ids.set(key, id)
    this.#places.set(id, { scope, key })
    return id
  }

  /** The id an element was given, if it was ever seen: never makes one. */
  known(scope: string, key: string | number): string | undefined {
    return this.#byScope.get(scope)?.get(key)
  }

  /** Where an id points: its scope and key, or undefined once forgotten. */
  locate(nodeId: string): { scope: string; key: string | number } | undefined {
    return this.#places.get(nodeId)
  }

  /** Forgets the elements of scopes no longer shown (a page navigated away, an app quit): their ids and refs stay retired. */
  keepScopes(live: ReadonlySet<string>): void {
    for (const [scope, ids] of [...this.#byScope]) {
      if (live.has(scope)) continue
      for (const id of ids.values()) this.#places.delete(id)
      this.#byScope.delete(scope)
    }
  }

  /** Forgets one element that went while its scope lives on (a closed dialog): its id and ref stay retired. */
  forget(scope: string, key: string | number): void {
    const id = this.#byScope.get(scope)?.get(key)
    if (id === undefined) return
    this.#byScope.get(scope)?.delete(key)
    this.#places.delete(id)
  }
}
