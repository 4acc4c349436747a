import { type Bounds, type Frame, type ResolvedTarget, type Risk, TesseraError, type UiNode, resolvedTargets } from '@tessera/protocol'
import { isHidden, isSensitive } from '@tessera/protocol'
import { MASK } from './render-model.js'
import { DEFAULT_FONT_METRICS, fontMetrics, wrapText } from './text-measure.js'

export interface RenderAnsiOptions {
  /** Width of the output in characters; defaults to the frame's width in cells. Content past it is cut. */
  columns?: number | undefined
  /** Colour action labels by risk with ANSI escapes. Off by default, so output pastes cleanly anywhere. */
  color?: boolean | undefined
  /** Outline boxes whose style sets a border. */
  borders?: boolean | undefined
}

const SGR_RESET = '\u001b[0m'
const RISK_SGR: Record<Risk, string> = {
  read: '\u001b[2m',
  write: '\u001b[36m',
  external: '\u001b[33m',
  destructive: '\u001b[31m',
}

/** Frames wider or taller than this are cut, so one bad layout cannot allocate a gigantic grid. */
const MAX_CELLS = 1_000_000

interface Cell {
  char: string
  sgr: string
}

/**
 * Draws the frame as terminal text on a character grid: one column per character width
 * and one row per line height of the default font, the same model text was measured
 * with. Text nodes are wrapped at their laid-out width; an action is drawn as
 * `[ name ]`, marked `(disabled)` when it cannot run, and stands for its whole subtree;
 * images show their alt text and fields their value (secrets masked), on one line.
 * Deterministic; trailing spaces and empty trailing rows are trimmed.
 */
export function renderAnsi(frame: Frame, options: RenderAnsiOptions = {}): string {
  const { charWidth, lineHeight } = DEFAULT_FONT_METRICS
  const rootBounds = boundsOf(frame, frame.tree.id)
  const frameRight = rootBounds === undefined ? 0 : rootBounds.x + rootBounds.width
  const frameBottom = rootBounds === undefined ? 0 : rootBounds.y + rootBounds.height
  const columns = options.columns ?? Math.ceil(frameRight / charWidth - 0.001)
  if (!Number.isInteger(columns) || columns < 1) {
    throw new TesseraError('invalid_request', `expected columns to be a positive integer, found ${columns}`, {
      expected: 'positive integer',
      found: columns,
    })
  }
  const rows = Math.min(Math.ceil(frameBottom / lineHeight - 0.001), Math.floor(MAX_CELLS / columns))
  const grid = new Grid(columns, Math.max(rows, 0))
  const targets = new Map<string, ResolvedTarget>()
  for (const resolved of resolvedTargets(frame)) if (resolved.target.nodeId !== undefined && !targets.has(resolved.target.nodeId)) targets.set(resolved.target.nodeId, resolved)
  const color = options.color === true

  const draw = (node: UiNode): void => {
    const bounds = boundsOf(frame, node.id)
    if (bounds === undefined || isHidden(node)) return
    const col = Math.round(bounds.x / charWidth)
    const row = Math.round(bounds.y / lineHeight)
    const target = targets.get(node.id)
    if (target !== undefined) {
      const sgr = color ? RISK_SGR[target.risk] : ''
      grid.write(row, col, `[ ${node.name ?? target.contract.title} ]${target.target.enabled ? '' : ' (disabled)'}`, sgr)
      return
    }
    if (node.kind === 'box' && options.borders === true && node.style?.border !== undefined) {
      grid.outline(row, col, Math.round(bounds.width / charWidth), Math.round(bounds.height / lineHeight))
    }
    if (node.kind === 'text') {
      const content = isSensitive(node) ? MASK : (node.text ?? '')
      wrapText(content, bounds.width, fontMetrics(node.style)).forEach((line, i) => grid.write(row + i, col, line, ''))
    } else {
      const label = leafLabel(node)
      if (label !== undefined) grid.write(row, col, label, '')
    }
    for (const child of node.children ?? []) draw(child)
  }
  draw(frame.tree)
  return grid.toString()
}

/** One-line stand-ins for what a terminal cannot show: an image by its alt text, a field by its value. */
function leafLabel(node: UiNode): string | undefined {
  if (node.kind === 'image') return node.name ? `[image: ${node.name}]` : undefined
  if (node.value !== undefined && node.value !== null && (node.children?.length ?? 0) === 0) {
    return isSensitive(node) ? MASK : String(node.value)
  }
  return undefined
}

function boundsOf(frame: Frame, id: string): Bounds | undefined {
  return Object.hasOwn(frame.layout, id) ? frame.layout[id] : undefined
}

class Grid {
  private readonly cells: Cell[][]

  constructor(
    private readonly columns: number,
    rows: number,
  ) {
    this.cells = Array.from({ length: rows }, () => Array.from({ length: columns }, () => ({ char: ' ', sgr: '' })))
  }

  /** Writes left to right from (row, col), cutting at the grid's edges; later writes cover earlier ones. */
  write(row: number, col: number, text: string, sgr: string): void {
    const line = this.cells[row]
    if (line === undefined) return
    let x = col
    // Control characters would move the terminal's cursor; they are drawn as spaces instead.
    for (const char of text) {
      if (x >= this.columns) break
      const cell = x >= 0 ? line[x] : undefined
      if (cell !== undefined) {
        cell.char = char < ' ' || (char >= '\u007f' && char <= '\u009f') ? ' ' : char
        cell.sgr = sgr
      }
      x++
    }
  }

  outline(row: number, col: number, width: number, height: number): void {
    if (width < 2 || height < 2) return
    const inner = width - 2
    this.write(row, col, `┌${'─'.repeat(inner)}┐`, '')
    for (let r = row + 1; r < row + height - 1; r++) {
      this.write(r, col, '│', '')
      this.write(r, col + width - 1, '│', '')
    }
    this.write(row + height - 1, col, `└${'─'.repeat(inner)}┘`, '')
  }

  toString(): string {
    const lines = this.cells.map((line) => {
      let end = line.length
      while (end > 0 && line[end - 1]?.char === ' ') end--
      let out = ''
      let current = ''
      for (let i = 0; i < end; i++) {
        const cell = line[i] as Cell
        if (cell.sgr !== current) {
          out += current === '' ? cell.sgr : cell.sgr === '' ? SGR_RESET : SGR_RESET + cell.sgr
          current = cell.sgr
        }
        out += cell.char
      }
      return current === '' ? out : out + SGR_RESET
    })
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
    return lines.join('\n')
  }
}
