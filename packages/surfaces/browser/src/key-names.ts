import { TesseraError } from '@tessera/protocol'

/**
 * The named keys Playwright's keyboard knows: its US layout's DOM codes and key names, and
 * `ControlOrMeta`. A printable ASCII character is a key too. Playwright presses a chord's
 * modifiers before it looks up its last key, so an unknown one would leave them held: a chord
 * is checked whole before anything is pressed.
 */
const NAMED = [
  'Escape', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12',
  'Backquote', 'Digit1', 'Digit2', 'Digit3', 'Digit4', 'Digit5', 'Digit6', 'Digit7', 'Digit8', 'Digit9', 'Digit0', 'Minus', 'Equal', 'Backslash', 'Backspace',
  'Tab', 'KeyQ', 'KeyW', 'KeyE', 'KeyR', 'KeyT', 'KeyY', 'KeyU', 'KeyI', 'KeyO', 'KeyP', 'BracketLeft', 'BracketRight',
  'CapsLock', 'KeyA', 'KeyS', 'KeyD', 'KeyF', 'KeyG', 'KeyH', 'KeyJ', 'KeyK', 'KeyL', 'Semicolon', 'Quote', 'Enter',
  'ShiftLeft', 'Shift', 'KeyZ', 'KeyX', 'KeyC', 'KeyV', 'KeyB', 'KeyN', 'KeyM', 'Comma', 'Period', 'Slash', 'ShiftRight',
  'ControlLeft', 'Control', 'MetaLeft', 'Meta', 'AltLeft', 'Alt', 'Space', 'AltRight', 'AltGraph', 'MetaRight', 'ContextMenu', 'ControlRight', 'ControlOrMeta',
  'PrintScreen', 'ScrollLock', 'Pause', 'PageUp', 'PageDown', 'Insert', 'Delete', 'Home', 'End', 'ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown',
  'AudioVolumeMute', 'AudioVolumeDown', 'AudioVolumeUp', 'MediaTrackNext', 'MediaTrackPrevious', 'MediaPlayPause',
  'NumLock', 'NumpadDivide', 'NumpadMultiply', 'NumpadSubtract', 'Numpad7', 'Numpad8', 'Numpad9', 'Numpad4', 'Numpad5', 'Clear', 'Numpad6', 'NumpadAdd',
  'Numpad1', 'Numpad2', 'Numpad3', 'Numpad0', 'NumpadDecimal', 'NumpadEnter',
]

/** What agents write for a key, in lower case: Playwright's names in any case, and the usual short forms. */
const BY_LOWER_NAME = new Map<string, string>([
  ...NAMED.map((name) => [name.toLowerCase(), name] as const),
  ['ctrl', 'Control'],
  ['cmd', 'Meta'],
  ['command', 'Meta'],
  ['super', 'Meta'],
  ['win', 'Meta'],
  ['option', 'Alt'],
  ['opt', 'Alt'],
  ['esc', 'Escape'],
  ['del', 'Delete'],
  ['ins', 'Insert'],
  ['return', 'Enter'],
  ['spacebar', 'Space'],
  ['up', 'ArrowUp'],
  ['down', 'ArrowDown'],
  ['left', 'ArrowLeft'],
  ['right', 'ArrowRight'],
  ['pgup', 'PageUp'],
  ['pgdn', 'PageDown'],
])

const PRINTABLE = /^[\x20-\x7e]$/

/** A chord's keys as Playwright splits them: on `+`, where a `+` that begins a key is the key (`Control++`). */
function keysOf(chord: string): string[] {
  const keys: string[] = []
  let building = ''
  for (const char of chord) {
    if (char === '+' && building !== '') {
      keys.push(building)
      building = ''
    } else building += char
  }
  keys.push(building)
  return keys
}

/**
 * A key or chord (`Enter`, `Control+a`, `ctrl+shift+End`) in the names Playwright's keyboard
 * presses; `invalid_input` naming the key it does not know, before any is pressed.
 */
export function keyChord(chord: string): string {
  const keys = keysOf(chord).map((key) => (PRINTABLE.test(key) ? key : (BY_LOWER_NAME.get(key.toLowerCase()) ?? null)))
  const unknown = keysOf(chord).find((_, i) => keys[i] === null)
  if (unknown === undefined) return keys.join('+')
  const hint = [...unknown].length === 1 ? '; a character off the US keyboard is typed (browser_type), not pressed' : ''
  throw new TesseraError('invalid_input', `expected a key name (Enter, Escape, Tab, ArrowDown, PageDown, F5, a, Control+a, …), found "${unknown}"${chord === unknown ? '' : ` in "${chord}"`}${hint}`, {
    expected: 'key names joined by +',
    found: chord,
  })
}
