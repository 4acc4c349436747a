import { TesseraError } from '@tessera/protocol'
import { KEYS } from './shell-types.js'

/** One `input` action's worth of what a person typed: printable text, or one named key. */
export type Keystroke = { text: string } | { keys: [string] }

// Longest sequences first, so "\x1b[A" is read as up rather than escape followed by "[A".
const BY_BYTES = Object.entries(KEYS)
  .filter(([name]) => name !== 'space')
  .map(([name, bytes]) => ({ name, bytes }))
  .sort((a, b) => b.bytes.length - a.bytes.length)

// Emulators send some keys in their application-mode form (ESC O A); they mean the same.
const ALIASES: Readonly<Record<string, string>> = { '\x1bOA': 'up', '\x1bOB': 'down', '\x1bOC': 'right', '\x1bOD': 'left', '\x1bOH': 'home', '\x1bOF': 'end', '\x1b[1~': 'home', '\x1b[4~': 'end', '\n': 'enter' }

/**
 * What a terminal emulator sends as a person types (xterm's onData), as the terminal's
 * `input` actions: runs of printable text, and each control sequence by its key name, so a
 * person's typing passes the gateway (and its risk rules for Enter at a prompt) like an
 * agent's. A sequence with no name is refused, never written raw.
 */
export function keystrokes(data: string): Keystroke[] {
  const out: Keystroke[] = []
  let text = ''
  let at = 0
  const flush = (): void => {
    if (text.length > 0) out.push({ text })
    text = ''
  }
  while (at < data.length) {
    const rest = data.slice(at)
    const alias = Object.keys(ALIASES).find((bytes) => rest.startsWith(bytes))
    const key = alias === undefined ? BY_BYTES.find(({ bytes }) => rest.startsWith(bytes)) : { name: ALIASES[alias] as string, bytes: alias }
    // A lone Escape is a key; Escape opening a sequence (ESC [ or ESC O) that has no name here is not.
    const unnamedSequence = key?.name === 'escape' && (rest[1] === '[' || rest[1] === 'O')
    if (key !== undefined && !unnamedSequence) {
      flush()
      out.push({ keys: [key.name] })
      at += key.bytes.length
      continue
    }
    const char = String.fromCodePoint(data.codePointAt(at) as number)
    if (unnamedSequence || /\p{Cc}/u.test(char)) {
      throw new TesseraError('invalid_input', `a key this terminal cannot name: ${JSON.stringify(rest.slice(0, 8))}`, { expected: Object.keys(KEYS), found: rest.slice(0, 8) })
    }
    text += char
    at += char.length
  }
  flush()
  return out
}
