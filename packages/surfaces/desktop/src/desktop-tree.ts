import { type NodeLedger, consequentialWord } from '@tessera/kit'
import { type Layout, type NodeStates, type TargetSpec, type UiNode, withoutInvisible } from '@tessera/protocol'
import type { AccessibleRef } from './atspi-bus.js'
import type { AccessibleNode, AccessibleTree } from './atspi-tree.js'

/** AT-SPI role names as the roles every other surface uses (ARIA's words); the rest keep theirs, hyphenated. */
const ROLES: Readonly<Record<string, string>> = {
  'push button': 'button',
  'toggle button': 'button',
  'check box': 'checkbox',
  'check menu item': 'menuitemcheckbox',
  'radio button': 'radio',
  'radio menu item': 'menuitemradio',
  text: 'textbox',
  'text box': 'textbox',
  entry: 'textbox',
  'password text': 'textbox',
  'menu item': 'menuitem',
  'menu bar': 'menubar',
  'page tab': 'tab',
  'page tab list': 'tablist',
  'combo box': 'combobox',
  'list item': 'listitem',
  'list box': 'listbox',
  'table cell': 'cell',
  'column header': 'columnheader',
  'row header': 'rowheader',
  'table row': 'row',
  'tree table': 'treegrid',
  'tree item': 'treeitem',
  'spin button': 'spinbutton',
  'scroll bar': 'scrollbar',
  'progress bar': 'progressbar',
  'tool bar': 'toolbar',
  'status bar': 'status',
  'tool tip': 'tooltip',
  frame: 'window',
  'document frame': 'document',
  'document text': 'document',
  'document spreadsheet': 'document',
  'document web': 'document',
  image: 'img',
  icon: 'img',
  'option pane': 'dialog',
  'file chooser': 'dialog',
  'color chooser': 'dialog',
}

/** Roles that are only structure when they carry no name and no action: their children take their place. */
const STRUCTURE = new Set(['group', 'widget', 'filler', 'panel', 'section', 'scroll pane', 'viewport', 'layered pane', 'split pane', 'unknown', 'redundant object', 'internal frame', 'root pane', 'glass pane', 'form'])
/** Parts of widgets an agent never acts on or reads. */
const NOISE = new Set(['scroll bar'])
/** Action names that mean "do what this control does". */
const PRESS_ACTIONS = ['click', 'press', 'activate', 'toggle', 'jump', 'open', 'select', 'showmenu']
/** A toolkit's class name standing where a name should be (GTK 4 names unnamed widgets after their class). */
const CLASS_NAME = /^(Gtk|Adw|Gdk|Gio|Qt|Q)[A-Z][A-Za-z]+$/

export interface DesktopTree {
  tree: UiNode
  layout: Layout
  targets: TargetSpec[]
  /** Node id → the accessible it is, for acting on it. */
  places: Map<string, AccessiblePlace>
  /** The apps shown (their bus names): the ledger forgets the rest. */
  liveApps: Set<string>
}

/** What the tile remembers of a widget of the last walk. */
export interface AccessiblePlace {
  ref: AccessibleRef
  role: string
  name: string
  /** The index of its press action for DoAction, when it has one. */
  pressAction: number | undefined
  editable: boolean
  /** Takes text through EditableText; without it, keys typed after it takes the focus. */
  editableText: boolean
  /** Its box in tile coordinates, for a pointer click when it has no action. */
  bounds: { x: number; y: number; width: number; height: number } | undefined
}

/** A name as the agent should read it: no class names, no word said twice ("4 4" is GTK 4 naming a button after its label twice). */
export function cleanName(name: string): string | undefined {
  const one = withoutInvisible(name).replace(/\s+/g, ' ').trim()
  if (one === '' || CLASS_NAME.test(one)) return undefined
  const half = (one.length - 1) / 2
  if (Number.isInteger(half) && one[half] === ' ' && one.slice(0, half) === one.slice(half + 1)) return one.slice(0, half)
  return one
}

function statesOf(node: AccessibleNode): NodeStates {
  const s = node.states
  const out: NodeStates = {}
  if (s.has('checked')) out.checked = true
  else if (s.has('checkable')) out.checked = false
  if (s.has('indeterminate')) out.mixed = true
  if (s.has('pressed')) out.pressed = true
  if (s.has('selected')) out.selected = true
  if (s.has('expanded')) out.expanded = true
  else if (s.has('expandable')) out.expanded = false
  if (s.has('focused')) out.focused = true
  if (s.has('required')) out.required = true
  if (s.has('invalid-entry')) out.invalid = true
  if (s.has('read-only')) out.readonly = true
  if (s.has('modal')) out.modal = true
  if (!s.has('sensitive') && !s.has('enabled') && node.role !== 'application') out.disabled = true
  return out
}

interface Walk {
  ledger: NodeLedger
  layout: Layout
  targets: TargetSpec[]
  places: Map<string, AccessiblePlace>
  /** Where the tile's screen starts, so that bounds are tile coordinates. */
  origin: { x: number; y: number }
}

