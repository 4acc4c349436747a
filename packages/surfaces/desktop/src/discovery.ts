import { setTimeout as sleep } from 'node:timers/promises'
import { consequentialWord } from '@tessera/kit'
import type { Frame, JsonObject } from '@tessera/protocol'
import type { AppSchema, Toolkit } from './app-schema.js'
import type { AccessibleNode, AccessibleTree } from './atspi-tree.js'
import { customActionId } from './custom-actions.js'
import { cleanName, pressIndex } from './desktop-tree.js'
import { widgetsOf } from './frame-widgets.js'
import { type MenuItem, menuBarsOf, menuItemsOf } from './menu-shortcuts.js'
import { shortcutRegistry } from './shortcut-registry.js'

/** What discovery needs of a tile: its app's accessibles, its frame, and a way to open a menu and close it again. */
export interface DiscoveryHost {
  /** Every accessible of the tile's apps, those off the screen too. */
  walkAll(): Promise<AccessibleTree>
  /** The subtree under one accessible, off the screen too. */
  walkUnder(node: AccessibleNode): Promise<AccessibleNode | undefined>
  frame(): Promise<Frame>
  /** Runs an accessible's own action (opening a menu); never called on a menu item. */
  open(node: AccessibleNode): Promise<void>
  /** Closes whatever opening left open (Escape). */
  closeAll(): Promise<void>
  /** Runs a menu item that opens a dialog (its name ends in "…"): only during deep exploration. */
  openDialog(item: AccessibleNode): Promise<void>
  toolkit(): Promise<Toolkit | 'unknown'>
}

export interface CapabilityReport extends JsonObject {
  app_name: string
  toolkit: string
  capabilities: { shortcuts: JsonObject[]; widgets: JsonObject[]; custom_actions: JsonObject[]; menus: JsonObject[]; dialogs: JsonObject[] }
  schema_available: boolean
  /** 0–1: how much of what the app can do the report names (see docs/desktop.md). */
  exploration_confidence: number
  explored: { menus_opened: number; popups_opened: number; dialogs_opened: number; menu_items: number } & JsonObject
  cached: boolean
}

const MENU_ROLES = new Set(['menu', 'menu item', 'check menu item', 'radio menu item'])
/** The action that opens a menu or popover: a menu button's own press (-1 for none). */
const openIndex = (node: AccessibleNode): number => pressIndex(node.actions) ?? -1

/** Items of a menu count as read when at least one says its action or its keys: LibreOffice fills a menu only once it is opened. */
function read(items: readonly MenuItem[]): boolean {
  return items.some((item) => item.keys !== undefined || item.mnemonic !== undefined)
}

function popupButtons(node: AccessibleNode, inMenuBar = false): AccessibleNode[] {
  const here = !inMenuBar && !MENU_ROLES.has(node.role) && node.states.has('has-popup') && node.states.has('showing') && openIndex(node) >= 0 ? [node] : []
  return [...here, ...node.children.flatMap((child) => popupButtons(child, inMenuBar || node.role === 'menu bar'))]
}

function allNodes(node: AccessibleNode): AccessibleNode[] {
  return [node, ...node.children.flatMap(allNodes)]
}

/**
 * The discovery cascade: the app's schema, its widget tree, its menus walked for accelerators,
 * then (deep) safe exploration — each menu of the menu bar that has not said its items, and
 * each popup button, opened, read and closed with Escape; no menu item is ever activated.
 */
