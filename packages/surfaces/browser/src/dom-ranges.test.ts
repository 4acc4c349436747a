import { describe, expect, it } from 'vitest'
import { DomRanges } from './dom-ranges.js'

/** A snapshot document from (tag or text, parent) pairs: the strings table and node arrays DevTools sends. */
function snapshotOf(nodes: Array<[string, number]>): DomRanges {
  const strings: string[] = []
  const id = (text: string): number => {
    const known = strings.indexOf(text)
    return known >= 0 ? known : strings.push(text) - 1
  }
  const nodeName = nodes.map(([tag]) => id(tag.startsWith('"') ? '#text' : tag))
  const nodeValue = nodes.map(([tag]) => (tag.startsWith('"') ? id(tag.slice(1, -1)) : -1))
  const layout = { nodeIndex: nodes.map((_, i) => i), bounds: nodes.map((_, i) => [0, i * 20, 400, 20]) }
  return new DomRanges({ parentIndex: nodes.map(([, parent]) => parent), nodeName, nodeValue, backendNodeId: nodes.map((_, i) => 100 + i) }, layout, strings)
}

describe('a document read as ranges', () => {
  it('says words across the text nodes a page split them into, within one element only', () => {
    const ranges = snapshotOf([
      ['BODY', -1],
      ['PRE', 0], ['SPAN', 1], ['"const"', 2], ['" { unlink } = "', 1], ['SPAN', 1], ['"require"', 5], ['"(\'node:fs\');"', 1],
      ['P', 0], ['"While the "', 8], ['SMALL', 8], ['"GNU"', 10], ['" operating system"', 8],
    ])
    const pre = ranges.indexOf(101) as number
    const paragraph = ranges.indexOf(108) as number
    // As an outline joins them, with spaces between the pieces.
    expect(ranges.saysAcross(pre, "const { unlink } = require ( 'node:fs' );")).toBe(true)
    expect(ranges.saysAcross(paragraph, 'While the GNU operating')).toBe(true)
    // One text node alone does not say it; nor does the element next to it.
    expect(ranges.says(paragraph, 'while the gnu operating')).toBe(false)
    expect(ranges.saysAcross(paragraph, "const { unlink }")).toBe(false)
    expect(ranges.saysAcross(pre, 'While the GNU')).toBe(false)
    expect(ranges.saysAcross(pre, '')).toBe(false)
  })

  it('names a text as the tree does, from the snapshot alone: blanks between lines of a pre are its lines, blanks elsewhere are nothing', () => {
    const ranges = snapshotOf([
      ['BODY', -1],
      ['PRE', 0], ['CODE', 1], ['SPAN', 2], ['"fn"', 3], ['"\n"', 2], ['SPAN', 2], ['"main"', 6],
      ['P', 0], ['"  Hello,  world "', 8], ['"\n  "', 8],
    ])
    expect(ranges.textOf(ranges.indexOf(104) as number)).toBe('fn')
    expect(ranges.textOf(ranges.indexOf(105) as number)).toBe('\n')
    expect(ranges.textOf(ranges.indexOf(109) as number)).toBe('  Hello,  world ')
    expect(ranges.textOf(ranges.indexOf(110) as number)).toBeUndefined()
    // An element is no text.
    expect(ranges.textOf(ranges.indexOf(103) as number)).toBeUndefined()
  })
})

describe('content the browser skips drawing', () => {
  /** HTML, BODY, a MAIN of two SECTIONs with content-visibility: auto; the second is off screen, its heading and text not laid out. */
  function skipping(): DomRanges {
    const strings = ['#document', 'HTML', 'BODY', 'MAIN', 'SECTION', 'H2', '#text', 'Drawn', 'Skipped words', '#comment', '::before', 'auto', 'visible', 'pointer', 'static']
    const names = [0, 1, 2, 3, 10, 4, 5, 6, 9, 4, 5, 6]
    const parents = [-1, 0, 1, 2, 3, 3, 5, 6, 3, 3, 9, 10]
    const values = [-1, -1, -1, -1, -1, -1, -1, 7, -1, -1, -1, 8]
    // Laid out: all but the second section's heading and its text; each with its styles (cursor, position, content-visibility).
    const laidOut = [1, 2, 3, 4, 5, 6, 7, 9]
    const layout = { nodeIndex: laidOut, bounds: laidOut.map((i) => [0, i === 9 ? 5000 : i * 20, 800, i === 9 ? 400 : 20]), styles: laidOut.map((i) => [13, 14, i === 5 || i === 9 ? 11 : 12]) }
    return new DomRanges({ parentIndex: parents, nodeName: names, nodeValue: values, backendNodeId: parents.map((_, i) => 100 + i) }, layout, strings)
  }

  it('counts it as drawn where the element that skips it is, knows that element, and its words', () => {
    const ranges = skipping()
    expect(ranges.skipsAny).toBe(true)
    expect(ranges.skipRoots).toEqual([9])
    // The heading and its text are the second section's to draw; the first section skips nothing.
    expect(ranges.skippedBy(10)).toBe(9)
    expect(ranges.skippedBy(11)).toBe(9)
    expect(ranges.skippedBy(6)).toBeUndefined()
    expect(ranges.skipsChildren(9)).toBe(true)
    expect(ranges.skipsChildren(5)).toBe(false)
    expect(ranges.drawn(11)).toBe(true)
    expect(ranges.textOf(11)).toBe('Skipped words')
    expect(ranges.shows(10, { x: 0, y: 5000, width: 800, height: 100 })).toBe(true)
  })

  it('names an element by a selector of its place among elements alone, past texts, comments and pseudo-elements', () => {
    const ranges = skipping()
    // MAIN holds ::before, a section, a comment, a section: the second section is MAIN's second element.
    expect(ranges.selectorOf(9)).toBe(':root > :nth-child(1) > :nth-child(1) > :nth-child(2)')
    expect(ranges.children(3)).toEqual([5, 9])
    expect(ranges.children(9)).toEqual([10])
  })
})
