import type { AppSchema, Toolkit } from './app-schema.js'
import { chordKey } from './key-chords.js'

/** Where a shortcut comes from: the app's schema, its own menus, its toolkit, or Tessera's overlay. */
export type ShortcutSource = 'schema' | 'discovered' | 'toolkit' | 'overlay'

export interface Shortcut {
  id: string
  app: string
  keys: string
  action: string
  /** file, edit, view… as the menu it sits in; `ai-added` for the overlay's. */
  category: string
  source: ShortcutSource
  description?: string
  /** For the overlay's: what it answers. */
  returns?: string
  /** Whether it may run during safe exploration: it reads and changes nothing. */
  safe_in_sandbox?: boolean
}

type BareShortcut = Omit<Shortcut, 'id' | 'app' | 'source'>

/** The editing chords every toolkit's text fields and most of its apps take. */
const EDITING: readonly BareShortcut[] = [
  { keys: 'Ctrl+A', action: 'Select all', category: 'edit' },
  { keys: 'Ctrl+C', action: 'Copy', category: 'edit' },
  { keys: 'Ctrl+X', action: 'Cut', category: 'edit' },
  { keys: 'Ctrl+V', action: 'Paste', category: 'edit' },
  { keys: 'Ctrl+Z', action: 'Undo', category: 'edit' },
]

/** Moving between controls, in the toolkits that move with Tab. */
const TABBING: readonly BareShortcut[] = [
  { keys: 'Tab', action: 'Next control', category: 'navigate' },
  { keys: 'Shift+Tab', action: 'Previous control', category: 'navigate' },
]

/** What every app of a toolkit understands, whatever its menus say. */
const TOOLKIT_SHORTCUTS: Readonly<Record<'gtk' | 'qt' | 'vcl' | 'electron', readonly BareShortcut[]>> = {
  gtk: [
    { keys: 'F10', action: 'Open the menu bar or the primary menu', category: 'navigate' },
    { keys: 'Shift+F10', action: 'Open the context menu', category: 'navigate' },
    ...TABBING,
    { keys: 'Escape', action: 'Close the menu, popover or dialog', category: 'navigate' },
    ...EDITING,
  ],
  qt: [{ keys: 'Alt', action: 'Show the menu bar\'s mnemonics', category: 'navigate' }, ...TABBING, { keys: 'Escape', action: 'Close the menu or dialog', category: 'navigate' }, ...EDITING],
  vcl: [
    { keys: 'F10', action: 'Open the menu bar', category: 'navigate' },
    { keys: 'Shift+F10', action: 'Open the context menu', category: 'navigate' },
    { keys: 'F6', action: 'Next area (menu, toolbars, document)', category: 'navigate' },
    { keys: 'Escape', action: 'Close the menu or dialog', category: 'navigate' },
    ...EDITING,
    { keys: 'Ctrl+Y', action: 'Redo', category: 'edit' },
  ],
  electron: [{ keys: 'Alt', action: 'Show the menu bar', category: 'navigate' }, ...EDITING],
}

/**
 * The seed's AI-added convention, answered by Tessera itself over any tile: the chord never
 * reaches the app, the overlay reads the tile and answers.
 */
export const AI_SHORTCUTS: ReadonlyArray<Omit<Shortcut, 'app'>> = [
  { id: 'ai.describe', keys: 'Ctrl+Alt+Shift+?', action: 'Describe current state', category: 'ai-added', source: 'overlay', returns: 'JSON: the window, any dialog, the focused widget, text fields and their values, counts', safe_in_sandbox: true },
  { id: 'ai.dump', keys: 'Ctrl+Alt+Shift+D', action: 'Dump document structure', category: 'ai-added', source: 'overlay', returns: 'the widget tree as an outline with @refs', safe_in_sandbox: true },
  { id: 'ai.highlight', keys: 'Ctrl+Alt+Shift+H', action: 'Highlight interactive elements', category: 'ai-added', source: 'overlay', returns: 'a PNG of the tile with every actionable widget boxed, and the boxes\' @refs', safe_in_sandbox: true },
  { id: 'ai.suggest', keys: 'Ctrl+Alt+Shift+S', action: 'Suggested next actions', category: 'ai-added', source: 'overlay', returns: 'what can be done now, most likely first, as calls', safe_in_sandbox: true },
]

/** The overlay shortcut these keys are, if any (any spelling of the modifiers, any order). */
export function aiShortcutOf(keys: string): (typeof AI_SHORTCUTS)[number] | undefined {
  // "?" is Shift+/ on the keyboard: either spelling means it.
  const wanted = chordKey(keys).replace(/\/$/, '?')
  return AI_SHORTCUTS.find((shortcut) => chordKey(shortcut.keys) === wanted)
}

function family(toolkit: Toolkit): keyof typeof TOOLKIT_SHORTCUTS {
  // A web build runs in Chromium: its window answers Chromium's keys.
  return toolkit === 'gtk2' || toolkit === 'gtk3' || toolkit === 'gtk4' ? 'gtk' : toolkit === 'qt5' || toolkit === 'qt6' ? 'qt' : toolkit === 'web' ? 'electron' : toolkit
}

/** Keys as one spelling, to tell that two sources name the same chord. */
const keyOf = (keys: string): string => keys.toLowerCase().replace(/\s+/g, ' ')

/**
 * Every shortcut known for an app, each chord once: its schema's first, then those read from
 * its menus, then its toolkit's, then the overlay's.
 */
export function shortcutRegistry(app: string, toolkit: Toolkit, schema: AppSchema | undefined, discovered: readonly BareShortcut[]): Shortcut[] {
  const out: Shortcut[] = []
  const seen = new Set<string>()
  const add = (entry: Omit<Shortcut, 'id' | 'app'>): void => {
    const key = keyOf(entry.keys)
    if (seen.has(key)) return
    seen.add(key)
    out.push({ id: `${app}.${out.length + 1}`, app, ...entry })
  }
  for (const shortcut of schema?.shortcuts ?? []) add({ ...shortcut, source: 'schema' })
  for (const shortcut of discovered) add({ ...shortcut, source: 'discovered' })
  for (const shortcut of TOOLKIT_SHORTCUTS[family(toolkit)]) add({ ...shortcut, source: 'toolkit' })
  for (const shortcut of AI_SHORTCUTS) {
    seen.add(keyOf(shortcut.keys))
    out.push({ ...shortcut, app })
  }
  return out
}

/** The seed's filter: `all`, `built-in` (the app's and its toolkit's), `ai-added`, or a category by name. */
export function filterShortcuts(shortcuts: readonly Shortcut[], category: string | undefined): Shortcut[] {
  if (category === undefined || category === 'all') return [...shortcuts]
  if (category === 'built-in') return shortcuts.filter((s) => s.source !== 'overlay')
  return shortcuts.filter((s) => s.category === category)
}
