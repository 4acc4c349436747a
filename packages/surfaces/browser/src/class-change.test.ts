import { describe, expect, it } from 'vitest'
import { type ClassesAround, classChangeOf, classNewsBetween, type PeerRead } from './class-change.js'

describe('classChangeOf', () => {
  it('says the classes an element gained and lost, CSS names only, a few of each', () => {
    expect(classChangeOf('ui-selectee', 'ui-selectee ui-selected')).toEqual({ added: ['ui-selected'], removed: [] })
    expect(classChangeOf('a  b\tc', 'c d')).toEqual({ added: ['d'], removed: ['a', 'b'] })
    expect(classChangeOf(null, 'open')).toEqual({ added: ['open'], removed: [] })
    // Words no selector could name, and a page's prose posing as classes past the first few, are not said.
    expect(classChangeOf('x', 'x 9lives "quoted" a{b}')).toBeUndefined()
    expect(classChangeOf('', 'a b c d e f')?.added).toEqual(['a', 'b', 'c', 'd'])
  })

  it('says nothing where nothing changed or a read failed', () => {
    expect(classChangeOf('a b', 'b a')).toBeUndefined()
    expect(classChangeOf(undefined, 'a')).toBeUndefined()
    expect(classChangeOf('a', undefined)).toBeUndefined()
  })
})

describe('classNewsBetween', () => {
  const peer = (classes: string, words = ''): PeerRead => ({ classes, words })
  const around = (element: string, peers: PeerRead[], page = ''): ClassesAround => ({ element, peers, page })

  it('says how many siblings hold a class the element gained: a choice added to, not moved', () => {
    expect(classNewsBetween(around('item', [peer('item ui-selected'), peer('item')]), around('item ui-selected', [peer('item ui-selected'), peer('item')]))).toEqual({ classes: { added: ['ui-selected'], removed: [], alsoOn: 1 } })
    // A class the element lost is not counted on its siblings.
    expect(classNewsBetween(around('item open', [peer('item open')]), around('item', [peer('item open')]))).toEqual({ classes: { added: [], removed: ['open'] } })
  })

  it('names the siblings a class the element gained was taken from: a choice moved', () => {
    const before = around('item', [peer('item ui-selected', 'Item 1'), peer('item', 'Item 2'), peer('item ui-selected')])
    expect(classNewsBetween(before, around('item ui-selected', [peer('item', 'Item 1'), peer('item', 'Item 2'), peer('item')]))).toEqual({ classes: { added: ['ui-selected'], removed: [], takenFrom: ['Item 1', ''] } })
    // A list that changed its length between the reads has no peer to name by its place.
    expect(classNewsBetween(before, around('item ui-selected', [peer('item', 'Item 2')]))).toEqual({ classes: { added: ['ui-selected'], removed: [] } })
    // At most a few are named: a reset that clears many is said of the element.
    const many = Array.from({ length: 6 }, (_, at) => peer('item ui-selected', `Item ${at}`))
    expect(classNewsBetween(around('item', many), around('item ui-selected', many.map((was) => peer('item', was.words)))).classes?.takenFrom).toEqual(['Item 0', 'Item 1', 'Item 2'])
  })

  it("says the page's classes apart, and nothing where a read failed", () => {
    expect(classNewsBetween(around('b', [], 'light'), around('b', [], 'dark'))).toEqual({ pageClasses: { added: ['dark'], removed: ['light'] } })
    expect(classNewsBetween(undefined, around('b', [peer('b')]))).toEqual({})
  })
})
