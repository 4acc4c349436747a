import RFB from '@novnc/novnc'
import { useEffect, useRef, useState } from 'react'
import { socketUrl } from '../api/hub-events'
import type { Tile } from '../api/hub-types'

/**
 * A desktop app's live pixels through noVNC, over the hub's bridge to the tile's view-only
 * VNC server: what a person does here reaches no app (actions go through the gateway).
 */
export function DesktopTile({ tile }: { tile: Tile }) {
  const host = useRef<HTMLDivElement>(null)
  const [status, setStatus] = useState('connecting…')
  useEffect(() => {
    if (host.current === null) return
    const rfb = new RFB(host.current, socketUrl(`/api/surfaces/${encodeURIComponent(tile.id)}/vnc`), { shared: true })
    rfb.viewOnly = true
    rfb.scaleViewport = true
    rfb.addEventListener('connect', () => setStatus('live'))
    rfb.addEventListener('disconnect', () => setStatus('disconnected'))
    return () => rfb.disconnect()
  }, [tile.id])
  return (
    <div className="desktop-tile nodrag nowheel nopan" data-status={status}>
      <div ref={host} className="vnc-host" role="img" aria-label={`Live view of ${tile.title} (${status})`} />
    </div>
  )
}
