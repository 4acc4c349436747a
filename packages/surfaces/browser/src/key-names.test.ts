import { describe, expect, it } from 'vitest'
import { keyChord } from './key-names.js'

describe('keyChord', () => {
  it("names keys as Playwright's keyboard does, whatever case or short form an agent wrote", () => {
    expect(keyChord('Enter')).toBe('Enter')
    expect(keyChord('ctrl+a')).toBe('Control+a')
    expect(keyChord('Ctrl+Shift+end')).toBe('Control+Shift+End')
    expect(keyChord('cmd+Esc')).toBe('Meta+Escape')
    expect(keyChord('pgdn')).toBe('PageDown')
    expect(keyChord('Up')).toBe('ArrowUp')
    expect(keyChord('ControlOrMeta+KeyC')).toBe('ControlOrMeta+KeyC')
  })

  it('splits a chord as Playwright does: a + that begins a key is the key', () => {
    expect(keyChord('+')).toBe('+')
    expect(keyChord('Control++')).toBe('Control++')
    expect(keyChord('Shift+=')).toBe('Shift+=')
  })

  it('refuses a key it does not know, naming it, before anything is pressed', () => {
    expect(() => keyChord('Ctrl+Alt+Fake')).toThrow(/invalid_input|expected a key name .* found "Fake" in "Ctrl\+Alt\+Fake"/)
    expect(() => keyChord('é')).toThrow(/found "é"; a character off the US keyboard is typed/)
    expect(() => keyChord('Control+')).toThrow(/found ""/)
    try {
      keyChord('Hyper+x')
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_input', details: { expected: 'key names joined by +', found: 'Hyper+x' } })
    }
  })
})
