import { describe, expect, it } from 'vitest'
import { GENESIS_HASH, TesseraError, canonicalJson, sha256Hex, type TraceEventDraft } from '@tessera/protocol'
import { GENESIS_HASH as WALKER_GENESIS_HASH } from './chain-walker.js'
import { chainEvent, eventFromBody, verifyEvents, type StoredEvent } from './hash-chain.js'

function draft(n: number, session = 's'): TraceEventDraft {
  return {
    session,
    time: `2025-01-01T00:00:${String(n % 60).padStart(2, '0')}Z`,
    type: 'completed',
    actor: 'agent:alice',
    surface: 'claims',
    action: 'approve-payout',
    frameId: null,
    requestId: `r${n}`,
    data: { output: { n }, seq: 99, prevHash: 'not the real one', session: 'nor this' },
  }
}

function chain(count: number, session = 's'): StoredEvent[] {
  const links: StoredEvent[] = []
  let prevHash = GENESIS_HASH
  for (let seq = 0; seq < count; seq += 1) {
    const { event, body } = chainEvent(draft(seq, session), seq, prevHash)
    links.push({ seq, prevHash, hash: event.hash, body })
    prevHash = event.hash
  }
  return links
}

/** Rewrites one link's body and re-hashes it, as someone with write access could. */
function forge(link: StoredEvent, body: string): StoredEvent {
  return { ...link, body, hash: sha256Hex(link.prevHash + body) }
}

describe('chainEvent', () => {
  it('hashes prevHash followed by the canonical JSON of the event without hash', () => {
    const { event, body } = chainEvent(draft(1), 7, 'ab'.repeat(32))
    const { hash, ...unhashed } = event
    expect(body).toBe(canonicalJson(unhashed))
    expect(hash).toBe(sha256Hex('ab'.repeat(32) + body))
    expect(event).toMatchObject({ seq: 7, prevHash: 'ab'.repeat(32) })
  })

  it('reads back from its body as the same event', () => {
    const { event, body } = chainEvent(draft(1), 0, GENESIS_HASH)
    expect(eventFromBody(body, event.hash, { session: 's', seq: 0 })).toEqual(event)
  })
})

describe('eventFromBody', () => {
  it('reports a body that does not parse as a store_error naming the event', () => {
    const error = (() => {
      try {
        eventFromBody('{"broken', 'ff'.repeat(32), { session: 's', seq: 4 })
      } catch (caught) {
        return caught
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(TesseraError)
    expect(error).toMatchObject({ code: 'store_error', details: { session: 's', seq: 4 } })
  })
})

describe('verifyEvents', () => {
  it("starts every chain from protocol's GENESIS_HASH", () => {
    // chain-walker.ts keeps its own copy so verification workers need not load the protocol.
    expect(WALKER_GENESIS_HASH).toBe(GENESIS_HASH)
  })

  it('accepts an empty chain with the genesis hash as head', async () => {
    expect(await verifyEvents([])).toEqual({ ok: true, count: 0, headHash: GENESIS_HASH })
  })

  it('accepts an intact chain from an array or an async stream', async () => {
    const links = chain(50)
    const expected = { ok: true, count: 50, headHash: links[49]?.hash }
    expect(await verifyEvents(links, { session: 's' })).toEqual(expected)
    async function* stream(): AsyncIterable<StoredEvent> {
      yield* links
    }
    expect(await verifyEvents(stream(), { session: 's', deep: true })).toEqual(expected)
  })

  it('is not fooled by data that contains seq, prevHash and session keys', async () => {
    // draft() puts decoys for all three into data; the real top-level fields are found anyway.
    expect(await verifyEvents(chain(3), { session: 's' })).toMatchObject({ ok: true })
  })

  it('names a body that is re-hashed but is not JSON as unparseable', async () => {
    const links = chain(3)
    links[2] = forge(links[2] as StoredEvent, 'not json at all')
    for (const deep of [false, true]) {
      expect(await verifyEvents(links, { deep })).toMatchObject({
        ok: false,
        count: 2,
        firstBroken: { seq: 2, reason: 'unparseable' },
      })
    }
  })

  it('names a re-hashed body whose seq or prevHash disagree with its row', async () => {
    const links = chain(3)
    const original = links[2] as StoredEvent
    links[2] = forge(original, original.body.replace('"seq":2,', '"seq":5,'))
    expect(await verifyEvents(links)).toMatchObject({ ok: false, firstBroken: { seq: 2, reason: 'unparseable' } })
    links[2] = forge(original, original.body.replace(original.prevHash, 'c'.repeat(64)))
    expect(await verifyEvents(links)).toMatchObject({ ok: false, firstBroken: { seq: 2, reason: 'unparseable' } })
  })

  it('names a chain copied under another session name', async () => {
    const links = chain(2, 'original')
    expect(await verifyEvents(links, { session: 'original' })).toMatchObject({ ok: true })
    expect(await verifyEvents(links, { session: 'copy' })).toMatchObject({
      ok: false,
      firstBroken: { seq: 0, reason: 'unparseable' },
    })
    expect(await verifyEvents(links, { session: 'copy', deep: true })).toMatchObject({
      ok: false,
      firstBroken: { seq: 0, reason: 'unparseable' },
    })
  })

  it('in deep mode, names a re-hashed body that parses but is not canonical', async () => {
    const links = chain(2)
    const original = links[1] as StoredEvent
    links[1] = forge(original, original.body.replace('{"action"', '{ "action"'))
    expect(await verifyEvents(links)).toMatchObject({ ok: true })
    expect(await verifyEvents(links, { deep: true })).toMatchObject({
      ok: false,
      firstBroken: { seq: 1, reason: 'unparseable', expected: 'a body in canonical form' },
    })
  })

  it('says what it expected and what it found', async () => {
    const links = chain(4)
    links.splice(2, 1)
    expect(await verifyEvents(links)).toEqual({
      ok: false,
      count: 2,
      firstBroken: { seq: 2, reason: 'seq_gap', expected: '2', found: '3' },
    })
  })
})
