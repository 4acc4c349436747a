import type { NodeStyle } from '@tessera/protocol'

/**
 * Text is measured with a monospace model instead of real fonts: frames must be
 * byte-identical on every machine, and a font rasteriser would make layout depend on
 * which fonts happen to be installed. Renderers use the same numbers (a monospace font in
 * HTML, one cell per character in a terminal), so what is drawn matches what was laid out.
 */

export const DEFAULT_FONT_SIZE = 14
/** Advance of one character as a fraction of the font size; typical of monospace faces. */
export const CHAR_WIDTH_RATIO = 0.6
export const LINE_HEIGHT_RATIO = 1.25

/**
 * Widths pass through 2-decimal rounding between layout and rendering; this slack keeps a
 * line that fitted when measured from wrapping when it is re-wrapped at the rounded width.
 */
const WIDTH_SLACK = 0.01

export interface FontMetrics {
  readonly fontSize: number
  readonly charWidth: number
  readonly lineHeight: number
}

export interface TextSize {
  width: number
  height: number
}

export function fontMetrics(style?: Pick<NodeStyle, 'fontSize' | 'lineHeight'> | undefined): FontMetrics {
  const fontSize = positiveOr(style?.fontSize, DEFAULT_FONT_SIZE)
  return {
    fontSize,
    charWidth: fontSize * CHAR_WIDTH_RATIO,
    lineHeight: positiveOr(style?.lineHeight, fontSize * LINE_HEIGHT_RATIO),
  }
}

export const DEFAULT_FONT_METRICS: FontMetrics = fontMetrics()

/** How many characters fit on one line of `maxWidth`; at least one, so wrapping always progresses. */
export function charsPerLine(maxWidth: number, metrics: FontMetrics): number {
  if (!Number.isFinite(maxWidth)) return Number.POSITIVE_INFINITY
  return Math.max(1, Math.floor((maxWidth + WIDTH_SLACK) / metrics.charWidth))
}

/**
 * Greedy word wrap: words are separated by runs of spaces/tabs, `\n` starts a new line,
 * and a word longer than a line is cut at the line length rather than overflowing.
 */
export function wrapText(text: string, maxWidth: number, metrics: FontMetrics = DEFAULT_FONT_METRICS): string[] {
  if (text.length === 0) return []
  const maxChars = charsPerLine(maxWidth, metrics)
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (let word of paragraph.split(/[ \t\r]+/)) {
      if (word.length === 0) continue
      while (word.length > maxChars) {
        if (line.length > 0) lines.push(line)
        lines.push(word.slice(0, maxChars))
        word = word.slice(maxChars)
        line = ''
      }
      if (word.length === 0) continue
      if (line.length === 0) line = word
      else if (line.length + 1 + word.length <= maxChars) line += ` ${word}`
      else {
        lines.push(line)
        line = word
      }
    }
    lines.push(line)
  }
  return lines
}

/** The box the wrapped text needs at `maxWidth` (Infinity: no wrapping). */
export function measureText(text: string, maxWidth: number, metrics: FontMetrics = DEFAULT_FONT_METRICS): TextSize {
  const lines = wrapText(text, maxWidth, metrics)
  let longest = 0
  for (const line of lines) if (line.length > longest) longest = line.length
  return { width: longest * metrics.charWidth, height: lines.length * metrics.lineHeight }
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback
}
