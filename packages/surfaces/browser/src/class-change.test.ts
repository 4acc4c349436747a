import { describe, expect, it } from 'vitest'
import { classChangeOf } from './class-change.js'

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
