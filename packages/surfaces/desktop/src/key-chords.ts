import { TesseraError } from '@tessera/protocol'

/** Modifier words people and agents write, as X names them for xdotool. */
const MODIFIERS: Readonly<Record<string, string>> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  controlormeta: 'ctrl',
  shift: 'shift',
  alt: 'alt',
  option: 'alt',
  super: 'super',
  meta: 'super',
  win: 'super',
  cmd: 'super',
}

/** Key names from the browser's and people's vocabulary, as X keysyms. */
const KEYS: Readonly<Record<string, string>> = {
  enter: 'Return',
  return: 'Return',
  esc: 'Escape',
  escape: 'Escape',
  tab: 'Tab',
  backspace: 'BackSpace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  space: 'space',
  home: 'Home',
  end: 'End',
  pageup: 'Page_Up',
  pagedown: 'Page_Down',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  arrowup: 'Up',
  arrowdown: 'Down',
  arrowleft: 'Left',
  arrowright: 'Right',
  menu: 'Menu',
  plus: 'plus',
  minus: 'minus',
}

const MAX_CHORDS = 32

/**
 * One chord in one spelling, to compare chords however they were written: lower case, the
 * modifiers by their X names and sorted (`Shift+Control+S` and `ctrl+shift+s` are one).
 */
export function chordKey(chord: string): string {
  const parts = chord.trim().toLowerCase().split('+')
  const key = parts.pop() ?? ''
  return [...parts.map((part) => MODIFIERS[part] ?? part).sort(), key].join('+')
}

/**
 * Chords that leave the app for the machine: switching the virtual terminal, killing the X
 * server, the kernel's SysRq. Refused whatever the policy says.
 */
function dangerous(modifiers: ReadonlySet<string>, key: string): string | undefined {
  const k = key.toLowerCase()
  if (modifiers.has('ctrl') && modifiers.has('alt') && (k === 'delete' || k === 'backspace')) return 'Ctrl+Alt+Delete and Ctrl+Alt+Backspace end the session'
  if (modifiers.has('ctrl') && modifiers.has('alt') && /^f\d{1,2}$/.test(k)) return 'Ctrl+Alt+F<n> switches the virtual terminal'
  if (k === 'sys_req' || (k === 'print' && modifiers.has('alt'))) return 'Alt+SysRq talks to the kernel'
  if (k.startsWith('xf86switch_vt') || k === 'terminate_server' || k.startsWith('xf86ungrab') || k.startsWith('xf86cleargrab')) return `${key} acts on the X server`
  return undefined
}

/**
 * Key chords as xdotool's key names: `Ctrl+Shift+S`, `Return`, `ctrl+a Delete` (a sequence,
 * space-separated). Unknown spellings and dangerous chords are typed errors, never sent.
 */
export function parseChords(text: string): string[] {
  const chords = text.trim().split(/\s+/).filter(Boolean)
  if (chords.length === 0) throw new TesseraError('invalid_input', 'expected a key chord such as Ctrl+S or Return, found nothing', { expected: 'Ctrl+Shift+S, Return, ctrl+a Delete', found: text })
  if (chords.length > MAX_CHORDS) throw new TesseraError('invalid_input', `expected at most ${MAX_CHORDS} chords at once, found ${chords.length}`, { found: chords.length })
  return chords.map((chord) => {
    // A lone "+" is the plus key; elsewhere "+" joins the parts of a chord.
    const parts = chord === '+' ? ['+'] : chord.split('+').map((part, i, all) => (part === '' && i === all.length - 1 ? '+' : part)).filter((part) => part !== '')
    const key = parts.pop() as string
    const modifiers = new Set<string>()
    for (const part of parts) {
      const modifier = MODIFIERS[part.toLowerCase()]
      if (modifier === undefined) throw new TesseraError('invalid_input', `expected a modifier (Ctrl, Shift, Alt, Super) before "${key}", found "${part}"`, { expected: Object.keys(MODIFIERS), found: part })
      modifiers.add(modifier)
    }
    // "Ctrl+S" means the S key: X reads the keysym "S" as Shift+s, so a letter under modifiers
    // is the key's own lower-case name, and Shift is pressed only when the chord says Shift.
    const letter = modifiers.size > 0 && /^[A-Za-z]$/.test(key) ? key.toLowerCase() : key
    const name = KEYS[letter.toLowerCase()] ?? (letter === '+' ? 'plus' : letter)
    if (!/^[A-Za-z0-9_]{1,40}$/.test(name) && [...name].length !== 1) throw new TesseraError('invalid_input', `expected a key name (Return, Tab, F5, a, …) or one character, found "${key}"`, { expected: 'an X key name or one character', found: key })
    const why = dangerous(modifiers, name)
    if (why !== undefined) throw new TesseraError('forbidden', `refused ${chord}: ${why}`, { found: chord })
    return [...modifiers, name].join('+')
  })
}
