import { type AccessibleRef, type AtspiBus, REGISTRY, refOf } from './atspi-bus.js'
import { announceReader } from './reader-presence.js'
import { visibleCells } from './sheet-cells.js'

/** AT-SPI's StateType, in order: bit n of the state set is STATE_NAMES[n]. */
const STATE_NAMES = [
  'invalid', 'active', 'armed', 'busy', 'checked', 'collapsed', 'defunct', 'editable', 'enabled', 'expandable', 'expanded', 'focusable', 'focused',
  'has-tooltip', 'horizontal', 'iconified', 'modal', 'multi-line', 'multiselectable', 'opaque', 'pressed', 'resizable', 'selectable', 'selected',
  'sensitive', 'showing', 'single-line', 'stale', 'transient', 'vertical', 'visible', 'manages-descendants', 'indeterminate', 'required', 'truncated',
  'animated', 'invalid-entry', 'supports-autocompletion', 'selectable-text', 'is-default', 'visited', 'checkable', 'has-popup', 'read-only',
] as const

const IFACE = {
  accessible: 'org.a11y.atspi.Accessible',
  component: 'org.a11y.atspi.Component',
  action: 'org.a11y.atspi.Action',
  text: 'org.a11y.atspi.Text',
  editableText: 'org.a11y.atspi.EditableText',
  value: 'org.a11y.atspi.Value',
} as const
export { IFACE as ATSPI_INTERFACES }

/** Roles whose words are their text rather than their name (a label, a display, a text field). */
const TEXT_ROLES = new Set(['label', 'text', 'entry', 'password text', 'paragraph', 'static', 'heading', 'editbar', 'terminal', 'document text', 'spin button', 'caption', 'table cell'])

/** Past these a walk stops: an app that reports a million cells is not walked into. */
const MAX_NODES = 4_000
const MAX_DEPTH = 64
const MAX_TEXT = 2_000
/** More children than this under one node are a managed collection (cells, rows), not widgets. */
const MAX_CHILDREN = 2_000

export interface Bounds {
  x: number
  y: number
  width: number
  height: number
}

/** One accessible as AT-SPI says it. */
export interface AccessibleNode {
  ref: AccessibleRef
  role: string
  name: string
  description: string
  states: ReadonlySet<string>
  interfaces: ReadonlySet<string>
  /** In screen coordinates; undefined when the app gives none or the node is off screen. */
  extents: Bounds | undefined
  text: string | undefined
  value: number | undefined
  /** Its actions' names, in order (DoAction takes the index). */
  actions: string[]
  /** Each action's key binding as the toolkit says it (GTK: `mnemonic;path;accelerator`), '' when none. */
  keyBindings: string[]
  children: AccessibleNode[]
  /** Its children were not walked (not showing, or it manages too many descendants to list). */
  folded: boolean
}

export interface AccessibleTree {
  apps: AccessibleNode[]
  /** How many accessibles the walk read. */
  count: number
  /** The walk stopped at MAX_NODES. */
  truncated: boolean
}

/** An AT-SPI state set (two 32-bit words) as state names. */
export function statesOf(bits: unknown): Set<string> {
  const out = new Set<string>()
  if (!Array.isArray(bits)) return out
  bits.forEach((word, half) => {
    const value = Number(word)
    for (let bit = 0; bit < 32; bit++) if ((value >>> bit) & 1) out.add(STATE_NAMES[half * 32 + bit] ?? `state-${half * 32 + bit}`)
  })
  return out
}

function extentsOf(body: unknown[]): Bounds | undefined {
  const box = body[0]
  if (!Array.isArray(box) || box.length < 4) return undefined
  const [x, y, width, height] = box.map(Number) as [number, number, number, number]
  // Off-screen widgets report -2147483648; a zero box says nothing.
  if (x <= -1_000_000 || y <= -1_000_000 || width <= 0 || height <= 0) return undefined
  return { x, y, width, height }
}

/** AT-SPI's RelationType LABELLED_BY. */
const LABELLED_BY = 2

/** The words of the widget that labels this one (its labelled-by relation), without a trailing colon. */
async function labelOf(bus: AtspiBus, ref: AccessibleRef): Promise<string | undefined> {
  const [relations] = await bus.call(ref, IFACE.accessible, 'GetRelationSet').catch(() => [[]])
  for (const relation of (relations as unknown[][] | undefined) ?? []) {
    if (Number(relation[0]) !== LABELLED_BY) continue
    const target = ((relation[1] as unknown[] | undefined) ?? []).map(refOf).find((r): r is AccessibleRef => r !== undefined)
    if (target === undefined) continue
    const words = String((await bus.property(target, IFACE.accessible, 'Name').catch(() => '')) ?? '').replace(/\s+/g, ' ').trim().replace(/:$/, '')
    if (words !== '') return words
  }
  return undefined
}

