import type { Tile } from '@tessera/protocol'
import { printable } from '@tessera/protocol/printable'
import { paint } from './output.js'

const STATE_COLOR = { running: 32, idle: 33, error: 31 } as const

/**
 * The banner's view of the tiles: one line each with its state, and for a tile in error
 * what went wrong and where to fix it, so a broken tile is never listed as if it were fine.
 */
export function tileStatusLines(tiles: readonly Tile[], where: { configFile: string | null; demo: boolean }): string[] {
  if (tiles.length === 0) return ['none']
  const named = (t: Tile): string => printable(`${t.id} (${t.kind})`)
  const width = Math.max(...tiles.map((t) => named(t).length))
  const lines: string[] = []
  for (const tile of tiles) {
    lines.push(`${named(tile).padEnd(width)}  ${paint(STATE_COLOR[tile.state], tile.state)}`)
    if (tile.state !== 'error') continue
    lines.push(`${' '.repeat(width + 2)}${printable(tile.error ?? 'failed without a message')}`)
    const fix = where.configFile !== null
      ? `fix the "${tile.id}" tile in ${where.configFile}, or remove it, and start again`
      : where.demo
        ? 'a demo tile: `npm run build` and start again; if it persists, `tessera up --no-demo` starts without the demo'
        : 'fix its configuration and start again'
    lines.push(`${' '.repeat(width + 2)}fix: ${fix}`)
  }
  return lines
}
