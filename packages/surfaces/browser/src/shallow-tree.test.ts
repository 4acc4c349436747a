import { describe, expect, it } from 'vitest'
import type { AxNode } from './page-capture.js'
import { shallowTree } from './shallow-tree.js'

const node = (nodeId: string, childIds: string[] = []): AxNode => ({ nodeId, ignored: false, childIds })

/** The depth of the deepest node, walked without recursion. */
function depthOf(byId: ReadonlyMap<string, AxNode>, root: string): number {
  let max = 0
  const stack: Array<[string, number]> = [[root, 0]]
  while (stack.length > 0) {
    const [id, depth] = stack.pop() as [string, number]
    max = Math.max(max, depth)
    for (const child of byId.get(id)?.childIds ?? []) stack.push([child, depth + 1])
  }
  return max
}

describe('shallowTree', () => {
  it('hangs everything below the limit under the node at it, in document order, and keeps every node', () => {
    // root > a > b > (c > d, e): with a limit of 2, b holds c, d and e side by side.
    const nodes = [node('root', ['a']), node('a', ['b']), node('b', ['c', 'e']), node('c', ['d']), node('d'), node('e')]
    const byId = shallowTree(nodes, 2)
    expect(byId.get('b')?.childIds).toEqual(['c', 'd', 'e'])
    expect(byId.get('c')?.childIds).toEqual([])
    expect([...byId.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'root'])
    expect(depthOf(byId, 'root')).toBe(3)
  })

  it('leaves a tree within the limit as it is, and walks 100,000 levels and a cycle without recursion', () => {
    const shallow = [node('root', ['a', 'b']), node('a'), node('b')]
    expect(shallowTree(shallow, 2).get('root')).toBe(shallow[0])
    const deep = Array.from({ length: 100_000 }, (_, i) => node(`n${i}`, i + 1 < 100_000 ? [`n${i + 1}`] : []))
    const flat = shallowTree(deep, 128)
    expect(depthOf(flat, 'n0')).toBe(129)
    expect(flat.get('n128')?.childIds).toHaveLength(100_000 - 129)
    const cycle = [node('root', ['a']), node('a', ['b']), node('b', ['a'])]
    expect(shallowTree(cycle, 1).get('a')?.childIds).toEqual(['b'])
  })
})
