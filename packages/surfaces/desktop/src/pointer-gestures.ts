/** A point on a tile's screen. */
export interface ScreenPoint {
  x: number
  y: number
}

/** Pointer moves between a drag's ends: apps start a drag only after the pointer has moved a few pixels while held, and follow it in steps. */
const DRAG_STEPS = 8

/** The points a drag passes through after pressing at `from`, ending at `to`. */
export function dragPath(from: ScreenPoint, to: ScreenPoint): ScreenPoint[] {
  return Array.from({ length: DRAG_STEPS }, (_, i) => {
    const t = (i + 1) / DRAG_STEPS
    return { x: Math.round(from.x + (to.x - from.x) * t), y: Math.round(from.y + (to.y - from.y) * t) }
  })
}

/** Which wheel a scroll turns, as X numbers its buttons: 4 up, 5 down, 6 left, 7 right. */
export type WheelButton = 4 | 5 | 6 | 7

/** Wheel clicks for a scroll of dx (right) and dy (down), one button per click, vertical first. */
export function wheelClicks(dx: number, dy: number): WheelButton[] {
  const vertical: WheelButton[] = Array.from({ length: Math.abs(dy) }, () => (dy < 0 ? 4 : 5))
  const horizontal: WheelButton[] = Array.from({ length: Math.abs(dx) }, () => (dx < 0 ? 6 : 7))
  return [...vertical, ...horizontal]
}

/** The button number X gives a named button. */
export const BUTTON_NUMBERS = { left: 1, middle: 2, right: 3 } as const
