import { describe, expect, it } from 'vitest'
import { dragPath, wheelClicks } from './pointer-gestures.js'

describe('pointer gestures', () => {
  it('moves a drag in steps that end where it was asked to', () => {
    const path = dragPath({ x: 10, y: 20 }, { x: 90, y: 20 })
    expect(path).toHaveLength(8)
    expect(path[0]).toEqual({ x: 20, y: 20 })
    expect(path.at(-1)).toEqual({ x: 90, y: 20 })
    expect(dragPath({ x: 5, y: 5 }, { x: 5, y: 5 }).every((p) => p.x === 5 && p.y === 5)).toBe(true)
  })

  it('turns scrolls into X wheel buttons: 4 up, 5 down, 6 left, 7 right', () => {
    expect(wheelClicks(0, 3)).toEqual([5, 5, 5])
    expect(wheelClicks(0, -2)).toEqual([4, 4])
    expect(wheelClicks(-1, 1)).toEqual([5, 6])
    expect(wheelClicks(2, 0)).toEqual([7, 7])
    expect(wheelClicks(0, 0)).toEqual([])
  })
})
