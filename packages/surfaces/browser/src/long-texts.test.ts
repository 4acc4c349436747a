import { describe, expect, it } from 'vitest'
import { agentPattern } from '@tessera/kit'
import { LONG_TEXT_BOXES, LongTexts, textWindow } from './long-texts.js'

/** A DOM snapshot's document in its table form: nodes in document order, each with its parent, name and value. */
function snapshotOf(nodes: Array<{ parent: number; name: string; value?: string; boxes?: number }>) {
  const strings: string[] = []
  const at = (text: string): number => (strings.includes(text) ? strings.indexOf(text) : strings.push(text) - 1)
  const layout = { nodeIndex: [] as number[], bounds: [] as number[][] }
  const layoutIndex: number[] = []
  nodes.forEach((node, i) => {
    layout.nodeIndex.push(i)
    layout.bounds.push([0, i * 10, 100, 10])
    for (let b = 0; b < (node.boxes ?? 0); b++) layoutIndex.push(i)
  })
  const table = { parentIndex: nodes.map((n) => n.parent), nodeName: nodes.map((n) => at(n.name)), nodeValue: nodes.map((n) => (n.value === undefined ? -1 : at(n.value))), backendNodeId: nodes.map((_, i) => 100 + i) }
  return { table, layout, textBoxes: { layoutIndex }, strings }
}

