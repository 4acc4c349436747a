import { type Bounds, TesseraError, type UiNode } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { type ElementNode, box, image, text } from './elements.js'
import { computeLayout } from './layout.js'
import { finalizeTree } from './node-ids.js'

function layoutOf(root: ElementNode, viewport = { width: 400, height: 300 }) {
  const tree = finalizeTree(root)
  const layout = computeLayout(tree, viewport)
  const at = (...path: number[]): Bounds => {
    let node: UiNode = tree
    for (const index of path) node = node.children?.[index] as UiNode
    return layout[node.id] as Bounds
  }
  return { tree, layout, at }
}

describe('computeLayout', () => {
  it('stacks children in a column by default and fills the viewport with the root', () => {
    const { at } = layoutOf(box({}, [box({ style: { height: 50 } }), box({ style: { height: 30 } })]))
    expect(at()).toEqual({ x: 0, y: 0, width: 400, height: 300 })
    expect(at(0)).toEqual({ x: 0, y: 0, width: 400, height: 50 })
    expect(at(1)).toEqual({ x: 0, y: 50, width: 400, height: 30 })
  })

  it('lays a row out with padding and gap, stretching children across', () => {
    const { at } = layoutOf(
      box({ style: { width: 300, height: 100, flexDirection: 'row', padding: 10, gap: 5 } }, [
        box({ style: { width: 50 } }),
        box({ style: { width: 60 } }),
      ]),
    )
    expect(at(0)).toEqual({ x: 10, y: 10, width: 50, height: 80 })
    expect(at(1)).toEqual({ x: 65, y: 10, width: 60, height: 80 })
  })

  it('lets paddingX / paddingY override padding', () => {
    const { at } = layoutOf(box({ style: { padding: 10, paddingX: 2, paddingY: 4 } }, [box({ style: { height: 10 } })]))
    expect(at(0)).toEqual({ x: 2, y: 4, width: 396, height: 10 })
  })

  it('shares free space by flexGrow, rounding to two decimals', () => {
    const { at } = layoutOf(
      box({ style: { width: 300, height: 50, flexDirection: 'row' } }, [
        box({ style: { width: 100 } }),
        box({ style: { flexGrow: 1 } }),
        box({ style: { flexGrow: 2 } }),
      ]),
    )
    expect(at(1)).toEqual({ x: 100, y: 0, width: 66.67, height: 50 })
    expect(at(2)).toEqual({ x: 166.67, y: 0, width: 133.33, height: 50 })
  })

  it('clamps growth with maxWidth and respects minHeight', () => {
    const { at } = layoutOf(
      box({ style: { width: 300, flexDirection: 'row', alignItems: 'flex-start' } }, [
        box({ style: { flexGrow: 1, maxWidth: 50, minHeight: 20 } }),
      ]),
    )
    expect(at(0)).toEqual({ x: 0, y: 0, width: 50, height: 20 })
  })

  it('resolves percentages against the parent', () => {
    const { at } = layoutOf(
      box({ style: { width: 400, height: 200 } }, [box({ style: { width: '50%', height: '25%' } }, [box({ style: { width: '50%', height: 10 } })])]),
    )
    expect(at(0)).toEqual({ x: 0, y: 0, width: 200, height: 50 })
    expect(at(0, 0)).toEqual({ x: 0, y: 0, width: 100, height: 10 })
  })

  it('positions absolute children from the parent edge, out of the flow, in page coordinates', () => {
    const { at } = layoutOf(
      box({}, [
        box({ style: { height: 50 } }),
        box({ style: { height: 100, padding: 10 } }, [
          box({ style: { position: 'absolute', left: 20, top: 30, width: 40, height: 40 } }),
          box({ style: { height: 10 } }),
        ]),
      ]),
    )
    expect(at(1, 0)).toEqual({ x: 20, y: 80, width: 40, height: 40 })
    expect(at(1, 1)).toEqual({ x: 10, y: 60, width: 380, height: 10 })
  })

  it('applies margin, justifyContent and alignItems', () => {
    const { at } = layoutOf(
      box({ style: { width: 300, height: 100, flexDirection: 'row', justifyContent: 'center', alignItems: 'center' } }, [
        box({ style: { width: 100, height: 20, margin: 5 } }),
      ]),
    )
    expect(at(0)).toEqual({ x: 100, y: 40, width: 100, height: 20 })
  })

  it('wraps rows with flexWrap', () => {
    const item = () => box({ style: { width: 40, height: 10 } })
    const { at } = layoutOf(
      box({ style: { width: 100, flexDirection: 'row', flexWrap: 'wrap', alignItems: 'flex-start' } }, [item(), item(), item()]),
    )
    expect([at(0), at(1), at(2)].map((b) => [b.x, b.y])).toEqual([
      [0, 0],
      [40, 0],
      [0, 10],
    ])
  })

  it('measures text with the monospace model and wraps it at the available width', () => {
    const { at } = layoutOf(
      box({ style: { flexDirection: 'row', alignItems: 'flex-start' } }, [
        text('hello world'),
        box({ style: { width: 100 } }, [text('the quick brown fox jumps over')]),
      ]),
    )
    expect(at(0)).toEqual({ x: 0, y: 0, width: 92.4, height: 17.5 })
    expect(at(1, 0)).toEqual({ x: 92.4, y: 0, width: 100, height: 52.5 })
  })

  it('uses the node font size and line height', () => {
    const { at } = layoutOf(box({ style: { alignItems: 'flex-start' } }, [text({ text: 'abcd', style: { fontSize: 20, lineHeight: 24 } })]))
    expect(at(0)).toEqual({ x: 0, y: 0, width: 48, height: 24 })
  })

  it('gives unsized images no size and sized ones their size', () => {
    const { at } = layoutOf(
      box({ style: { alignItems: 'flex-start' } }, [
        image({ src: 'https://x.test/a.png', alt: 'a' }),
        image({ src: 'https://x.test/b.png', alt: 'b', style: { width: 16, height: 16 } }),
      ]),
    )
    expect(at(0)).toEqual({ x: 0, y: 0, width: 0, height: 0 })
    expect(at(1)).toEqual({ x: 0, y: 0, width: 16, height: 16 })
  })

  it('lets hidden nodes take no space', () => {
    const { at } = layoutOf(box({}, [box({ states: { hidden: true }, style: { height: 50 } }, [text('x')]), box({ style: { height: 30 } })]))
    expect(at(0)).toMatchObject({ width: 0, height: 0 })
    expect(at(1)).toEqual({ x: 0, y: 0, width: 400, height: 30 })
  })

  it('lays out every node and is deterministic', () => {
    const build = () => box({}, [text('a b c'), box({ style: { flexDirection: 'row', gap: 3.333 } }, [text('x'), text('y')])])
    const first = layoutOf(build())
    const second = layoutOf(build())
    expect(Object.keys(first.layout)).toHaveLength(5)
    expect(JSON.stringify(first.layout)).toBe(JSON.stringify(second.layout))
  })

  it('rejects a style yoga would misread, naming node and field', () => {
    const tree = finalizeTree(box({}, [box({ style: { width: '10px' } })]))
    try {
      computeLayout(tree, { width: 100, height: 100 })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(TesseraError)
      expect((error as TesseraError).code).toBe('invalid_frame')
      expect((error as TesseraError).message).toBe(
        'node "root/box0": style.width expected a number, a percentage like "50%", or "auto", found "10px"',
      )
    }
    // The failed layout released its yoga nodes and left the engine usable.
    expect(computeLayout(finalizeTree(box()), { width: 10, height: 10 })).toEqual({ root: { x: 0, y: 0, width: 10, height: 10 } })
  })

  it('rejects a non-finite viewport', () => {
    expect(() => computeLayout(finalizeTree(box()), { width: Number.NaN, height: 10 })).toThrow(/finite/)
  })
})