/**
 * What an app's bulk cache (org.a11y.atspi.Cache.GetItems) says of an accessible: its name,
 * description, states and interfaces. Its children are still asked of it: GTK 4's cache holds
 * only the accessibles some client has already been told of, so its parent links miss the rest.
 */
interface CachedItem {
  name: string
  description: string
  stateBits: unknown
  interfaces: Set<string>
}

/** Reads one accessible: the calls that do not depend on each other go out at once; what the app's bulk cache said is not asked again. */
export async function readNode(bus: AtspiBus, ref: AccessibleRef, cached?: CachedItem): Promise<{ node: AccessibleNode; childRefs: AccessibleRef[] }> {
  const [roleName, name, description, stateBits, interfaces, childCount] = await Promise.all([
    bus.call(ref, IFACE.accessible, 'GetRoleName').then((body) => String(body[0] ?? '')),
    cached?.name ?? bus.property(ref, IFACE.accessible, 'Name').then((value) => String(value ?? '')).catch(() => ''),
    cached?.description ?? bus.property(ref, IFACE.accessible, 'Description').then((value) => String(value ?? '')).catch(() => ''),
    cached?.stateBits ?? bus.call(ref, IFACE.accessible, 'GetState').then((body) => body[0]).catch(() => []),
    cached?.interfaces ?? bus.call(ref, IFACE.accessible, 'GetInterfaces').then((body) => new Set((body[0] as string[] | undefined) ?? [])).catch(() => new Set<string>()),
    bus.property(ref, IFACE.accessible, 'ChildCount').then(Number).catch(() => 0),
  ])
  const states = statesOf(stateBits)
  const showing = states.has('showing') || states.has('visible') || roleName === 'application'
  // A sheet of a spreadsheet says it has 2^31 children: it manages them, they are read by
  // position. Asking for its children hangs the app (LibreOffice lists every cell), so the
  // count and the state decide first.
  const folded = states.has('manages-descendants') || childCount > MAX_CHILDREN
  const [extents, text, value, actionEntries, label, children] = await Promise.all([
    showing && interfaces.has(IFACE.component) ? bus.call(ref, IFACE.component, 'GetExtents', 'u', [0]).then(extentsOf).catch(() => undefined) : undefined,
    interfaces.has(IFACE.text) && (TEXT_ROLES.has(roleName) || states.has('editable'))
      ? bus
          .property(ref, IFACE.text, 'CharacterCount')
          // GTK 4 answers GetText(0, -1) with "": ask for the characters it has.
          .then((count) => bus.call(ref, IFACE.text, 'GetText', 'ii', [0, Math.min(Number(count) || 0, MAX_TEXT)]))
          .then((body) => String(body[0] ?? ''))
          .catch(() => undefined)
      : undefined,
    interfaces.has(IFACE.value) ? bus.property(ref, IFACE.value, 'CurrentValue').then(Number).catch(() => undefined) : undefined,
    interfaces.has(IFACE.action)
      ? bus
          .call(ref, IFACE.action, 'GetActions')
          // (name, description, key binding) per action.
          .then((body) => ((body[0] as unknown[][] | undefined) ?? []).map((entry) => ({ name: String(entry[0] ?? ''), keys: String(entry[2] ?? '') })))
          .catch(() => [])
      : [],
    // A field with no name of its own is named by the label beside it ("Name:" in a file chooser).
    name === '' && (states.has('editable') || interfaces.has(IFACE.action)) ? labelOf(bus, ref) : undefined,
    folded || childCount === 0 ? [] : bus.call(ref, IFACE.accessible, 'GetChildren').then((body) => ((body[0] as unknown[] | undefined) ?? []).map(refOf).filter((r): r is AccessibleRef => r !== undefined)).catch(() => []),
  ])
  // A sheet shows the cells on the screen that hold something, read by position.
  const cells = folded && interfaces.has('org.a11y.atspi.Table') && extents !== undefined ? await visibleCells(bus, ref, extents).catch(() => []) : []
  // Qt says a menu item's shortcut through GetKeyBinding only, never in GetActions.
  if (MENU_ROLES.has(roleName) && actionEntries.length > 0 && actionEntries.every((entry) => entry.keys === '')) {
    const [binding] = await bus.call(ref, IFACE.action, 'GetKeyBinding', 'i', [0]).catch(() => [''])
    if (typeof binding === 'string' && binding !== '' && actionEntries[0] !== undefined) actionEntries[0].keys = binding
  }
  const node: AccessibleNode = { ref, role: roleName, name: name === '' ? (label ?? '') : name, description, states, interfaces, extents, text, value, actions: actionEntries.map((entry) => entry.name), keyBindings: actionEntries.map((entry) => entry.keys), children: cells, folded }
  return { node, childRefs: folded ? [] : children }
}

