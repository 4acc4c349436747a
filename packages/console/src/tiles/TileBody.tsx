import { Suspense, lazy } from 'react'
import type { Tile } from '../api/hub-types'
import { BrowserTile } from './BrowserTile'
import { FrameTile } from './FrameTile'
import { RunningOutline } from './RunningOutline'

// The terminal emulator and the VNC client load with the first tile that needs them, not with the page.
const TerminalTile = lazy(async () => ({ default: (await import('./TerminalTile')).TerminalTile }))
const DesktopTile = lazy(async () => ({ default: (await import('./DesktopTile')).DesktopTile }))

/** A tile's live content by kind; any kind without pixels of its own is drawn from its frame. */
export function TileBody({ tile }: { tile: Tile }) {
  const content =
    tile.kind === 'terminal' ? <TerminalTile tile={tile} /> : tile.kind === 'browser' ? <BrowserTile tile={tile} /> : tile.kind === 'desktop' ? <DesktopTile tile={tile} /> : <FrameTile tile={tile} />
  return (
    <div className="tile-content">
      <Suspense fallback={<p className="tile-note">Loading…</p>}>{content}</Suspense>
      <RunningOutline tile={tile} />
    </div>
  )
}
