import type { AccessibleNode } from './atspi-tree.js'
import { cleanName } from './desktop-tree.js'

/** GTK's accelerator modifiers as people write them. */
const MODIFIER_WORDS: Readonly<Record<string, string>> = { primary: 'Ctrl', control: 'Ctrl', ctrl: 'Ctrl', shift: 'Shift', alt: 'Alt', mod1: 'Alt', super: 'Super', meta: 'Super' }

/**
 * An accelerator as AT-SPI reports it (`<Primary><Shift>s`, `<Control>F5`, `F11`) as a chord
 * people and `gui_send_keys` read (`Ctrl+Shift+S`); undefined for none or GTK's placeholder.
 */
export function chordOf(accelerator: string): string | undefined {
  const text = accelerator.trim()
  if (text === '' || text.includes('VoidSymbol')) return undefined
  const modifiers: string[] = []
  const key = text.replace(/<([^>]+)>/g, (_, word: string) => {
    const modifier = MODIFIER_WORDS[word.toLowerCase()]
    if (modifier !== undefined && !modifiers.includes(modifier)) modifiers.push(modifier)
    return ''
  })
  if (key === '') return undefined
  return [...modifiers, key.length === 1 ? key.toUpperCase() : key].join('+')
}

/** One item of an app's menus, with its place in them. */
export interface MenuItem {
  /** File › Save As… */
  path: string[]
  name: string
  role: string
  /** Its accelerator as a chord (`Ctrl+Shift+S`). */
  keys: string | undefined
  /** Reaching it through the menu's mnemonics (`Alt+F A`) when it has no accelerator. */
  mnemonic: string | undefined
  enabled: boolean
  /** The accessible itself, for safe exploration to open a dialog by it. */
  node: AccessibleNode
}

const MENU_ITEM = new Set(['menu item', 'check menu item', 'radio menu item', 'menu'])

/** The three parts of an AT-SPI key binding: `mnemonic;path;accelerator` (GTK), some toolkits only the accelerator. */
function bindingParts(binding: string): { path: string; accelerator: string } {
  const parts = binding.split(';')
  return parts.length >= 3 ? { path: parts[1] ?? '', accelerator: parts[2] ?? '' } : { path: '', accelerator: parts[0] ?? '' }
}

/** `<Alt>f:s` (GTK's mnemonic path) as the keys that walk it: `Alt+F S`. */
function mnemonicKeys(path: string): string | undefined {
  const steps = path.split(':').filter(Boolean)
  if (steps.length < 2) return undefined
  const [first, ...rest] = steps
  const opener = chordOf(first as string)
  return opener === undefined ? undefined : [opener, ...rest.map((step) => step.toUpperCase())].join(' ')
}

/**
 * Every item of the menus under `root` (a menu bar, or a popup menu opened during
 * exploration), depth first, each with the keys that reach it.
 */
export function menuItemsOf(root: AccessibleNode, trail: string[] = []): MenuItem[] {
  const out: MenuItem[] = []
  for (const child of root.children) {
    if (!MENU_ITEM.has(child.role)) {
      out.push(...menuItemsOf(child, trail))
      continue
    }
    const name = cleanName(child.name)
    if (name === undefined) continue
    const binding = child.keyBindings.find((entry) => entry !== '') ?? ''
    const { path, accelerator } = bindingParts(binding)
    const keys = chordOf(accelerator)
    const mnemonic = keys === undefined ? mnemonicKeys(path) : undefined
    const here = [...trail, name]
    // A menu of the bar is the trail, not an item (GTK's `menu`, Qt's `menu item` with a popup).
    const opensMenu = child.role === 'menu' || child.children.some((inner) => inner.role === 'popup menu')
    if (!opensMenu || trail.length > 0) out.push({ path: here, name, role: child.role, keys, mnemonic, enabled: child.states.has('sensitive') || child.states.has('enabled'), node: child })
    out.push(...menuItemsOf(child, here))
  }
  return out
}

/** The menu bars of an app's tree. */
export function menuBarsOf(node: AccessibleNode): AccessibleNode[] {
  if (node.role === 'menu bar') return [node]
  return node.children.flatMap(menuBarsOf)
}
