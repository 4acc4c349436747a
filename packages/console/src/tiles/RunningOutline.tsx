import type { Tile } from '../api/hub-types'
import { useHubState } from '../HubProvider'
import { relativeBounds } from './frame-geometry'
import { useFrame } from './use-frame'

/** While an action runs on the tile, the element it targets is outlined, with who does what. */
export function RunningOutline({ tile }: { tile: Tile }) {
  const running = useHubState((state) => state.running.find((action) => action.surface === tile.id && action.target !== null))
  const { frame } = useFrame(tile.id, running !== undefined)
  if (running === undefined || running.target === null || frame === null) return null
  const box = relativeBounds(frame, running.target)
  if (box === null) return null
  return (
    <div
      className="running-outline"
      role="status"
      aria-label={`${running.actor} runs ${running.action} on ${running.target}`}
      style={{ left: `${box.left * 100}%`, top: `${box.top * 100}%`, width: `${box.width * 100}%`, height: `${box.height * 100}%` }}
    >
      <span>
        {running.actor}: {running.action}
      </span>
    </div>
  )
}
