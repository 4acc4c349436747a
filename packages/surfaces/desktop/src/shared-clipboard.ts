import { chordKey } from './key-chords.js'

/**
 * The clipboard desktop tiles share. Each tile has its own X display and so its own
 * clipboard; what an agent copies in one tile is kept here and offered to the next tile it
 * pastes in, as a person's one clipboard would be. Text only.
 */
export interface ClipboardEntry {
  text: string
  /** The tile it was copied in. */
  from: string
  /** Increases with every copy, so a tile can tell it has already taken this one. */
  serial: number
}

let latest: ClipboardEntry | undefined
let serial = 0

export const sharedClipboard = {
  put(text: string, from: string): ClipboardEntry {
    latest = { text, from, serial: ++serial }
    return latest
  },
  get(): ClipboardEntry | undefined {
    return latest
  },
}

const COPY = new Set(['ctrl+c', 'ctrl+x', 'ctrl+insert', 'shift+delete', 'ctrl+shift+c'])
const PASTE = new Set(['ctrl+v', 'shift+insert', 'ctrl+shift+v'])

export const copies = (chord: string): boolean => COPY.has(chordKey(chord))
export const pastes = (chord: string): boolean => PASTE.has(chordKey(chord))
