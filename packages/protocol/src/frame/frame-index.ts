import type { Frame } from '../schemas/frame.js'
import type { UiNode } from '../schemas/node.js'
import { isDisabled, isHidden } from '../tree/node-states.js'
import { RefTable } from '../outline/refs.js'

/** Lookups every reader of a frame needs, built once per frame object. */
export interface FrameIndex {
  /** Node id → node, in document order. */
  nodes: Map<string, UiNode>
  /** Node id → its parent's id (the root has none). */
  parents: Map<string, string>
  /** Ids of nodes that are disabled or hidden, themselves or through an ancestor. */
  blocked: Set<string>
  /** Ref ↔ node id for this frame. */
  refs: RefTable
  /** Node ids that occur more than once (a valid frame has none). */
  duplicates: string[]
}

const indexes = new WeakMap<Frame, FrameIndex>()

/** Walks a tree once, iteratively (a deep tree cannot overflow the stack). */
export function indexTree(tree: UiNode): Omit<FrameIndex, 'refs'> {
  const nodes = new Map<string, UiNode>()
  const parents = new Map<string, string>()
  const blocked = new Set<string>()
  const duplicates: string[] = []
  const stack: Array<[UiNode, string | undefined, boolean]> = [[tree, undefined, false]]
  while (stack.length > 0) {
    const [node, parent, blockedAbove] = stack.pop() as [UiNode, string | undefined, boolean]
    if (nodes.has(node.id)) duplicates.push(node.id)
    nodes.set(node.id, node)
    if (parent !== undefined) parents.set(node.id, parent)
    const isBlocked = blockedAbove || isDisabled(node) || isHidden(node)
    if (isBlocked) blocked.add(node.id)
    const children = node.children
    if (children !== undefined) for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] as UiNode, node.id, isBlocked])
  }
  return { nodes, parents, blocked, duplicates }
}

/** The index of a frame, cached for as long as the frame object lives. */
export function frameIndex(frame: Frame): FrameIndex {
  let index = indexes.get(frame)
  if (index === undefined) {
    const tree = indexTree(frame.tree)
    index = { ...tree, refs: new RefTable(tree.nodes.keys()) }
    indexes.set(frame, index)
  }
  return index
}

/** Lets a frame built with its index at hand skip the second walk. */
export function rememberIndex(frame: Frame, index: FrameIndex): void {
  indexes.set(frame, index)
}
