import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  GENESIS_HASH,
  TesseraError,
  type Approval,
  type JsonValue,
  type TraceEventDraft,
  sha256Hex,
} from '@tessera/protocol'
import { verifyEvents } from '../src/trace/hash-chain.js'
import type { TraceStore } from '../src/trace/store.js'
import { verifyStore } from '../src/trace/verify.js'

/*
 * The one contract every TraceStore backend passes (memory, SQLite, PostgreSQL); each backend
 * calls describeTraceStore from stores.test.ts with a factory for an empty store.
 */

export interface StoreUnderTest {
  store: TraceStore
  /**
   * Opens another handle on the same data: a restarted hub, or a second hub sharing the
   * database. Persistent stores only.
   */
  openAgain?: () => Promise<TraceStore>
  /** Closes whatever the factory opened and removes what it created. */
  dispose(): Promise<void>
}

export interface StoreFactory {
  /** Whether a store survives close() and can be opened again (runs the persistence tests). */
  persistent: boolean
  /** An empty store. */
  create(): Promise<StoreUnderTest>
}

export function draft(session: string, n: number, overrides: Partial<TraceEventDraft> = {}): TraceEventDraft {
  return {
    session,
    time: new Date(Date.UTC(2025, 0, 1, 12, 0, 0, n)).toISOString(),
    type: 'requested',
    actor: 'agent:alice',
    surface: 'claims',
    action: 'approve-payout',
    frameId: `f_${n}`,
    requestId: `r_${n}`,
    data: { input: { claimId: `C-${n}`, amount: n * 10.5 }, n },
    ...overrides,
  }
}

function approval(id: string, overrides: Partial<Approval> = {}): Approval {
  return {
    id,
    session: 'a',
    requestId: `r_${id}`,
    surface: 'claims',
    action: 'approve-payout',
    frameId: 'f_1',
    inputHash: 'ab'.repeat(32),
    input: { claimId: 'C-1', amount: 100 },
    requester: 'agent:alice',
    reason: 'payout above limit',
    status: 'pending',
    createdAt: '2025-01-01T12:00:00.000Z',
    expiresAt: '2025-01-01T12:15:00.000Z',
    ...overrides,
  }
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = []
  for await (const item of iterable) items.push(item)
  return items
}

async function rejection(promise: Promise<unknown>): Promise<TesseraError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(TesseraError)
    return error as TesseraError
  }
  throw new Error('expected the call to be rejected')
}

