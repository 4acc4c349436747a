import type { Tile } from '../api/hub-types'

/** A web page's live pixels: the hub's MJPEG screencast, which stops encoding when nobody watches. */
export function BrowserTile({ tile }: { tile: Tile }) {
  return <img className="screencast" src={`/api/surfaces/${encodeURIComponent(tile.id)}/screencast`} alt={`Live view of ${tile.title}`} draggable={false} />
}
