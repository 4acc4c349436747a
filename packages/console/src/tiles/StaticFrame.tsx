import type { Frame } from '@tessera/protocol'
import { renderDom } from '@tessera/ui/render-dom'
import { useEffect, useRef } from 'react'
import { relativeBounds, rootBounds } from './frame-geometry'

/**
 * A recorded frame drawn to fit `width`, for reading only (an approval, a replay step); the
 * element an action targets (by `@ref`) is outlined. Its buttons are inert: nothing here acts.
 */
export function StaticFrame({ frame, outline, width, label }: { frame: Frame; outline?: string | null; width: number; label: string }) {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (host.current === null) return
    const element = renderDom(frame, document, host.current, { className: 'frame' })
    // Read-only: out of the tab order and out of the accessibility tree's controls.
    element.setAttribute('inert', '')
  }, [frame])
  const root = rootBounds(frame)
  const scale = Math.min(1, width / Math.max(1, root.width))
  const box = outline === null || outline === undefined ? null : relativeBounds(frame, outline)
  return (
    <figure className="static-frame" style={{ width: root.width * scale, height: root.height * scale }} aria-label={label}>
      {/* A picture of the frame: hidden from assistive technology (the figure's label says what it is) and inert. */}
      <div ref={host} aria-hidden="true" style={{ transform: `scale(${scale})`, transformOrigin: '0 0' }} />
      {box !== null && <div className="target-outline" style={{ left: `${box.left * 100}%`, top: `${box.top * 100}%`, width: `${box.width * 100}%`, height: `${box.height * 100}%` }} />}
    </figure>
  )
}
