import { type Node, type NodeProps, NodeResizer, useStore } from '@xyflow/react'
import { memo } from 'react'
import type { Tile } from '../api/hub-types'
import { useHub } from '../HubProvider'
import { TileBody } from '../tiles/TileBody'
import { actAsPerson } from './person-actions'

export interface TileNodeData extends Record<string, unknown> {
  tile: Tile
}

/** Past this margin (in screen pixels) around the view, or zoomed out further, a tile is a thumbnail. */
const LIVE_MARGIN = 400
const LIVE_MIN_ZOOM = 0.15

/** Whether the tile is near enough the view to show (and stream) live content. */
function useNearView(tile: Tile): boolean {
  return useStore((s) => {
    const [tx, ty, zoom] = s.transform
    if (zoom < LIVE_MIN_ZOOM) return false
    const left = tile.x * zoom + tx
    const top = tile.y * zoom + ty
    return left < s.width + LIVE_MARGIN && top < s.height + LIVE_MARGIN && left + tile.width * zoom > -LIVE_MARGIN && top + tile.height * zoom > -LIVE_MARGIN
  })
}

/** A tile on the map: its bar (title, state, focus, close) and its content, live when near the view. */
export const TileNode = memo(function TileNode({ data, selected }: NodeProps<Node<TileNodeData, 'tile'>>) {
  const { tile } = data
  const { can } = useHub()
  const near = useNearView(tile)
  return (
    <section className={`tile kind-${tile.kind} ${tile.focused ? 'focused' : ''}`} aria-label={`Tile ${tile.title}`} data-tile={tile.id}>
      {can.act && (
        <NodeResizer
          isVisible={selected}
          minWidth={160}
          minHeight={120}
          onResizeEnd={(_event, size) => void actAsPerson({ surface: 'map', action: 'resize', input: { tile: tile.id, width: Math.round(size.width), height: Math.round(size.height) } }, true)}
        />
      )}
      <div className="tile-bar">
        <span className="tile-title">{tile.title}</span>
        <span className="tile-kind">{tile.kind}</span>
        <span className={`tile-state ${tile.state}`} title={tile.error}>
          {tile.state}
        </span>
        {can.act && (
          <>
            <button type="button" className="nodrag" onClick={() => void actAsPerson({ surface: 'map', action: 'focus', input: { tile: tile.id } }, true)} aria-label={`Focus ${tile.title}`} disabled={tile.focused}>
              ◎
            </button>
            <button type="button" className="nodrag" onClick={() => void actAsPerson({ surface: 'map', action: 'close', input: { tile: tile.id } })} aria-label={`Close ${tile.title}`}>
              ×
            </button>
          </>
        )}
      </div>
      <div className="tile-body">{near ? <TileBody tile={tile} /> : <Thumbnail tile={tile} />}</div>
    </section>
  )
})

function Thumbnail({ tile }: { tile: Tile }) {
  return (
    <div className="thumbnail" aria-label={`${tile.title}, not live while far from the view`}>
      <strong>{tile.title}</strong>
      <span>
        {tile.kind} · {tile.state}
      </span>
    </div>
  )
}
