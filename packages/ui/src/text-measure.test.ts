import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { charsPerLine, fontMetrics, measureText, wrapText } from './text-measure.js'

const metrics = fontMetrics() // 14px: 8.4 per character, 17.5 per line

describe('text measurement', () => {
  it('uses a monospace model: 0.6 × font size per character, 1.25 × font size per line', () => {
    expect(metrics).toEqual({ fontSize: 14, charWidth: 14 * 0.6, lineHeight: 17.5 })
    expect(fontMetrics({ fontSize: 20, lineHeight: 30 })).toEqual({ fontSize: 20, charWidth: 12, lineHeight: 30 })
  })

  it('does not wrap without a width limit', () => {
    expect(wrapText('hello brave new world', Infinity)).toEqual(['hello brave new world'])
    const size = measureText('hello world', Infinity, metrics)
    expect(size.width).toBeCloseTo(11 * 8.4)
    expect(size.height).toBe(17.5)
  })

  it('wraps greedily at word boundaries', () => {
    // 100 / 8.4 = 11.9, so 11 characters fit on a line.
    expect(charsPerLine(100, metrics)).toBe(11)
    expect(wrapText('the quick brown fox jumps over', 100, metrics)).toEqual(['the quick', 'brown fox', 'jumps over'])
    const size = measureText('the quick brown fox jumps over', 100, metrics)
    expect(size.width).toBeCloseTo(10 * 8.4)
    expect(size.height).toBe(3 * 17.5)
  })

  it('keeps a line that exactly fits, even after width rounding', () => {
    expect(wrapText('abc def', 7 * 8.4, metrics)).toEqual(['abc def'])
    expect(wrapText('abc def', Math.round(7 * 8.4 * 100) / 100 - 0.004, metrics)).toEqual(['abc def'])
  })

  it('cuts a word longer than a line instead of overflowing', () => {
    expect(wrapText('a abcdefghij b', 4 * 8.4, metrics)).toEqual(['a', 'abcd', 'efgh', 'ij b'])
  })

  it('honours newlines and collapses runs of spaces', () => {
    expect(wrapText('one\n\ntwo   three', Infinity)).toEqual(['one', '', 'two three'])
    expect(measureText('', 100, metrics)).toEqual({ width: 0, height: 0 })
  })

  it('never produces a line longer than the limit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 1, max: 40 }), (input, chars) => {
        const lines = wrapText(input, chars * metrics.charWidth, metrics)
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(chars)
        const size = measureText(input, chars * metrics.charWidth, metrics)
        expect(size.height).toBe(lines.length * metrics.lineHeight)
      }),
    )
  })
})
