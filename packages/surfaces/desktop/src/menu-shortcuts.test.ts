import { describe, expect, it } from 'vitest'
import { chordOf } from './menu-shortcuts.js'

describe('chordOf', () => {
  it('writes AT-SPI accelerators as chords people read', () => {
    expect(chordOf('<Primary><Shift>s')).toBe('Ctrl+Shift+S')
    expect(chordOf('<Control>F5')).toBe('Ctrl+F5')
    expect(chordOf('<Alt>Up')).toBe('Alt+Up')
    expect(chordOf('F11')).toBe('F11')
    expect(chordOf('<Primary><Shift>Delete')).toBe('Ctrl+Shift+Delete')
  })

  it('says nothing for no accelerator or GTK\'s placeholder', () => {
    expect(chordOf('')).toBeUndefined()
    expect(chordOf('<VoidSymbol>')).toBeUndefined()
    expect(chordOf('<Primary>')).toBeUndefined()
  })
})
