import { describe, expect, it } from 'vitest'
import { parseChords } from './key-chords.js'

describe('key chords', () => {
  it('read the way people write them, as X key names', () => {
    expect(parseChords('Ctrl+Shift+S')).toEqual(['ctrl+shift+s'])
    // The S key, not Shift+s: a capital under modifiers would press Shift too.
    expect(parseChords('Ctrl+S Ctrl+A')).toEqual(['ctrl+s', 'ctrl+a'])
    expect(parseChords('A')).toEqual(['A'])
    expect(parseChords('Enter')).toEqual(['Return'])
    expect(parseChords('ctrl+a Delete  Escape')).toEqual(['ctrl+a', 'Delete', 'Escape'])
    expect(parseChords('Control+ArrowLeft')).toEqual(['ctrl+Left'])
    expect(parseChords('ctrl++')).toEqual(['ctrl+plus'])
    expect(parseChords('F5')).toEqual(['F5'])
  })

  it('refuse what leaves the app for the machine, and say why', () => {
    expect(() => parseChords('Ctrl+Alt+Delete')).toThrow(/refused Ctrl\+Alt\+Delete: .*end the session/)
    expect(() => parseChords('ctrl+alt+f2')).toThrow(/switches the virtual terminal/)
    expect(() => parseChords('Alt+Print')).toThrow(/SysRq/)
    expect(() => parseChords('XF86Switch_VT_1')).toThrow(/X server/)
    expect(() => parseChords('Return Ctrl+Alt+BackSpace')).toThrow(/refused/)
  })

  it('name what they expected when they cannot read a chord', () => {
    expect(() => parseChords('')).toThrow(/expected a key chord/)
    expect(() => parseChords('Hyper+q')).toThrow(/expected a modifier .* found "Hyper"/)
    expect(() => parseChords('ctrl+<script>')).toThrow(/expected a key name/)
    expect(() => parseChords(Array.from({ length: 40 }, () => 'a').join(' '))).toThrow(/at most 32/)
  })
})
