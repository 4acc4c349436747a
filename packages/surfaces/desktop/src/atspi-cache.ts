import { type AccessibleRef, type AtspiBus, type AtspiEvent, refOf } from './atspi-bus.js'
import { type AccessibleNode, type AccessibleTree, onScreen, readNode, walkAccessibles, walkFrom } from './atspi-tree.js'

const keyOf = (ref: AccessibleRef): string => `${ref.bus}|${ref.path}`
const APP_ROOT = '/org/a11y/atspi/accessible/root'

/** States whose change shows or hides what is inside a widget: what is under it is walked again. */
const SHOWING_STATES = new Set(['showing', 'visible', 'expanded', 'collapsed', 'defunct'])
/** Events that change only the widget that sends them. */
const NODE_EVENTS = new Set(['object:propertychange', 'object:textchanged', 'object:boundschanged', 'object:visibledatachanged', 'object:valuechanged', 'object:textselectionchanged'])

/** Parents asked for before giving up on finding a kept ancestor. */
const MAX_HOPS = 12

/** Past this many marks a walk of everything costs less than reading each again. */
const MAX_MARKS = 150

/**
 * A tile's accessibles kept current from the apps' events instead of walked again for every
 * frame. An event marks what it names: a widget's own fields (a name, a text, a state) are
 * read again; a widget whose children changed has its list read again, keeping the children
 * already known; a widget shown or hidden is walked again under it. An event from a widget
 * not kept (a spreadsheet cell) re-lists its app's windows. A frame with nothing marked costs
 * no call at all.
 */
export class AccessibleCache {
  readonly #bus: AtspiBus
  #tree: AccessibleTree | undefined
  #index = new Map<string, AccessibleNode>()
  #parents = new Map<string, string>()
  #fields = new Set<string>()
  #lists = new Set<string>()
  #walks = new Set<string>()
  /** Widgets that sent an event and are not kept: the nearest kept ancestor is walked again. */
  #strangers = new Set<string>()
  #everything = true
  #busy: Promise<AccessibleTree> | undefined
  /**
   * Whether the apps' events say every change. GTK 3 (ATK's bridge) and LibreOffice do; GTK 4
   * does but for rows it adds to a list without a word (see relistRoles). Untrusted, a tile is
   * walked whole for every frame.
   */
  trustEvents = false
  /**
   * Roles whose children a toolkit changes without an event (GTK 4's lists): with events
   * trusted, each of these is listed again for every frame — a call each — instead of the whole
   * tree being walked.
   */
  relistRoles: ReadonlySet<string> = new Set()
  /** Walks and partial reads since the start, for the bench and the tests. */
  readonly stats = { fullWalks: 0, refreshes: 0, hits: 0 }

  constructor(bus: AtspiBus) {
    this.#bus = bus
  }