export async function discoverCapabilities(host: DiscoveryHost, app: string, schema: AppSchema | undefined, deep: boolean): Promise<CapabilityReport> {
  const toolkit = (await host.toolkit()) === 'unknown' ? (schema?.toolkit ?? 'unknown') : await host.toolkit()
  const tree = await host.walkAll()
  const menus: Array<{ name: string; items: MenuItem[]; opened: boolean }> = []
  let menusOpened = 0
  const seenMenus = new Set<string>()
  for (const bar of tree.apps.flatMap(menuBarsOf)) {
    // LibreOffice shows its menu bar twice (the window's and its root pane's): each menu once.
    // A menu of the bar is a `menu` (GTK, LibreOffice) or a `menu item` holding a `popup menu` (Qt).
    const tops = bar.children.filter((child) => child.role === 'menu' || (child.role === 'menu item' && child.children.some((inner) => inner.role === 'popup menu')))
    for (const top of tops.filter((child) => !seenMenus.has(child.name))) {
      seenMenus.add(top.name)
      let items = menuItemsOf(top, [cleanName(top.name) ?? ''])
      let opened = false
      if (deep && !read(items) && openIndex(top) >= 0) {
        await host.open(top)
        const fresh = await host.walkUnder(top)
        await host.closeAll()
        if (fresh !== undefined) items = menuItemsOf(fresh, [cleanName(top.name) ?? ''])
        menusOpened++
        opened = true
      }
      menus.push({ name: cleanName(top.name) ?? '', items, opened })
    }
  }
  let popupsOpened = 0
  if (deep) {
    for (const button of tree.apps.flatMap((appNode) => popupButtons(appNode))) {
      const before = new Set((await host.walkAll()).apps.flatMap(allNodes).map((node) => node.ref.path))
      await host.open(button)
      const after = (await host.walkAll()).apps.flatMap(allNodes)
      await host.closeAll()
      popupsOpened++
      const name = cleanName(button.name) ?? cleanName(button.description) ?? 'menu'
      const items = after
        .filter((node) => !before.has(node.ref.path) && (MENU_ROLES.has(node.role) || node.role === 'push button' || node.role === 'toggle button') && cleanName(node.name) !== undefined)
        .map((node): MenuItem => ({ path: [name, cleanName(node.name) as string], name: cleanName(node.name) as string, role: node.role, keys: undefined, mnemonic: undefined, enabled: node.states.has('sensitive'), node }))
      if (items.length > 0) menus.push({ name, items, opened: true })
    }
  }
  const dialogs = deep ? await exploreDialogs(host, menus.flatMap((menu) => menu.items)) : { found: [], opened: 0 }
  const discovered = menus.flatMap(({ name, items }) =>
    items.flatMap((item) => {
      const keys = item.keys ?? item.mnemonic
      // A submenu's mnemonic only opens it: a shortcut does something.
      if (keys === undefined || (item.role === 'menu' && item.keys === undefined)) return []
      return [{ keys, action: item.path.slice(1).join(' › '), category: name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'menu', ...(item.keys === undefined ? { description: 'through the menu\'s mnemonics' } : {}) }]
    }),
  )
  const shortcuts = shortcutRegistry(app, toolkit === 'unknown' ? 'gtk3' : toolkit, schema, discovered)
  const frame = await host.frame()
  const actionable = widgetsOf(frame).filter((widget) => widget.actions.some((action) => action === 'click' || action === 'type') && !/^menu/.test(widget.node.role ?? ''))
  const named = actionable.filter((widget) => (widget.node.name ?? '') !== '')
  const widgets = named.slice(0, 200).map((widget): JsonObject => ({ role: widget.node.role ?? widget.node.kind, name: widget.node.name ?? '', actions: widget.actions }))
  for (const widget of schema?.widgets ?? []) widgets.push({ role: widget.role, ...(widget.name === undefined ? {} : { name: widget.name }), id: widget.id, ...(widget.description === undefined ? {} : { description: widget.description }), source: 'schema' })
  const customActions = (schema?.custom_actions ?? []).map((action): JsonObject => ({ name: action.name, action: customActionId(action.name), title: action.title, risk: action.risk, params: Object.keys(action.params ?? {}) }))
  // How much the report can name: actionable widgets with names, menus whose items were read
  // (a menu bar never opened says little in LibreOffice); a schema vouches for part of it.
  const widgetShare = actionable.length === 0 ? 1 : named.length / actionable.length
  const menuShare = menus.length === 0 ? (deep ? 1 : 0.5) : menus.filter((menu) => read(menu.items) || menu.opened).length / menus.length
  const observed = (widgetShare + menuShare) / 2
  const confidence = schema === undefined ? observed : 0.4 + 0.6 * observed
  return {
    app_name: app,
    toolkit,
    capabilities: {
      shortcuts: shortcuts as unknown as JsonObject[],
      widgets,
      custom_actions: customActions,
      menus: menus.map((menu): JsonObject => ({ name: menu.name, items: menu.items.length, ...(menu.opened ? { opened: true } : {}) })),
      dialogs: dialogs.found,
    },
    schema_available: schema !== undefined,
    exploration_confidence: Math.round(confidence * 100) / 100,
    explored: { menus_opened: menusOpened, popups_opened: popupsOpened, dialogs_opened: dialogs.opened, menu_items: menus.reduce((n, menu) => n + menu.items.length, 0) },
    cached: false,
  }
}