/**
 * The apps of a desktop tile as one tree: each app under the root, its windows under it.
 * Structure without meaning is dropped (its children take its place), a label that repeats
 * its control's name is said once, and every widget with an action or editable text becomes a
 * target with the risk its words carry.
 */
export function buildDesktopTree(walked: AccessibleTree, ledger: NodeLedger, title: string): DesktopTree {
  const walk: Walk = { ledger, layout: {}, targets: [], places: new Map(), origin: { x: 0, y: 0 } }
  const liveApps = new Set<string>()
  const apps: UiNode[] = []
  for (const app of walked.apps) {
    liveApps.add(app.ref.bus)
    const children = app.children.flatMap((child) => convert(child, walk, undefined))
    apps.push({ id: ledger.idOf(app.ref.bus, app.ref.path), kind: 'box', role: 'application', name: cleanName(app.name) ?? app.ref.bus, children })
  }
  return { tree: { id: 'desktop', kind: 'box', role: 'desktop', name: title, children: apps }, layout: walk.layout, targets: walk.targets, places: walk.places, liveApps }
}

function convert(node: AccessibleNode, walk: Walk, parentName: string | undefined): UiNode[] {
  if (NOISE.has(node.role)) return []
  const name = cleanName(node.name)
  const pressAction = pressIndex(node.actions)
  // Chromium's fields say editable without EditableText: the tile types into those with keys.
  const editable = node.states.has('editable') && (node.interfaces.has('org.a11y.atspi.EditableText') || node.interfaces.has('org.a11y.atspi.Text'))
  const children = node.children.flatMap((child) => convert(child, walk, name ?? parentName))
  // A label that only repeats its control's name (a button's own caption) says nothing new.
  const text = node.text === undefined ? undefined : withoutInvisible(node.text).replace(/\s+/g, ' ').trim()
  if (node.role === 'label' && (text === undefined || text === '' || text === parentName || (name !== undefined && name === parentName))) return children
  // A control GTK 4 left unnamed takes its caption's words.
  const caption = name ?? (pressAction !== undefined ? captionOf(node) : undefined)
  const acts = pressAction !== undefined || editable
  if (STRUCTURE.has(node.role) && caption === undefined && !acts) return children
  const id = walk.ledger.idOf(node.ref.bus, node.ref.path)
  const role = ROLES[node.role] ?? node.role.replace(/\s+/g, '-')
  const out: UiNode = { id, kind: 'box', role }
  if (caption !== undefined) out.name = caption
  if (node.role === 'label' && text !== undefined) {
    out.kind = 'text'
    out.text = text
    delete out.role
  } else if (text !== undefined && text !== caption) out.value = node.role === 'password text' ? null : text
  else if (node.value !== undefined && Number.isFinite(node.value)) out.value = node.value
  if (node.role === 'password text') out.semantic = { sensitive: true }
  const states = statesOf(node)
  if (Object.keys(states).length > 0) out.states = states
  // A control's caption label is its name now: not a child of its own.
  const kept = caption !== undefined && name === undefined ? children.filter((child) => !(child.kind === 'text' && child.text === caption)) : children
  if (kept.length > 0) out.children = kept
  const bounds = node.extents === undefined ? undefined : { x: node.extents.x - walk.origin.x, y: node.extents.y - walk.origin.y, width: node.extents.width, height: node.extents.height }
  if (bounds !== undefined) walk.layout[id] = bounds
  const enabled = states.disabled !== true
  walk.places.set(id, { ref: node.ref, role, name: caption ?? '', pressAction, editable, editableText: node.interfaces.has('org.a11y.atspi.EditableText'), bounds })
  if (pressAction !== undefined) walk.targets.push({ contract: 'click', nodeId: id, enabled, ...(consequentialWord(caption) !== null ? { risk: 'destructive' as const } : {}) })
  if (editable) walk.targets.push({ contract: 'type', nodeId: id, enabled: enabled && states.readonly !== true })
  return [out]
}

/** The index of a widget's own "do it" action for DoAction (press, click, toggle, show its menu…), if it has one. */
export function pressIndex(actions: readonly string[]): number | undefined {
  for (const wanted of PRESS_ACTIONS) {
    const index = actions.findIndex((action) => action.toLowerCase() === wanted)
    if (index >= 0) return index
  }
  // Chromium names no action: the first is the default one, as AT-SPI has it.
  return actions.length > 0 && actions.every((action) => action === '') ? 0 : undefined
}

/** The words of a control's first label inside it. */
function captionOf(node: AccessibleNode): string | undefined {
  for (const child of node.children) {
    if (child.role === 'label') {
      const text = cleanName(child.text ?? child.name)
      if (text !== undefined) return text
    }
    const inner = captionOf(child)
    if (inner !== undefined) return inner
  }
  return undefined
}
