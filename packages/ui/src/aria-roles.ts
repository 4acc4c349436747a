import type { UiNode } from '@tessera/protocol'

/**
 * Which of a frame's roles a rendering may carry as ARIA roles. A frame names roles freely
 * (`text`, a `row` outside any table, a clickable `list`); written as they are, assistive
 * technology would be told a structure that is not there. Each rendered element keeps its
 * frame role in `data-role`; `role` is set only where ARIA's rules hold.
 */

/** ARIA 1.2 roles a renderer may write (abstract ones excluded). */
const ARIA_ROLES = new Set([
  'alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'button', 'caption', 'cell', 'checkbox', 'code', 'columnheader', 'combobox',
  'complementary', 'contentinfo', 'definition', 'deletion', 'dialog', 'document', 'emphasis', 'feed', 'figure', 'form', 'generic', 'grid', 'gridcell',
  'group', 'heading', 'img', 'insertion', 'link', 'list', 'listbox', 'listitem', 'log', 'main', 'marquee', 'math', 'menu', 'menubar', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'meter', 'navigation', 'none', 'note', 'option', 'paragraph', 'presentation', 'progressbar', 'radio', 'radiogroup',
  'region', 'row', 'rowgroup', 'rowheader', 'scrollbar', 'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'strong', 'subscript',
  'superscript', 'switch', 'tab', 'table', 'tablist', 'tabpanel', 'term', 'textbox', 'time', 'timer', 'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem',
])

/** Roles that mean something only inside one of these. */
const REQUIRED_PARENT: Readonly<Record<string, readonly string[]>> = {
  row: ['table', 'grid', 'treegrid', 'rowgroup'],
  rowgroup: ['table', 'grid', 'treegrid'],
  cell: ['row'],
  gridcell: ['row'],
  columnheader: ['row'],
  rowheader: ['row'],
  listitem: ['list'],
  option: ['listbox', 'group'],
  tab: ['tablist'],
  menuitem: ['menu', 'menubar', 'group'],
  menuitemcheckbox: ['menu', 'menubar', 'group'],
  menuitemradio: ['menu', 'menubar', 'group'],
  treeitem: ['tree', 'group'],
}

/** Roles that must own elements of these roles, and no other kind of element with a role. */
const REQUIRED_CHILDREN: Readonly<Record<string, readonly string[]>> = {
  list: ['listitem'],
  table: ['row', 'rowgroup'],
  grid: ['row', 'rowgroup'],
  treegrid: ['row', 'rowgroup'],
  rowgroup: ['row'],
  row: ['cell', 'gridcell', 'columnheader', 'rowheader'],
  listbox: ['option', 'group'],
  menu: ['menuitem', 'menuitemcheckbox', 'menuitemradio', 'group'],
  menubar: ['menuitem', 'menuitemcheckbox', 'menuitemradio', 'group'],
  tablist: ['tab'],
  tree: ['treeitem', 'group'],
}

/** Roles a native `<button>` (a node carrying an action) may take on. */
const BUTTON_ROLES = new Set(['button', 'checkbox', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'switch', 'tab', 'treeitem'])

export interface RoleContext {
  /** The ARIA role written on the nearest ancestor that has one. */
  parentRole: string | undefined
  /** Whether the node is drawn as a `<button>` (it carries an action). */
  isButton: boolean
}

/** The role as it would be written before checking its context (what children are judged by). */
function candidate(node: UiNode, isButton: boolean): string | undefined {
  const role = node.role
  if (role === undefined || !ARIA_ROLES.has(role)) return undefined
  if (isButton && !BUTTON_ROLES.has(role)) return undefined
  return role
}

/**
 * The ARIA role to write for `node`, or undefined for none (a button keeps its native one).
 * `isButton(child)` says whether a child is drawn as a button.
 */
export function ariaRole(node: UiNode, context: RoleContext, isButton: (child: UiNode) => boolean): string | undefined {
  const role = candidate(node, context.isButton)
  if (role === undefined) return undefined
  const parents = REQUIRED_PARENT[role]
  if (parents !== undefined && (context.parentRole === undefined || !parents.includes(context.parentRole))) return undefined
  const owned = REQUIRED_CHILDREN[role]
  if (owned !== undefined) {
    const children = (node.children ?? []).filter((child) => child.states?.hidden !== true)
    const roles = children.map((child) => (isButton(child) ? (candidate(child, true) ?? 'button') : candidate(child, false)))
    if (!roles.some((r) => r !== undefined && owned.includes(r))) return undefined
    if (roles.some((r) => r !== undefined && !owned.includes(r))) return undefined
  }
  return role
}
