import type { Frame } from '@tessera/protocol'
import { renderDom } from '@tessera/ui/render-dom'
import { type MouseEvent, useEffect, useRef } from 'react'
import type { Tile } from '../api/hub-types'
import { useHub } from '../HubProvider'
import { actAsPerson } from '../map/person-actions'
import { notify } from '../panels/Notices'
import { rootBounds, targetAt } from './frame-geometry'
import { useFrame } from './use-frame'

/**
 * A tile drawn from its frame with `@tessera/ui`'s DOM renderer (DOM calls only, no markup
 * from frame content). A person's click is hit-tested against the frame's layout, as the
 * agent's refs are, and runs the action there as that person.
 */
export function FrameTile({ tile }: { tile: Tile }) {
  const { frame, error } = useFrame(tile.id)
  const { can } = useHub()
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (frame === null || host.current === null) return
    renderDom(frame, document, host.current, { className: 'frame' })
  }, [frame])
  if (frame === null) return <p className="tile-note">{error ?? 'Loading…'}</p>
  const root = rootBounds(frame)
  const scale = Math.min(1, tile.width / Math.max(1, root.width))
  const onClick = (event: MouseEvent<HTMLDivElement>): void => {
    event.preventDefault()
    const point = event.detail === 0 ? keyboardPoint(frame, event.target) : pointerPoint(frame, host.current, event)
    const hit = point === null ? null : targetAt(frame, point)
    if (hit === null) return
    // Only a click on something that acts is refused to a watcher, with the reason.
    if (!can.act) return notify('Watching only: your role cannot act on tiles', 'error')
    void actAsPerson({ surface: tile.id, action: hit.target.contract, target: hit.target.ref, frameId: frame.id, input: {} })
  }
  return <FrameView host={host} scale={scale} onClick={onClick} frame={frame} />
}

/** Where the pointer is, in the frame's coordinates, whatever the map's zoom and the tile's scale. */
function pointerPoint(frame: Frame, host: HTMLDivElement | null, event: MouseEvent<HTMLDivElement>): { x: number; y: number } | null {
  const root = rootBounds(frame)
  const box = (host?.firstElementChild as HTMLElement | null)?.getBoundingClientRect()
  if (box === undefined || box.width === 0) return null
  const factor = box.width / root.width
  return { x: root.x + (event.clientX - box.left) / factor, y: root.y + (event.clientY - box.top) / factor }
}

/** A click from the keyboard (Enter on a rendered button) has no pointer: it means the element's centre. */
function keyboardPoint(frame: Frame, target: EventTarget): { x: number; y: number } | null {
  const id = target instanceof Element ? target.closest('[data-node-id]')?.getAttribute('data-node-id') : null
  const bounds = id === null || id === undefined ? undefined : frame.layout[id]
  return bounds === undefined ? null : { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 }
}

function FrameView({ host, scale, onClick, frame }: { host: React.RefObject<HTMLDivElement | null>; scale: number; onClick: (event: MouseEvent<HTMLDivElement>) => void; frame: Frame }) {
  return (
    <div className="frame-scroll nodrag nowheel" data-frame-id={frame.id}>
      {/* The rendered buttons are real buttons: keyboard users reach them, and Enter clicks at their centre. */}
      <div ref={host} className="frame-host" style={{ transform: `scale(${scale})`, transformOrigin: '0 0' }} onClick={onClick} />
    </div>
  )
}
