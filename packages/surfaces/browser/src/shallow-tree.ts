import type { AxNode } from './page-capture.js'

/**
 * How deep a document's accessibility tree may go in the frame. A page can nest elements
 * without end: a script that put 2,000 divs one in the next made every walk of the tree
 * overflow the stack, so the tile could make no frame, and not even a navigation away could
 * run. Real pages stay far within it (the deepest page of the corpus, JSON Editor's: 24).
 */
export const MAX_AX_DEPTH = 128

/**
 * A document's tree by node id, no deeper than `maxDepth`: a node at that depth holds all it
 * held below, in document order, as children of its own without children, so every element
 * and text is still there, only no longer nested. Walked without recursion, each node once.
 */
export function shallowTree(nodes: readonly AxNode[], maxDepth = MAX_AX_DEPTH): Map<string, AxNode> {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]))
  const root = nodes[0]
  if (root === undefined) return byId
  const seen = new Set<string>()
  const stack: Array<{ id: string; depth: number }> = [{ id: root.nodeId, depth: 0 }]
  while (stack.length > 0) {
    const { id, depth } = stack.pop() as { id: string; depth: number }
    const node = byId.get(id)
    if (node === undefined || seen.has(id)) continue
    seen.add(id)
    const kids = node.childIds ?? []
    if (depth < maxDepth) {
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ id: kids[i] as string, depth: depth + 1 })
      continue
    }
    const below = descendants(byId, kids, seen)
    if (below.length === kids.length) continue
    byId.set(id, { ...node, childIds: below })
    for (const inner of below) {
      const held = byId.get(inner) as AxNode
      if ((held.childIds ?? []).length > 0) byId.set(inner, { ...held, childIds: [] })
    }
  }
  return byId
}

/** Every node under `kids`, in document order, each once (marked in `seen`). */
function descendants(byId: ReadonlyMap<string, AxNode>, kids: readonly string[], seen: Set<string>): string[] {
  const out: string[] = []
  const stack = [...kids].reverse()
  while (stack.length > 0) {
    const id = stack.pop() as string
    const node = byId.get(id)
    if (node === undefined || seen.has(id)) continue
    seen.add(id)
    out.push(id)
    const inner = node.childIds ?? []
    for (let i = inner.length - 1; i >= 0; i--) stack.push(inner[i] as string)
  }
  return out
}