/**
 * Walks every app on the session's accessibility bus, level by level, each level's calls in
 * parallel: the depth of the tree, not its size, sets how many round trips it takes. A node
 * that fails to answer (an app quitting) is left out, never fails the walk.
 */
/** Menus say `visible` while closed; GTK 4 says neither `showing` nor `visible` of some containers that are on the screen. */
const MENU_ROLES = new Set(['menu', 'menu item', 'check menu item', 'radio menu item', 'tearoff menu item'])

/** Whether what is inside a node can be on the screen. */
export function onScreen(node: AccessibleNode): boolean {
  if (node.role === 'application' || node.states.has('showing')) return true
  return !MENU_ROLES.has(node.role) && node.states.has('visible')
}

export interface WalkOptions {
  /**
   * Read the insides of widgets that are not on the screen too (the items of a closed
   * menu's submenus): what discovery wants, not a frame, which shows the screen.
   */
  hidden?: boolean
}

export async function walkAccessibles(bus: AtspiBus, options: WalkOptions = {}): Promise<AccessibleTree> {
  const [appList] = await bus.call(REGISTRY, IFACE.accessible, 'GetChildren')
  const appRefs = ((appList as unknown[] | undefined) ?? []).map(refOf).filter((r): r is AccessibleRef => r !== undefined)
  await announceReader(bus, appRefs)
  return walkFrom(bus, appRefs, options)
}

/** Apps that answered GetItems with an error: not asked again on that bus. */
const withoutCache = new WeakMap<AtspiBus, Set<string>>()

/**
 * Every accessible an app's bulk cache holds (GTK 4 has one; ATK's bridge and LibreOffice do
 * not): one call for the names, states and interfaces of all it holds.
 */
async function cachedItems(bus: AtspiBus, appBus: string): Promise<Map<string, CachedItem> | undefined> {
  const without = withoutCache.get(bus) ?? new Set<string>()
  withoutCache.set(bus, without)
  if (without.has(appBus)) return undefined
  const [items] = await bus.call({ bus: appBus, path: '/org/a11y/atspi/cache' }, 'org.a11y.atspi.Cache', 'GetItems').catch(() => [undefined])
  if (!Array.isArray(items)) {
    without.add(appBus)
    return undefined
  }
  const out = new Map<string, CachedItem>()
  for (const item of items as unknown[][]) {
    // ((so) self, (so) app, (so) parent, i index, i child count, as interfaces, s name, u role, s description, au states)
    const self = refOf(item[0])
    if (self !== undefined) out.set(`${self.bus}|${self.path}`, { name: String(item[6] ?? ''), description: String(item[8] ?? ''), stateBits: item[9], interfaces: new Set((item[5] as string[] | undefined) ?? []) })
  }
  return out
}

/** The same walk from some accessibles (a menu just opened): each root and what is under it. */
export async function walkFrom(bus: AtspiBus, appRefs: readonly AccessibleRef[], options: WalkOptions = {}): Promise<AccessibleTree> {
  const caches = new Map<string, Map<string, CachedItem> | undefined>()
  for (const appBus of new Set(appRefs.map((ref) => ref.bus))) caches.set(appBus, await cachedItems(bus, appBus))
  const cachedOf = (ref: AccessibleRef): CachedItem | undefined => caches.get(ref.bus)?.get(`${ref.bus}|${ref.path}`)
  const apps: AccessibleNode[] = []
  let count = 0
  let truncated = false
  let level: Array<{ ref: AccessibleRef; parent: AccessibleNode | undefined }> = appRefs.map((ref) => ({ ref, parent: undefined }))
  for (let depth = 0; level.length > 0 && depth < MAX_DEPTH; depth++) {
    if (count + level.length > MAX_NODES) {
      level = level.slice(0, Math.max(0, MAX_NODES - count))
      truncated = true
    }
    const read = await Promise.all(level.map(({ ref }) => readNode(bus, ref, cachedOf(ref)).catch(() => undefined)))
    count += level.length
    const next: typeof level = []
    read.forEach((result, i) => {
      if (result === undefined) return
      const parent = level[i]?.parent
      if (parent === undefined) apps.push(result.node)
      else parent.children.push(result.node)
      // A node off the screen shows nothing inside it: a closed menu's items are read, their submenus not.
      const shown = options.hidden === true || parent === undefined || onScreen(result.node)
      if (shown) for (const ref of result.childRefs) next.push({ ref, parent: result.node })
      else if (result.childRefs.length > 0) result.node.folded = true
    })
    level = next
  }
  return { apps, count, truncated }
}
