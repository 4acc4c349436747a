import { describe, expect, it } from 'vitest'
import { keystrokes } from './keystrokes.js'

describe('keystrokes: what a terminal emulator sends, as input actions', () => {
  it('keeps runs of text whole and names each key, in order', () => {
    expect(keystrokes('ls -la\r')).toEqual([{ text: 'ls -la' }, { keys: ['enter'] }])
    expect(keystrokes('ab\x7f\x1b[A\x03')).toEqual([{ text: 'ab' }, { keys: ['backspace'] }, { keys: ['up'] }, { keys: ['ctrl-c'] }])
    expect(keystrokes('\x1bOD\t')).toEqual([{ keys: ['left'] }, { keys: ['tab'] }])
    expect(keystrokes('ünï ✓ 😀')).toEqual([{ text: 'ünï ✓ 😀' }])
  })

  it('refuses a control sequence it cannot name instead of writing it raw', () => {
    expect(() => keystrokes('a\x1b[1;5Cb')).toThrow(/a key this terminal cannot name/)
    expect(() => keystrokes('\x00')).toThrow(expect.objectContaining({ code: 'invalid_input' }))
  })
})
