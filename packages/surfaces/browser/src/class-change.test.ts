import { describe, expect, it } from 'vitest'
import { classChangeOf, classNewsBetween } from './class-change.js'

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
  const around = (element: string, peers: string[], page = ''): { element: string; peers: string[]; page: string } => ({ element, peers, page })

  it('says how many siblings hold a class the element gained: a choice added to, not moved', () => {
    expect(classNewsBetween(around('item', ['item ui-selected', 'item']), around('item ui-selected', ['item ui-selected', 'item']))).toEqual({ classes: { added: ['ui-selected'], removed: [], alsoOn: 1 } })
    // Moved from the sibling that had it: said of the element alone.
    expect(classNewsBetween(around('item', ['item ui-selected', 'item']), around('item ui-selected', ['item', 'item']))).toEqual({ classes: { added: ['ui-selected'], removed: [] } })
    // A class the element lost is not counted on its siblings.
    expect(classNewsBetween(around('item open', ['item open']), around('item', ['item open']))).toEqual({ classes: { added: [], removed: ['open'] } })
  })

  it("says the page's classes apart, and nothing where a read failed", () => {
    expect(classNewsBetween(around('b', [], 'light'), around('b', [], 'dark'))).toEqual({ pageClasses: { added: ['dark'], removed: ['light'] } })
    expect(classNewsBetween(undefined, around('b', ['b']))).toEqual({})
  })
})
