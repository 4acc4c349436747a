import { describe, expect, it } from 'vitest'
import { columnName } from './sheet-cells.js'

describe('columnName', () => {
  it('writes columns as spreadsheets do', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16383].map(columnName)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD'])
  })
})