export function describeTraceStore(name: string, factory: StoreFactory): void {
  describe(`TraceStore contract: ${name}`, () => {
    let subject: StoreUnderTest
    let store: TraceStore
    const opened: TraceStore[] = []

    beforeEach(async () => {
      subject = await factory.create()
      store = subject.store
    })

    afterEach(async () => {
      for (const other of opened.splice(0)) await other.close()
      await subject.dispose()
    })

    async function openAgain(): Promise<TraceStore> {
      if (!subject.openAgain) throw new Error(`${name} cannot be opened again`)
      const other = await subject.openAgain()
      opened.push(other)
      return other
    }

    it('gives back exactly what was appended, including any JSON in data', async () => {
      const data: JsonValue = {
        input: { text: 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 🧩 accent é', big: 1e21, small: 5e-7 },
        output: [1, 2.5, -3, true, false, null, '', [], {}],
        unusual: { '': 'empty key', 'z-last': 1, 'a-first': 2, '10': 'ten', '9': 'nine', 'ünï': 'cödé' },
        nested: { deep: { deeper: { deepest: ['a', { b: 'c' }] } } },
      }
      const appended = await store.append([draft('a', 0, { data }), draft('a', 1, { surface: null, action: null, frameId: null, requestId: null })])
      expect(appended[0]?.data).toEqual(data)
      const read = await collect(store.read('a'))
      expect(read).toEqual(appended)
      expect(read[0]?.data).toEqual(data)
    })

    it('keeps only the fields of the draft schema, dropping unknown top-level keys', async () => {
      const withExtra = { ...draft('a', 0), injected: 'ignored' } as TraceEventDraft
      const [event] = await store.append([withExtra])
      expect(event).not.toHaveProperty('injected')
      const [read] = await collect(store.read('a'))
      expect(read).not.toHaveProperty('injected')
    })

    it('numbers each session from 0 and links every event to the one before it', async () => {
      const first = await store.append([draft('a', 0), draft('a', 1)])
      const second = await store.append([draft('a', 2)])
      const events = [...first, ...second]
      expect(events.map((event) => event.seq)).toEqual([0, 1, 2])
      expect(events[0]?.prevHash).toBe(GENESIS_HASH)
      expect(events[1]?.prevHash).toBe(events[0]?.hash)
      expect(events[2]?.prevHash).toBe(events[1]?.hash)
      expect(new Set(events.map((event) => event.hash)).size).toBe(3)
    })

    it('chains each session of a mixed batch on its own, returning events in draft order', async () => {
      await store.append([draft('b', 0)])
      const events = await store.append([draft('a', 0), draft('b', 1), draft('a', 1), draft('c', 0), draft('b', 2)])
      expect(events.map((event) => `${event.session}${event.seq}`)).toEqual(['a0', 'b1', 'a1', 'c0', 'b2'])
      expect(events[2]?.prevHash).toBe(events[0]?.hash)
      expect(events[4]?.prevHash).toBe(events[1]?.hash)
      expect(events[3]?.prevHash).toBe(GENESIS_HASH)
      for (const session of ['a', 'b', 'c']) {
        const read = await collect(store.read(session))
        expect(read.map((event) => event.seq)).toEqual(read.map((_, index) => index))
      }
    })

    it('writes nothing from a batch with one invalid draft, and says which one', async () => {
      const before = await store.append([draft('a', 0)])
      const error = await rejection(
        store.append([draft('a', 1), draft('b', 0), { ...draft('a', 2), time: 'yesterday' }, draft('a', 3)]),
      )
      expect(error.code).toBe('invalid_request')
      expect(error.details).toMatchObject({ index: 2 })
      expect(error.message).toContain('#2')
      expect(await store.head('a')).toEqual({ seq: 0, hash: before[0]?.hash })
      expect(await store.head('b')).toBeNull()
      expect(await collect(store.read('a'))).toHaveLength(1)
      expect((await store.sessions()).map((summary) => summary.session)).toEqual(['a'])
    })

    it.each<[string, unknown]>([
      ['data that is not JSON (NaN)', { ...draft('a', 0), data: { x: Number.NaN } }],
      ['data holding undefined', { ...draft('a', 0), data: { x: undefined } }],
      ['data holding a Date', { ...draft('a', 0), data: { at: new Date(0) } }],
      ['missing data', (({ data: _data, ...rest }) => rest)(draft('a', 0))],
      ['an empty session', draft('', 0)],
      ['an unknown type', { ...draft('a', 0), type: 'teleported' }],
      ['a session name over 128 characters', draft('s'.repeat(129), 0)],
      ['not an object', 'requested'],
    ])('rejects a draft with %s as invalid_request', async (_label, bad) => {
      const error = await rejection(store.append([bad as TraceEventDraft]))
      expect(error.code).toBe('invalid_request')
      expect(await store.sessions()).toEqual([])
    })

    it('appends an empty batch as a no-op', async () => {
      expect(await store.append([])).toEqual([])
      expect(await store.sessions()).toEqual([])
    })

    it('reads across pages, from a seq, up to a limit', async () => {
      const drafts = Array.from({ length: 2500 }, (_, n) => draft('a', n))
      await store.append(drafts.slice(0, 1200))
      await store.append(drafts.slice(1200))
      const all = await collect(store.read('a'))
      expect(all.map((event) => event.seq)).toEqual(drafts.map((_, n) => n))
      const window = await collect(store.read('a', { fromSeq: 999, limit: 1002 }))
      expect(window.map((event) => event.seq)).toEqual(Array.from({ length: 1002 }, (_, n) => 999 + n))
      expect(await collect(store.read('a', { fromSeq: 2499 }))).toHaveLength(1)
      expect(await collect(store.read('a', { fromSeq: 2500 }))).toEqual([])
      expect(await collect(store.read('a', { limit: 0 }))).toEqual([])
      expect(await collect(store.read('nobody'))).toEqual([])
      const raw = await collect(store.readRaw('a'))
      expect(raw.map((link) => link.seq)).toEqual(drafts.map((_, n) => n))
    })

    it.each<[string, { fromSeq?: number; limit?: number }]>([
      ['a negative fromSeq', { fromSeq: -1 }],
      ['a fractional fromSeq', { fromSeq: 1.5 }],
      ['a negative limit', { limit: -5 }],
      ['a NaN limit', { limit: Number.NaN }],
    ])('rejects reading with %s as invalid_request', async (_label, options) => {
      await store.append([draft('a', 0)])
      expect((await rejection(collect(store.read('a', options)))).code).toBe('invalid_request')
    })

    it('drops an own __proto__ key from data, as the draft schema does', async () => {
      const data = JSON.parse('{"kept": 1, "__proto__": {"polluted": true}}') as JsonValue
      const [event] = await store.append([draft('a', 0, { data })])
      expect(event?.data).toEqual({ kept: 1 })
      const [read] = await collect(store.read('a'))
      expect(read?.data).toEqual({ kept: 1 })
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

    it('reports each session head', async () => {
      expect(await store.head('a')).toBeNull()
      const events = await store.append([draft('a', 0), draft('a', 1), draft('b', 0)])
      expect(await store.head('a')).toEqual({ seq: 1, hash: events[1]?.hash })
      expect(await store.head('b')).toEqual({ seq: 0, hash: events[2]?.hash })
    })

    it('summarizes sessions: count, first and last time, head hash, sorted by name', async () => {
      await store.append([draft('b', 0, { time: '2025-02-01T00:00:00.000Z' }), draft('a', 0, { time: '2025-01-01T00:00:00+02:00' })])
      const last = await store.append([draft('b', 1, { time: '2025-02-03T00:00:00.000Z' })])
      expect(await store.sessions()).toEqual([
        { session: 'a', events: 1, firstTime: '2025-01-01T00:00:00+02:00', lastTime: '2025-01-01T00:00:00+02:00', headHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { session: 'b', events: 2, firstTime: '2025-02-01T00:00:00.000Z', lastTime: '2025-02-03T00:00:00.000Z', headHash: last[0]?.hash },
      ])
    })

    it('keeps approvals: upsert by id, get, list with filters, oldest first', async () => {
      expect(await store.getApproval('nope')).toBeNull()
      await store.putApproval(approval('ap-2', { createdAt: '2025-01-01T12:05:00.000Z' }))
      await store.putApproval(approval('ap-1'))
      await store.putApproval(approval('ap-3', { session: 'b', status: 'approved', createdAt: '2025-01-01T12:10:00.000Z', resolvedBy: 'human:bob', resolvedAt: '2025-01-01T12:06:00.000Z' }))
      const resolved = approval('ap-1', { status: 'denied', resolvedBy: 'human:bob', resolvedAt: '2025-01-01T12:07:00.000Z', note: 'too much' })
      await store.putApproval(resolved)
      expect(await store.getApproval('ap-1')).toEqual(resolved)
      expect((await store.listApprovals()).map((a) => a.id)).toEqual(['ap-1', 'ap-2', 'ap-3'])
      expect((await store.listApprovals({ status: 'pending' })).map((a) => a.id)).toEqual(['ap-2'])
      expect((await store.listApprovals({ session: 'a' })).map((a) => a.id)).toEqual(['ap-1', 'ap-2'])
      expect((await store.listApprovals({ session: 'b', status: 'approved' })).map((a) => a.id)).toEqual(['ap-3'])
      expect(await store.listApprovals({ session: 'b', status: 'pending' })).toEqual([])
    })

    it('moves an approval on atomically: of many concurrent approves and denies from pending, exactly one is written', async () => {
      const others = subject.openAgain ? [await openAgain()] : []
      for (let round = 0; round < 5; round += 1) {
        const id = `ap-race-${round}`
        await store.putApproval(approval(id))
        const pending = approval(id)
        const attempts = Array.from({ length: 12 }, (_, n) => {
          const next = approval(id, { status: n % 2 === 0 ? 'approved' : 'denied', resolvedBy: `human:${n}`, resolvedAt: '2025-01-01T12:07:00.000Z' })
          // Half go through a second handle where the backend has one: two hubs on one database.
          const handle = others.length > 0 && n % 3 === 0 ? others[0]! : store
          return handle.transitionApproval(next, pending.status).then((won) => ({ won, next }))
        })
        const outcomes = await Promise.all(attempts)
        const winners = outcomes.filter((o) => o.won)
        expect(winners).toHaveLength(1)
        expect(await store.getApproval(id)).toEqual(winners[0]?.next)
      }
      // From a status it is not in, nothing is written; an unknown id is not created.
      const approved = approval('ap-race-x', { status: 'approved', resolvedBy: 'human:bob', resolvedAt: '2025-01-01T12:07:00.000Z' })
      await store.putApproval(approved)
      expect(await store.transitionApproval({ ...approved, status: 'denied' }, 'pending')).toBe(false)
      expect(await store.getApproval('ap-race-x')).toEqual(approved)
      expect(await store.transitionApproval({ ...approved, status: 'consumed' }, 'approved')).toBe(true)
      expect(await store.transitionApproval(approval('ap-none', { status: 'approved' }), 'pending')).toBe(false)
      expect(await store.getApproval('ap-none')).toBeNull()
    })

    it('rejects an invalid approval as invalid_request', async () => {
      const error = await rejection(store.putApproval({ ...approval('ap-1'), status: 'maybe' } as unknown as Approval))
      expect(error.code).toBe('invalid_request')
      expect(await store.getApproval('ap-1')).toBeNull()
    })

    it('verifies its chains', async () => {
      await store.append(Array.from({ length: 30 }, (_, n) => draft(n % 3 === 0 ? 'b' : 'a', n)))
      const results = await verifyStore(store)
      expect(results.map((result) => [result.session, result.ok, result.count])).toEqual([
        ['a', true, 20],
        ['b', true, 10],
      ])
      const head = await store.head('a')
      expect(results[0]).toMatchObject({ headHash: head?.hash })
      expect(await verifyStore(store, 'b')).toEqual([results[1]])
      expect(await verifyEvents(store.readRaw('a'), { session: 'a', deep: true })).toEqual({ ok: true, count: 20, headHash: head?.hash })
    })

    it('serializes many concurrent appends into one valid chain per session', async () => {
      const calls = Array.from({ length: 40 }, (_, call) =>
        store.append([draft('a', call * 3), draft('b', call * 3 + 1), draft('a', call * 3 + 2)]),
      )
      const batches = await Promise.all(calls)
      const aSeqs = batches.flat().filter((event) => event.session === 'a').map((event) => event.seq)
      expect(aSeqs.sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, n) => n))
      for (const result of await verifyStore(store)) expect(result).toMatchObject({ ok: true })
      expect((await store.sessions()).map((summary) => summary.events)).toEqual([80, 40])
    })

    it('stores content-addressed blobs once, and refuses a blob not named by its hash, writing nothing of its batch', async () => {
      const blob = (text: string) => ({ hash: sha256Hex(text), text })
      const frame = blob(JSON.stringify({ tree: { id: 'root' }, note: 'ünïcode ✓' }))
      const big = blob('x'.repeat(1_000_000))
      await store.putBlobs([frame, big])
      await store.putBlobs([frame])
      expect(await store.getBlob(frame.hash)).toBe(frame.text)
      expect((await store.getBlob(big.hash))?.length).toBe(1_000_000)
      expect(await store.getBlob('0'.repeat(64))).toBeNull()
      const good = blob('good')
      const error = await rejection(store.putBlobs([good, { hash: sha256Hex('other'), text: 'forged' }]))
      expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('blob 1') })
      expect(await store.getBlob(good.hash)).toBeNull()
      expect((await rejection(store.putBlobs([{ hash: 'not-a-hash', text: 'x' }]))).code).toBe('invalid_request')
      await store.putBlobs([])
    })

    it('keeps a closed store closed, with a store_error', async () => {
      await store.close()
      expect((await rejection(store.append([draft('a', 0)]))).code).toBe('store_error')
      expect((await rejection(store.head('a'))).code).toBe('store_error')
      expect((await rejection(collect(store.read('a')))).code).toBe('store_error')
    })

    // Registered only for stores that persist: a memory store has no restart to survive,
    // and a test that cannot apply should not show up as skipped.
    if (factory.persistent) describe('persistence', () => {
      it('continues the same chains after a restart', async () => {
        const before = await store.append([draft('a', 0), draft('a', 1), draft('b', 0)])
        await store.putApproval(approval('ap-1'))
        await store.putBlobs([{ hash: sha256Hex('kept'), text: 'kept' }])
        await store.close()
        const reopened = await openAgain()
        expect(await reopened.getBlob(sha256Hex('kept'))).toBe('kept')
        expect(await reopened.head('a')).toEqual({ seq: 1, hash: before[1]?.hash })
        expect(await reopened.getApproval('ap-1')).toEqual(approval('ap-1'))
        const [next] = await reopened.append([draft('a', 2)])
        expect(next).toMatchObject({ seq: 2, prevHash: before[1]?.hash })
        expect(await collect(reopened.read('a'))).toEqual([...before.slice(0, 2), next])
        for (const result of await verifyStore(reopened)) expect(result).toMatchObject({ ok: true })
      })

      it('lets two handles on the same data (two hubs) append to one session without forking it', async () => {
        const other = await openAgain()
        await Promise.all(
          Array.from({ length: 20 }, (_, n) => (n % 2 === 0 ? store : other).append([draft('shared', n), draft('shared', n + 100)])),
        )
        const [result] = await verifyStore(store, 'shared')
        expect(result).toMatchObject({ ok: true, count: 40 })
        expect(await other.head('shared')).toEqual(await store.head('shared'))
      })
    })
  })
}
