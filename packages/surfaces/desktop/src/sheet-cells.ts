import type { AccessibleRef, AtspiBus } from './atspi-bus.js'
import { refOf } from './atspi-bus.js'
import type { AccessibleNode, Bounds } from './atspi-tree.js'

const TABLE = 'org.a11y.atspi.Table'
const TEXT = 'org.a11y.atspi.Text'
const COMPONENT = 'org.a11y.atspi.Component'
/** What one frame shows of a sheet at most: more than a screen of cells is not read. */
const MAX_ROWS = 60
const MAX_COLUMNS = 26
const MAX_CELL_TEXT = 500

/** A column's letters as a spreadsheet writes them: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/** The row and column of the cell at a point of the sheet. */
async function cellAt(bus: AtspiBus, table: AccessibleRef, x: number, y: number): Promise<{ row: number; column: number } | undefined> {
  const [at] = await bus.call(table, COMPONENT, 'GetAccessibleAtPoint', 'iiu', [x, y, 0]).catch(() => [undefined])
  const cell = refOf(at)
  if (cell === undefined) return undefined
  const [index] = await bus.call(cell, 'org.a11y.atspi.Accessible', 'GetIndexInParent')
  const [[row], [column]] = await Promise.all([bus.call(table, TABLE, 'GetRowAtIndex', 'i', [index]), bus.call(table, TABLE, 'GetColumnAtIndex', 'i', [index])])
  return Number(row) >= 0 && Number(column) >= 0 ? { row: Number(row), column: Number(column) } : undefined
}

/**
 * The cells of a sheet that are on the screen and hold something, read by position
 * (Table.GetAccessibleAt): a sheet manages two billion cells and lists none of them. The cells
 * at its top-left and bottom-right corners bound what is read; an empty cell is left out.
 */
export async function visibleCells(bus: AtspiBus, table: AccessibleRef, box: Bounds): Promise<AccessibleNode[]> {
  const [first, last] = await Promise.all([cellAt(bus, table, box.x + 2, box.y + 2), cellAt(bus, table, box.x + box.width - 3, box.y + box.height - 3)])
  if (first === undefined || last === undefined) return []
  const rows = Math.min(last.row - first.row + 1, MAX_ROWS)
  const columns = Math.min(last.column - first.column + 1, MAX_COLUMNS)
  const cells = await Promise.all(
    Array.from({ length: rows * columns }, async (_, i): Promise<AccessibleNode | undefined> => {
      const row = first.row + Math.floor(i / columns)
      const column = first.column + (i % columns)
      const [at] = await bus.call(table, TABLE, 'GetAccessibleAt', 'ii', [row, column]).catch(() => [undefined])
      const ref = refOf(at)
      if (ref === undefined) return undefined
      const count = Number(await bus.property(ref, TEXT, 'CharacterCount').catch(() => 0))
      if (!(count > 0)) return undefined
      const [text] = await bus.call(ref, TEXT, 'GetText', 'ii', [0, Math.min(count, MAX_CELL_TEXT)]).catch(() => [''])
      const [extents] = await bus.call(ref, COMPONENT, 'GetExtents', 'u', [0]).catch(() => [undefined])
      const [x, y, width, height] = Array.isArray(extents) ? extents.map(Number) : []
      return {
        ref,
        role: 'table cell',
        name: `${columnName(column)}${row + 1}`,
        description: '',
        states: new Set(['showing', 'visible', 'sensitive']),
        interfaces: new Set([TEXT, COMPONENT]),
        extents: width !== undefined && width > 0 ? { x: x as number, y: y as number, width, height: height as number } : undefined,
        text: String(text ?? ''),
        value: undefined,
        actions: [],
        keyBindings: [],
        children: [],
        folded: false,
      }
    }),
  )
  return cells.filter((cell): cell is AccessibleNode => cell !== undefined)
}
