import type { Bounds, Layout } from '../schemas/geometry.js'
import type { UiNode } from '../schemas/node.js'
import { isHidden } from './node-states.js'

export interface Point {
  x: number
  y: number
}

/**
 * The node a click at `point` lands on: the deepest one whose bounds contain it, where a
 * later sibling paints over (and so wins against) an earlier one. Children are searched
 * even when their parent does not contain the point, because absolutely positioned
 * children may overflow it, as in the DOM. Hidden subtrees are skipped. Bounds are
 * half-open ([x, x + width)), so two adjacent nodes never both claim a point.
 */
export function hitTest(tree: UiNode, layout: Layout, point: Point): UiNode | null {
  if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) return null
  return hitNode(tree, layout, point)
}

function hitNode(node: UiNode, layout: Layout, point: Point): UiNode | null {
  if (isHidden(node)) return null
  const children = node.children
  if (children !== undefined) {
    for (let i = children.length - 1; i >= 0; i--) {
      const hit = hitNode(children[i] as UiNode, layout, point)
      if (hit !== null) return hit
    }
  }
  const bounds = Object.hasOwn(layout, node.id) ? layout[node.id] : undefined
  return bounds !== undefined && contains(bounds, point) ? node : null
}

export function contains(bounds: Bounds, point: Point): boolean {
  return (
    point.x >= bounds.x && point.x < bounds.x + bounds.width && point.y >= bounds.y && point.y < bounds.y + bounds.height
  )
}

/** The node an ActionTarget's `path` points at, or null if the path leaves the tree. */
export function nodeAtPath(tree: UiNode, path: readonly number[]): UiNode | null {
  let node: UiNode = tree
  for (const index of path) {
    const child = node.children?.[index]
    if (child === undefined) return null
    node = child
  }
  return node
}

/** The node with this id, searched in document order; iterative so deep trees cannot overflow the stack. */
export function findNode(tree: UiNode, id: string): UiNode | null {
  const stack: UiNode[] = [tree]
  while (stack.length > 0) {
    const node = stack.pop() as UiNode
    if (node.id === id) return node
    const children = node.children
    if (children !== undefined) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as UiNode)
  }
  return null
}