/** At most this many dialogs are opened in one exploration. */
const MAX_DIALOGS = 8
/** How long a dialog has to appear once its item ran. */
const DIALOG_MS = 3_000
/** Items whose names say they open a dialog and nothing more, by the convention every toolkit's guidelines keep. */
const OPENS_DIALOG = /(\.\.\.|…)$/

/** The top-level windows of the tile's apps, by path and title. */
async function windowsOf(host: DiscoveryHost): Promise<Map<string, string>> {
  const tree = await host.walkAll()
  return new Map(tree.apps.flatMap((app) => app.children).map((window) => [`${window.ref.bus}|${window.ref.path}`, cleanName(window.name) ?? window.role]))
}

/** Whether every window opened since `before` is gone (asked for a moment: a window takes time to go). */
async function closed(host: DiscoveryHost, before: ReadonlyMap<string, string>): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < DIALOG_MS; await sleep(100)) {
    if (![...(await windowsOf(host)).keys()].some((key) => !before.has(key))) return true
  }
  return false
}

/**
 * Safe exploration's dialogs: each enabled menu item whose name ends in "…" (it opens a dialog
 * and does nothing until the dialog is answered) is run, the dialog that appears is read for its
 * named controls and closed with Escape, or else its Close or Cancel button. A dialog that does
 * not close ends the exploration.
 */
async function exploreDialogs(host: DiscoveryHost, items: readonly MenuItem[]): Promise<{ found: JsonObject[]; opened: number }> {
  const found: JsonObject[] = []
  let opened = 0
  const before = await windowsOf(host)
  // An item whose words are consequential (Send…, Delete…) is left alone even so.
  const candidates = items.filter((entry) => entry.enabled && OPENS_DIALOG.test(entry.name) && entry.node.actions.length > 0 && consequentialWord(entry.name) === null)
  for (const item of candidates.slice(0, MAX_DIALOGS)) {
    await host.openDialog(item.node)
    opened++
    let fresh: AccessibleNode[] = []
    for (const started = Date.now(); fresh.length === 0 && Date.now() - started < DIALOG_MS; await sleep(100)) {
      fresh = (await host.walkAll()).apps.flatMap((app) => app.children).filter((window) => !before.has(`${window.ref.bus}|${window.ref.path}`))
    }
    for (const dialog of fresh) {
      const controls = allNodes(dialog)
        .filter((node) => node !== dialog && node.actions.length > 0 && cleanName(node.name) !== undefined)
        .map((node) => `${node.role} ${JSON.stringify(cleanName(node.name))}`)
      found.push({ menu: item.path.join(' › '), title: cleanName(dialog.name) ?? dialog.role, controls: [...new Set(controls)].slice(0, 30) })
    }
    await host.closeAll()
    if (!(await closed(host, before))) {
      // A window Escape does not close (a preferences window) is closed by its Close or Cancel button, never another.
      for (const dialog of fresh) {
        const button = allNodes(dialog).find((node) => /button/.test(node.role) && /^(close|cancel)$/i.test(cleanName(node.name) ?? '') && node.actions.length > 0)
        if (button !== undefined) await host.open(button)
      }
      if (!(await closed(host, before))) {
        found.push({ menu: item.path.join(' › '), stuck: 'the dialog closed neither with Escape nor by a Close or Cancel button: exploration stopped' })
        break
      }
    }
  }
  return { found, opened }
}
