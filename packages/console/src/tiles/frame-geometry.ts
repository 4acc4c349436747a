import type { ActionTarget, Bounds, Frame, UiNode } from '@tessera/protocol'
import { hitTest } from '@tessera/protocol/frame-reading'

/** The frame's own box: what the tile shows, in the frame's coordinates. */
export function rootBounds(frame: Frame): Bounds {
  return frame.layout[frame.tree.id] ?? { x: 0, y: 0, width: 1, height: 1 }
}

function pathTo(node: UiNode, id: string): UiNode[] | null {
  if (node.id === id) return [node]
  for (const child of node.children ?? []) {
    const found = pathTo(child, id)
    if (found !== null) return [node, ...found]
  }
  return null
}

/**
 * The action a person's click at `point` (frame coordinates) means: the node under it by the
 * same layout and hit test the agent's frame uses, then the nearest enclosing node that
 * carries an enabled action.
 */
export function targetAt(frame: Frame, point: { x: number; y: number }): { target: ActionTarget; node: UiNode } | null {
  const hit = hitTest(frame.tree, frame.layout, point)
  if (hit === null) return null
  const path = pathTo(frame.tree, hit.id) ?? [hit]
  for (const node of path.reverse()) {
    const target = frame.targets.find((candidate) => candidate.nodeId === node.id && candidate.enabled)
    if (target !== undefined) return { target, node }
  }
  return null
}

/** Where an element sits as fractions of the frame's box, for an outline drawn over any tile. */
export function relativeBounds(frame: Frame, ref: string): { left: number; top: number; width: number; height: number } | null {
  const target = frame.targets.find((candidate) => candidate.ref === ref)
  const bounds = target?.nodeId === undefined ? undefined : frame.layout[target.nodeId]
  if (bounds === undefined) return null
  const root = rootBounds(frame)
  return { left: (bounds.x - root.x) / root.width, top: (bounds.y - root.y) / root.height, width: bounds.width / root.width, height: bounds.height / root.height }
}