describe('LongTexts', () => {
  it('finds the block that holds a text of many lines, through inline elements, and reads its text from the snapshot', () => {
    const { table, layout, textBoxes, strings } = snapshotOf([
      { parent: -1, name: 'HTML' },
      { parent: 0, name: 'BODY' },
      { parent: 1, name: 'PRE' },
      { parent: 2, name: 'CODE' },
      { parent: 3, name: '#text', value: 'line 1\nline 2\n', boxes: LONG_TEXT_BOXES + 1 },
      { parent: 1, name: 'P' },
      { parent: 5, name: '#text', value: 'a short one', boxes: 1 },
      { parent: 1, name: 'SCRIPT' },
      { parent: 7, name: '#text', value: 'var hidden = 1' },
    ])
    const long = LongTexts.of(table, layout, textBoxes, strings)
    expect(long.holders).toEqual([2])
    expect(long.needsParts).toBe(true)
    expect(long.isHolder(2)).toBe(true)
    expect(long.textIn(2, 5)).toEqual({ text: 'line 1\nline 2\n', backendNodeId: 104 })
    // A script's text is no text of the page.
    expect(long.textIn(5, 9)).toEqual({ text: 'a short one', backendNodeId: 106 })
  })

  it('finds none where each text is short, and asks for parts only when the document has many lines in all', () => {
    const short = snapshotOf([{ parent: -1, name: 'BODY' }, ...Array.from({ length: 20 }, () => ({ parent: 0, name: '#text', value: 'x', boxes: LONG_TEXT_BOXES }))])
    const long = LongTexts.of(short.table, short.layout, short.textBoxes, short.strings)
    expect(long.holders).toEqual([])
    expect(long.boxes).toBe(20 * LONG_TEXT_BOXES)
    expect(long.needsParts).toBe(true)
    const few = snapshotOf([{ parent: -1, name: 'BODY' }, { parent: 0, name: '#text', value: 'x', boxes: 3 }])
    expect(LongTexts.of(few.table, few.layout, few.textBoxes, few.strings).needsParts).toBe(false)
  })

  it('keeps a window of a line longer than a window around what a find found in it', () => {
    // A minified JSON: one line of 100,000 characters; the match is far past what a window keeps.
    const json = `[${Array.from({ length: 5000 }, (_, i) => `{"id":${i},"name":"item ${i}"}`).join(',')}]`
    expect(json.length).toBeGreaterThan(100_000)
    const at = json.indexOf('"item 4500"')
    const held = textWindow(json, at)
    expect(held.text.startsWith('…')).toBe(true)
    expect(held.text).toContain('"item 4500"')
    expect(held.text.indexOf('"item 4500"')).toBeLessThan(250)
    expect(held.excerpt).toEqual({ line: 1, lines: 1 })
    // Near the line's start, the window starts with it, as before.
    expect(textWindow(json, 100).text.startsWith('[{"id":0,')).toBe(true)
    // Never half a character: an emoji just where the lead would cut it.
    const emoji = `${'x'.repeat(30_000)}😀${'y'.repeat(200)}z${'w'.repeat(20_000)}`
    const cut = textWindow(emoji, emoji.indexOf('😀') + 1 + 200)
    expect(cut.text.startsWith('…😀y')).toBe(true)
    expect(cut.text.isWellFormed()).toBe(true)
  })

  it('keeps the window of a long text that is in view, or that a find asked for, and says where it is', () => {
    // A log of 3,000 lines of 10 characters, one text box (20 px high) a line.
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${String(i + 1).padStart(4, '0')}`)
    const { table, layout, strings } = snapshotOf([
      { parent: -1, name: 'BODY' },
      { parent: 0, name: 'PRE' },
      { parent: 1, name: '#text', value: lines.join('\n') },
    ])
    const textBoxes = { layoutIndex: lines.map(() => 2), bounds: lines.map((_, i) => [0, i * 20, 80, 20]), start: lines.map((_, i) => i * 10) }
    const long = LongTexts.of(table, layout, textBoxes, strings)
    expect(long.holders).toEqual([1])
    const top = long.textIn(1, 3, { view: { x: 0, y: 0, width: 800, height: 600 } })
    expect(top?.text.startsWith('line 0001\nline 0002')).toBe(true)
    expect(top?.excerpt).toEqual({ line: 1, lines: 3000 })
    // Scrolled to 40,010 px: the line drawn across the view's top edge is the first kept.
    const scrolled = long.textIn(1, 3, { view: { x: 0, y: 40_010, width: 800, height: 600 } })
    expect(scrolled?.text.startsWith('line 2001\n')).toBe(true)
    expect(scrolled?.excerpt).toEqual({ line: 2001, lines: 3000 })
    // A find's words win over the view, in any case; a pattern too.
    expect(long.textIn(1, 3, { view: { x: 0, y: 0, width: 800, height: 600 }, focus: { words: 'LINE 2999' } })?.text).toBe('line 2999\nline 3000')
    expect(long.textIn(1, 3, { focus: { pattern: agentPattern('line 15\\d0', 'regex') } })?.excerpt).toEqual({ line: 1500, lines: 3000 })
    // A pattern's anchors are a line's ends.
    expect(long.textIn(1, 3, { focus: { pattern: agentPattern('^line 2500$', 'regex') } })?.excerpt).toEqual({ line: 2500, lines: 3000 })
    expect(long.says({ words: 'line 3000' })).toBe(true)
    expect(long.says({ words: 'line 3001' })).toBe(false)
    // Past the end of the text, the window is its last line.
    expect(long.textIn(1, 3, { view: { x: 0, y: 90_000, width: 800, height: 600 } })?.text).toBe('line 3000')
    // A line an agent asked of this text (known by its first text node): the window starts there, its last line past the end.
    const of = top?.backendNodeId as number
    expect(long.textIn(1, 3, { view: { x: 0, y: 0, width: 800, height: 600 }, focus: { line: { at: 2500, of } } })?.excerpt).toEqual({ line: 2500, lines: 3000 })
    expect(long.textIn(1, 3, { focus: { line: { at: 99_999, of } } })?.text).toBe('line 3000')
    // A line asked of another text leaves this one's window where the view puts it.
    expect(long.textIn(1, 3, { view: { x: 0, y: 0, width: 800, height: 600 }, focus: { line: { at: 2500, of: of + 1 } } })?.excerpt).toEqual({ line: 1, lines: 3000 })
  })
})
