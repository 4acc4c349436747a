import { refFor } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { NodeLedger } from './node-ledger.js'

describe('the node ledger', () => {
  it('keeps an element\'s id while its document lives, and never gives an id or a ref twice', () => {
    const ledger = new NodeLedger()
    const a = ledger.idOf('frame/loader-1', 5)
    expect(ledger.idOf('frame/loader-1', 5)).toBe(a)
    expect(ledger.locate(a)).toEqual({ scope: 'frame/loader-1', key: 5 })
    // A cross-site navigation starts backend ids at 1 again: a new document, new ids.
    const b = ledger.idOf('frame/loader-2', 5)
    expect(b).not.toBe(a)
    ledger.keepScopes(new Set(['frame/loader-2']))
    expect(ledger.locate(a)).toBeUndefined()
    const refs = new Set<string>()
    const ids = new Set<string>()
    for (let i = 0; i < 20_000; i++) {
      const id = ledger.idOf('frame/loader-3', i)
      expect(ids.has(id)).toBe(false)
      ids.add(id)
      const ref = refFor(id)
      expect(ref).toBe(id)
      expect(refs.has(ref)).toBe(false)
      refs.add(ref)
    }
    expect(refs.has(refFor(a))).toBe(false)
  })

  it('numbers texts apart from elements, so elements keep small numbers', () => {
    const ledger = new NodeLedger()
    expect(ledger.idOf('doc', 1)).toBe('1')
    expect(ledger.idOf('doc', 2, 'text')).toBe('t1')
    expect(ledger.idOf('doc', 3)).toBe('2')
    expect(ledger.idOf('doc', 2, 'text')).toBe('t1')
    // A long text cut in a big element is read whole through its own id, a ref as short as an element's.
    expect(refFor('t1')).toBe('t1')
  })

  it('forgets one element that went, and gives its key a new id when it comes back', () => {
    const ledger = new NodeLedger()
    const dialog = ledger.idOf(':1.42', '/org/a11y/atspi/accessible/7')
    ledger.forget(':1.42', '/org/a11y/atspi/accessible/7')
    expect(ledger.locate(dialog)).toBeUndefined()
    expect(ledger.idOf(':1.42', '/org/a11y/atspi/accessible/7')).not.toBe(dialog)
  })
})
