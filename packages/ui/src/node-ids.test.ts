import { TesseraError, UiNode } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'
import { type ElementNode, box, text } from './elements.js'
import { MAX_NODE_ID_LENGTH, finalizeTree } from './node-ids.js'

function ids(node: UiNode, out: string[] = []): string[] {
  out.push(node.id)
  for (const child of node.children ?? []) ids(child, out)
  return out
}

function thrown(fn: () => unknown): TesseraError {
  try {
    fn()
  } catch (error) {
    if (error instanceof TesseraError) return error
    throw error
  }
  throw new Error('expected a TesseraError, nothing was thrown')
}

const approve = () => agentAction({ id: 'approve', kind: 'approve', title: 'Approve', risk: 'write' })

describe('finalizeTree', () => {
  it('derives ids from kind and position among unnamed siblings of the same kind', () => {
    const tree = finalizeTree(box({}, [text('a'), box({}, [text('b')]), text('c')]))
    expect(ids(tree)).toEqual(['root', 'root/text0', 'root/box0', 'root/box0/text0', 'root/text1'])
  })

  it('uses explicit ids, keys and action ids', () => {
    const tree = finalizeTree(
      box({ key: 'app' }, [box({ id: 'toolbar' }, [text('x')]), box({ key: 'list' }), box({ semantic: { agentAction: approve() } })]),
    )
    expect(ids(tree)).toEqual(['app', 'toolbar', 'toolbar/text0', 'app/list', 'app/approve'])
  })

  it('gives the same ids to the same tree built twice', () => {
    const build = () => box({}, [text('a'), box({ key: 'k' }, [text('b'), text('c')])])
    expect(ids(finalizeTree(build()))).toEqual(ids(finalizeTree(build())))
  })

  it('keeps the other ids when a keyed or action sibling is inserted', () => {
    const before = finalizeTree(box({}, [text('a'), box({}, [text('x')]), text('b')]))
    const after = finalizeTree(
      box({}, [box({ key: 'banner' }), text('a'), box({ semantic: { agentAction: approve() } }), box({}, [text('x')]), text('b')]),
    )
    expect(ids(after)).toEqual(expect.arrayContaining(ids(before)))
    expect(after.children?.[1]?.id).toBe('root/text0')
    expect(after.children?.[3]?.id).toBe('root/box0')
    expect(after.children?.[4]?.id).toBe('root/text1')
  })

  it('keeps each item id when a keyed list is reordered', () => {
    const items = [
      { id: 'c-1', label: 'one' },
      { id: 'c-2', label: 'two' },
      { id: 'c-3', label: 'three' },
    ]
    const render = (list: typeof items) =>
      finalizeTree(box({}, [box({ key: 'claims' }, list.map((item) => box({ key: item.id }, [text(item.label)])))]))
    const idOf = (tree: UiNode) =>
      new Map((tree.children?.[0]?.children ?? []).map((row) => [row.children?.[0]?.text, [row.id, row.children?.[0]?.id]]))
    const forward = idOf(render(items))
    const reversed = idOf(render([...items].reverse()))
    expect(reversed).toEqual(forward)
    expect(forward.get('two')).toEqual(['root/claims/c-2', 'root/claims/c-2/text0'])
  })

  it('names both paths when two nodes share an id', () => {
    const error = thrown(() => finalizeTree(box({}, [box({ id: 'dup' }), box({}, [text({ text: 'x', id: 'dup' })])])))
    expect(error.code).toBe('invalid_frame')
    expect(error.message).toContain('"dup"')
    expect(error.message).toContain('path [0]')
    expect(error.message).toContain('path [1, 0]')
    expect(error.details).toEqual({ id: 'dup', firstPath: [0], secondPath: [1, 0] })
  })

  it('reports duplicate keys among siblings', () => {
    const error = thrown(() => finalizeTree(box({}, [box({ key: 'a' }), box({ key: 'a' })])))
    expect(error.code).toBe('invalid_frame')
    expect(error.message).toContain('root/a')
  })

  it('drops keys, undefined and functions, and produces a valid protocol tree', () => {
    const element: ElementNode = {
      kind: 'box',
      key: 'k',
      name: undefined,
      onPress: () => 1,
      style: { width: 10, height: undefined },
      children: [{ kind: 'text', text: 'x', key: 3 }],
    }
    const tree = finalizeTree(element)
    expect(tree).toEqual({ id: 'k', kind: 'box', style: { width: 10 }, children: [{ id: 'k/3', kind: 'text', text: 'x' }] })
    expect(JSON.parse(JSON.stringify(tree))).toEqual(tree)
    expect(UiNode.safeParse(tree).success).toBe(true)
    expect(Object.keys(tree.style ?? {})).toEqual(['width'])
  })

  it('keeps explicit ids of a finished tree unchanged (idempotent)', () => {
    const once = finalizeTree(box({}, [text('a'), box({ key: 'b' }, [text('c')])]))
    expect(finalizeTree(once)).toEqual(once)
  })

  it('keeps derived ids within the protocol limit on very deep trees', () => {
    let node: ElementNode = text('leaf')
    for (let i = 0; i < 80; i++) node = box({}, [node])
    const all = ids(finalizeTree(node))
    expect(all).toHaveLength(81)
    expect(new Set(all).size).toBe(81)
    for (const id of all) expect(id.length).toBeLessThanOrEqual(MAX_NODE_ID_LENGTH)
    expect(all.at(-1)).toMatch(/^~[0-9a-f]{24}(\/box0)*\/text0$/)
  })

  it('rejects an explicit id over the limit, saying what was expected', () => {
    const error = thrown(() => finalizeTree(box({ id: 'x'.repeat(300) })))
    expect(error.code).toBe('invalid_frame')
    expect(error.message).toContain(`1–${MAX_NODE_ID_LENGTH} characters`)
    expect(error.message).toContain('300')
  })
})
