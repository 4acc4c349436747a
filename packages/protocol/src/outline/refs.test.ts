import { describe, expect, it } from 'vitest'
import { RefTable, isRef, refFor } from './refs.js'

/** Two node ids whose preferred refs collide, found by a deterministic search. */
function collidingPair(): [string, string] {
  const seen = new Map<string, string>()
  for (let i = 0; ; i++) {
    const id = `root/list/item-${i}`
    const ref = refFor(id)
    const earlier = seen.get(ref)
    if (earlier !== undefined) return [earlier, id]
    seen.set(ref, id)
  }
}

describe('refFor', () => {
  it('is short, deterministic and depends only on the node id', () => {
    const ref = refFor('claims-review/detail/decision/approve')
    expect(ref).toMatch(/^n[0-9a-z]{4}$/)
    expect(refFor('claims-review/detail/decision/approve')).toBe(ref)
    expect(refFor('claims-review/detail/decision/reject')).not.toBe(ref)
  })

  it('keeps a node ledger\'s id as it is: already short and never reused', () => {
    expect(refFor('12')).toBe('12')
    expect(refFor('t7')).toBe('t7')
    // An older frame's id keeps its e.
    expect(refFor('e12')).toBe('e12')
    // Only the ledger's exact shape; anything else that starts with e is hashed.
    expect(refFor('e012')).toMatch(/^n[0-9a-z]{4}$/)
    expect(refFor('012')).toMatch(/^n[0-9a-z]{4}$/)
    expect(refFor('edit/e12')).toMatch(/^n[0-9a-z]{4}$/)
  })

  it('tells a ref from a selector or a name', () => {
    for (const ref of ['12', '@12', 'e12', '@e12', 't7', '@t7', 'n1k2a', '@n1k2a.1']) expect(isRef(ref)).toBe(true)
    for (const other of ['e012', '012', '0', '#e12', '#12', 't0', 'te12', 'button', 'e', 't', '@', 'n1k', '1.5']) expect(isRef(other)).toBe(false)
  })
})

describe('RefTable', () => {
  it('maps refs to node ids and back, and accepts a leading @', () => {
    const table = new RefTable(['a', 'a/b', 'a/c'])
    expect(table.size).toBe(3)
    for (const id of ['a', 'a/b', 'a/c']) {
      const ref = table.refOf(id) as string
      expect(ref).toBe(refFor(id))
      expect(table.resolve(ref)).toBe(id)
      expect(table.resolve(`@${ref}`)).toBe(id)
    }
    expect(table.resolve('nzzzzzz')).toBeUndefined()
    expect(table.refOf('missing')).toBeUndefined()
  })

  it('gives every member of a collision a longer ref, so the short one names nobody', () => {
    const [first, second] = collidingPair()
    const short = refFor(first)
    const table = new RefTable([first, second, 'other'])
    const a = table.refOf(first) as string
    const b = table.refOf(second) as string
    expect(a).not.toBe(b)
    expect(a.length).toBeGreaterThan(short.length)
    expect(b.length).toBeGreaterThan(short.length)
    expect(a.startsWith(short) && b.startsWith(short)).toBe(true)
    expect(table.resolve(a)).toBe(first)
    expect(table.resolve(b)).toBe(second)
    expect(table.resolve(short)).toBeUndefined()
    // Without the other member of the collision, the preferred ref is back.
    expect(new RefTable([first, 'other']).refOf(first)).toBe(short)
  })

  it('does not depend on the order of the node ids, and ignores repeats', () => {
    const [first, second] = collidingPair()
    const ids = [first, 'x', second, 'y/z', 'x']
    const forward = new RefTable(ids)
    const backward = new RefTable([...ids].reverse())
    expect(forward.size).toBe(4)
    for (const id of ids) expect(backward.refOf(id)).toBe(forward.refOf(id))
  })

  it('gives ledger ids their own refs beside hashed ones', () => {
    const table = new RefTable(['1', '2', 'root/page', '10', 't3'])
    expect(table.refOf('10')).toBe('10')
    expect(table.resolve('@2')).toBe('2')
    expect(table.refOf('root/page')).toBe(refFor('root/page'))
    expect(table.resolve('3')).toBeUndefined()
    expect(table.resolve('@t3')).toBe('t3')
  })

  it('reads an element\'s number with or without the e, either way round', () => {
    // Playwright MCP's refs read e12: an agent used to them finds @12.
    const now = new RefTable(['12', 't4'])
    expect(now.resolve('e12')).toBe('12')
    expect(now.resolve('@e12')).toBe('12')
    expect(now.resolve('e4')).toBeUndefined()
    // A frame recorded when ids had their e still answers to the number it would have now.
    const older = new RefTable(['e12'])
    expect(older.resolve('@12')).toBe('e12')
    expect(older.resolve('e12')).toBe('e12')
  })

  it('keeps refs unique in a large table', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `root/${i % 7}/node-${i}`)
    const table = new RefTable(ids)
    expect(table.size).toBe(ids.length)
    for (const id of ids) expect(table.resolve(table.refOf(id) as string)).toBe(id)
  })
})
