import { describe, expect, it } from 'vitest'
import { pageDelta } from './page-delta.js'

/** A page of some length, with these lines at its end: on a page mostly changed, a delta gives way to the whole page. */
const outline = (body: string[]): string => ['browser-1 http://127.0.0.1/ frame 0123456789ab', '--- page 0a1b2c (untrusted) ---', ...Array.from({ length: 20 }, (_, i) => `link "Section ${i}" @${100 + i}`), ...body, '--- end 0a1b2c ---'].join('\n')

const folds = (from: number): string[] => [
  `… 12 lines, 4 actions below the view, from "Methods": expand "@3" offset ${from}`,
  `… 30 lines, 9 actions below the view, from "Trait implementations": expand "@3" offset ${from + 1}`,
  `… 7 lines, 2 actions below the view, from "Auto traits": expand "@3" offset ${from + 2}`,
  `… 996 more rows: expand "@9" offset ${from}, ${from + 249}, ${from + 498}`,
]

describe('a delta after something came in above the folds', () => {
  it('says the fold lines that only moved along as one line for each parent, by how far their offsets moved', () => {
    const before = outline(['checkbox "Show line numbers" @1', ...folds(4)])
    const after = outline(['checkbox "Show line numbers" @1 (checked)', 'paragraph "Line numbers are shown"', ...folds(6)])
    expect(pageDelta(before, after).split('\n').slice(2, -1)).toEqual([
      '~ checkbox "Show line numbers" @1 (checked)',
      '+ paragraph "Line numbers are shown"',
      '~ … 12 lines, 4 actions below the view, from "Methods": expand "@3" offset 6 (offset +2, as for the next 2 fold lines of @3, whose words are as before)',
      '~ … 996 more rows: expand "@9" offset 6, 255, 504 (offset +2)',
    ])
  })

  it('says nothing of a part left unread whose guess of what it holds moved, and counts it among the folds that moved along', () => {
    const unread = (lines: number, at: number): string => `… about ${lines} lines, 110 actions below the view, from "pub fn item_${at % 2}(self)": expand "@7"${at === 0 ? '' : ` offset ${at}`}`
    const before = outline(['checkbox "Show line numbers" @1', unread(194, 0), unread(180, 1)])
    const ticked = pageDelta(before, outline(['checkbox "Show line numbers" @1 (checked)', unread(197, 0), unread(183, 1)]))
    expect(ticked.split('\n').slice(2, -1)).toEqual(['~ checkbox "Show line numbers" @1 (checked)'])
    const shifted = (lines: number, at: number): string => unread(lines, at).replace(/item_\d/, `item_${(at - 1) % 2}`)
    const opened = pageDelta(before, outline(['checkbox "Show line numbers" @1', 'paragraph "New"', shifted(197, 1), shifted(183, 2)]))
    expect(opened.split('\n').slice(2, -1)).toEqual(['+ paragraph "New"', `~ ${shifted(197, 1)} (offset +1, as for the next 1 fold line of @7, whose words are as before)`])
  })

  it('says a fold line whose words changed, or whose offsets moved unevenly, as a line of its own', () => {
    const before = outline(['button "Open" @1', ...folds(4)])
    const moved = folds(5)
    moved[1] = '… 31 lines, 9 actions below the view, from "Trait implementations": expand "@3" offset 6'
    moved[3] = '… 996 more rows: expand "@9" offset 5, 250, 498'
    const delta = pageDelta(before, outline(['button "Open" @1 (expanded)', 'paragraph "Opened"', ...moved]))
    expect(delta).toContain('\n+ … 31 lines, 9 actions below the view, from "Trait implementations": expand "@3" offset 6\n')
    expect(delta).toContain('\n+ … 996 more rows: expand "@9" offset 5, 250, 498\n')
    expect(delta).toContain('\n~ … 12 lines, 4 actions below the view, from "Methods": expand "@3" offset 5 (offset +1)\n')
    expect(delta).toContain('\n~ … 7 lines, 2 actions below the view, from "Auto traits": expand "@3" offset 7 (offset +1)\n')
  })
})