  /** Marks what an event says changed. */
  heard(event: AtspiEvent): void {
    if (this.#everything) return
    const kind = event.kind.toLowerCase()
    const key = keyOf(event.source)
    if (!this.#index.has(key)) {
      // Something not kept changed (a widget just made, a cell): found through its parents.
      this.#mark(this.#strangers, key)
      return
    }
    if (kind === 'object:childrenchanged' || kind.startsWith('window:')) this.#mark(this.#lists, key)
    else if (kind === 'object:statechanged' && SHOWING_STATES.has(event.detail)) this.#mark(this.#walks, key)
    else if (kind === 'object:statechanged' || NODE_EVENTS.has(kind)) this.#mark(this.#fields, key)
  }

  /** Forget everything: the next tree is a whole walk. */
  invalidate(): void {
    this.#everything = true
  }

  /** The tile's accessibles as they are now: a whole walk the first time, then only what events marked. */
  tree(): Promise<AccessibleTree> {
    // One refresh at a time: a second caller gets the same answer.
    this.#busy ??= this.#refresh().finally(() => {
      this.#busy = undefined
    })
    return this.#busy
  }

  #mark(set: Set<string>, key: string): void {
    set.add(key)
    if (this.#fields.size + this.#lists.size + this.#walks.size + this.#strangers.size > MAX_MARKS) this.#everything = true
  }

  async #refresh(): Promise<AccessibleTree> {
    if (!this.#everything && this.#tree !== undefined && this.#strangers.size > 0) {
      // A stranger is new under its nearest kept ancestor: that ancestor's children are listed
      // again (the new ones walked). Under a sheet it is a cell: the sheet's cells are read again.
      const strangers = [...this.#strangers]
      this.#strangers.clear()
      for (const ancestor of await Promise.all(strangers.map((key) => this.#keptAncestor(key)))) {
        const node = ancestor === undefined ? undefined : this.#index.get(ancestor)
        if (ancestor === undefined || node === undefined) continue
        if (node.folded && node.interfaces.has('org.a11y.atspi.Table')) this.#fields.add(ancestor)
        else this.#lists.add(ancestor)
      }
    }
    if (this.#everything || this.#tree === undefined || !this.trustEvents) {
      this.#everything = false
      this.#clearMarks()
      const tree = await walkAccessibles(this.#bus)
      this.stats.fullWalks++
      return this.#keep(tree)
    }
    for (const [key, node] of this.#index) if (this.relistRoles.has(node.role) && onScreen(node)) this.#lists.add(key)
    // What a walk again covers is not read twice: a mark under a walked node goes.
    const underWalk = (key: string): boolean => {
      for (let up = this.#parents.get(key); up !== undefined; up = this.#parents.get(up)) if (this.#walks.has(up)) return true
      return false
    }
    const walks = [...this.#walks].filter((key) => !underWalk(key))
    const lists = [...this.#lists].filter((key) => !this.#walks.has(key) && !underWalk(key))
    const fields = [...this.#fields].filter((key) => !this.#walks.has(key) && !this.#lists.has(key) && !underWalk(key))
    this.#clearMarks()
    if (walks.length + lists.length + fields.length === 0) {
      this.stats.hits++
      return this.#tree
    }
    this.stats.refreshes++
    await Promise.all([...walks.map((key) => this.#walkAgain(key)), ...lists.map((key) => this.#listAgain(key)), ...fields.map((key) => this.#readAgain(key))])
    return this.#keep(this.#tree)
  }

  /** The nearest ancestor of a widget that is kept, by its Parent property; the app's root when none is found in a few steps. */
  async #keptAncestor(key: string): Promise<string | undefined> {
    const [bus, path] = key.split('|') as [string, string]
    let ref: AccessibleRef | undefined = { bus, path }
    for (let hops = 0; hops < MAX_HOPS && ref !== undefined; hops++) {
      const parent: AccessibleRef | undefined = refOf(await this.#bus.property(ref, 'org.a11y.atspi.Accessible', 'Parent').catch(() => undefined))
      if (parent === undefined) break
      if (this.#index.has(keyOf(parent))) return keyOf(parent)
      ref = parent
    }
    const root = keyOf({ bus, path: APP_ROOT })
    if (this.#index.has(root)) this.#lists.add(root)
    else this.#everything = true
    return undefined
  }

  #clearMarks(): void {
    this.#strangers.clear()
    this.#fields.clear()
    this.#lists.clear()
    this.#walks.clear()
  }

  /** Indexes the tree kept, each node by its ref. */
  #keep(tree: AccessibleTree): AccessibleTree {
    const index = new Map<string, AccessibleNode>()
    const parents = new Map<string, string>()
    const visit = (node: AccessibleNode, parent: string | undefined): void => {
      const key = keyOf(node.ref)
      index.set(key, node)
      if (parent !== undefined) parents.set(key, parent)
      for (const child of node.children) visit(child, key)
    }
    for (const app of tree.apps) visit(app, undefined)
    this.#index = index
    this.#parents = parents
    this.#tree = { apps: tree.apps, count: index.size, truncated: tree.truncated }
    return this.#tree
  }

  /** A node's own fields read again; its children stay. */
  async #readAgain(key: string): Promise<void> {
    const node = this.#index.get(key)
    if (node === undefined) return
    const fresh = await readNode(this.#bus, node.ref).catch(() => undefined)
    if (fresh === undefined) return this.#gone(key)
    // A managed sheet's children are the cells read with it: those come fresh; any other node keeps its own.
    Object.assign(node, { ...fresh.node, children: fresh.node.folded ? fresh.node.children : node.children, folded: fresh.node.folded || (node.folded && fresh.childRefs.length > 0) })
  }

  /** A node and its list of children read again: the children known are kept as they are, the new ones walked. */
  async #listAgain(key: string): Promise<void> {
    const node = this.#index.get(key)
    if (node === undefined) {
      // An app that was not there: a whole walk finds it.
      if (key.endsWith(`|${APP_ROOT}`)) this.#everything = true
      return
    }
    const fresh = await readNode(this.#bus, node.ref).catch(() => undefined)
    if (fresh === undefined) return this.#gone(key)
    // What is inside a node off the screen (a closed menu's submenu) is not shown: its own fields only.
    if (!onScreen(fresh.node) && fresh.node.role !== 'application') {
      Object.assign(node, { ...fresh.node, children: node.children, folded: node.folded })
      return
    }
    const unknown = fresh.childRefs.filter((ref) => !this.#index.has(keyOf(ref)))
    const walked = unknown.length === 0 ? [] : (await walkFrom(this.#bus, unknown)).apps
    const byKey = new Map(walked.map((child) => [keyOf(child.ref), child]))
    const children = fresh.childRefs.map((ref) => this.#index.get(keyOf(ref)) ?? byKey.get(keyOf(ref))).filter((child): child is AccessibleNode => child !== undefined)
    Object.assign(node, { ...fresh.node, children })
  }

  /** A node walked again with everything under it. */
  async #walkAgain(key: string): Promise<void> {
    const node = this.#index.get(key)
    if (node === undefined) return
    const fresh = (await walkFrom(this.#bus, [node.ref]).catch(() => undefined))?.apps[0]
    if (fresh === undefined) return this.#gone(key)
    Object.assign(node, fresh)
  }

  /** A node that no longer answers leaves its parent's children. */
  #gone(key: string): void {
    for (const parent of this.#index.values()) {
      const at = parent.children.findIndex((child) => keyOf(child.ref) === key)
      if (at >= 0) {
        parent.children.splice(at, 1)
        return
      }
    }
    if (this.#tree !== undefined) this.#tree = { ...this.#tree, apps: this.#tree.apps.filter((app) => keyOf(app.ref) !== key) }
  }
}
