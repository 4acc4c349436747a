import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cutWhole, wellFormed } from './whole-characters.js'

/** Whether `text` holds no half of a character: encodeURIComponent throws on one. */
function isWhole(text: string): boolean {
  try {
    encodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

// Strings of any UTF-16 units, halves included, and strings of whole characters.
const anyUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((codes) => String.fromCharCode(...codes))
const wholeText = fc.string({ unit: 'grapheme', maxLength: 40 })

describe('cutWhole', () => {
  it('keeps an emoji whole or leaves it out, never half of it', () => {
    expect(cutWhole('ab😀cd', 3)).toBe('ab')
    expect(cutWhole('ab😀cd', 4)).toBe('ab😀')
    expect(cutWhole('ab😀cd', 99)).toBe('ab😀cd')
    expect(cutWhole('😀', 1)).toBe('')
    expect(cutWhole('abc', 0)).toBe('')
  })

  it('gives a prefix of at most max units, at most one fewer, and whole text stays whole', () => {
    fc.assert(
      fc.property(wholeText, fc.nat({ max: 50 }), (text, max) => {
        const cut = cutWhole(text, max)
        expect(text.startsWith(cut)).toBe(true)
        expect(cut.length).toBeLessThanOrEqual(max)
        expect(cut.length).toBeGreaterThanOrEqual(Math.min(text.length, max) - 1)
        expect(isWhole(cut)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('wellFormed', () => {
  it('writes U+FFFD for each half a page or a cut left, and keeps pairs', () => {
    expect(wellFormed('Save \ud800 now')).toBe('Save \ufffd now')
    expect(wellFormed('\udc00x\ud83d')).toBe('\ufffdx\ufffd')
    expect(wellFormed('\ud83d\ude00 \ud83d\ud83d\ude00')).toBe('😀 \ufffd😀')
  })

  it('leaves whole text as it is and makes any text whole, the same length', () => {
    fc.assert(
      fc.property(anyUnits, wholeText, (units, whole) => {
        expect(wellFormed(whole)).toBe(whole)
        const mended = wellFormed(units)
        expect(isWhole(mended)).toBe(true)
        expect(mended.length).toBe(units.length)
      }),
      { numRuns: 2000 },
    )
  })
})
