import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  GENESIS_HASH,
  TraceEventDraft,
  TraceEventType,
  canonicalJson,
  sha256Hex,
  type JsonValue,
  type TraceEventDraft as Draft,
} from '@tessera/protocol'
import { chainEvent, verifyEvents, type BrokenLinkReason, type StoredEvent } from './hash-chain.js'
import { openMemoryStore } from './memory-store.js'
import { verifyStore } from './verify.js'

/*
 * What tampering with one stored link must do, precisely. Links are checked from seq 0 and a
 * link k is judged by its own fields and the hash of link k-1, so a change to any one field of
 * link k is reported AT k (never at k+1), with count === k (everything before it is intact):
 *
 *   body (any character or byte)  → hash_mismatch       sha256(prevHash ‖ body) ≠ hash
 *   hash                          → hash_mismatch       (link k+1's prevHash no longer matches
 *                                                        either, but k comes first)
 *   prevHash                      → prev_hash_mismatch  ≠ hash of link k-1 (GENESIS for k = 0)
 *   seq                           → seq_gap             ≠ k
 *   link k removed (k not last)   → seq_gap at k        found k+1
 *   links k and k+1 swapped       → seq_gap at k
 *
 * Removing the last link leaves a shorter chain that is intact by itself; verifyStore catches
 * it against the head the store recorded (tested in tamper.test.ts).
 */

const text = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: 'binary', maxLength })

const time = fc
  .tuple(
    fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
    fc.constantFrom('Z', '+02:00', '-05:30', '+00:00'),
  )
  .map(([date, zone]) => date.toISOString().replace('Z', zone))

const draftFor = (sessions: fc.Arbitrary<string>): fc.Arbitrary<Draft> =>
  fc.record({
    session: sessions,
    time,
    type: fc.constantFrom(...TraceEventType.options),
    actor: text(128),
    surface: fc.option(text(128), { nil: null }),
    action: fc.option(text(128), { nil: null }),
    frameId: fc.option(text(40), { nil: null }),
    requestId: fc.option(text(128), { nil: null }),
    // fast-check types object members as possibly undefined; the values it generates never are.
    data: fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>,
  })

const oneSessionDrafts = fc.array(draftFor(fc.constant('s')), { minLength: 1, maxLength: 25 })

function chainOf(drafts: readonly Draft[]): StoredEvent[] {
  const links: StoredEvent[] = []
  let prevHash = GENESIS_HASH
  drafts.forEach((d, seq) => {
    const { event, body } = chainEvent(d, seq, prevHash)
    links.push({ seq, prevHash, hash: event.hash, body })
    prevHash = event.hash
  })
  return links
}

function replaceCharAt(value: string, index: number, replacement: string): string {
  return value.slice(0, index) + replacement + value.slice(index + 1)
}

/** A different lowercase hex digit at one position, as a one-byte edit of a stored hash would be. */
function otherHexDigit(hash: string, position: number, shift: number): string {
  const at = position % hash.length
  const digit = parseInt(hash[at] as string, 16)
  return replaceCharAt(hash, at, ((digit + 1 + (shift % 15)) % 16).toString(16))
}

async function expectBrokenAt(links: StoredEvent[], seq: number, reason: BrokenLinkReason): Promise<void> {
  const result = await verifyEvents(links)
  expect(result).toMatchObject({ ok: false, count: seq, firstBroken: { seq, reason } })
}

describe('hash chain properties', () => {
  it('drafts that pass the schema chain into bodies identical to canonicalJson', () => {
    fc.assert(
      fc.property(draftFor(fc.string({ unit: 'binary', minLength: 1, maxLength: 20 })), fc.nat(), (d, seq) => {
        expect(TraceEventDraft.safeParse(d).success).toBe(true)
        const prevHash = sha256Hex(String(seq))
        const { event, body } = chainEvent(d, seq, prevHash)
        const { hash, ...unhashed } = event
        expect(body).toBe(canonicalJson({ ...d, seq, prevHash }))
        expect(body).toBe(canonicalJson(unhashed))
        expect(hash).toBe(sha256Hex(prevHash + body))
      }),
      { numRuns: 500 },
    )
  })

  it('any chain of drafts verifies', async () => {
    await fc.assert(
      fc.asyncProperty(oneSessionDrafts, async (drafts) => {
        const links = chainOf(drafts)
        expect(await verifyEvents(links, { session: 's' })).toEqual({ ok: true, count: drafts.length, headHash: links.at(-1)?.hash })
        expect(await verifyEvents(links, { session: 's', deep: true })).toMatchObject({ ok: true })
      }),
      { numRuns: 200 },
    )
  })

  it('one changed character of a body is caught at that seq', async () => {
    await fc.assert(
      fc.asyncProperty(oneSessionDrafts, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 0xffff }), async (drafts, pick, position, code) => {
        const links = chainOf(drafts)
        const k = pick % links.length
        const link = links[k] as StoredEvent
        const at = position % link.body.length
        const original = link.body.charCodeAt(at)
        const replacement = String.fromCharCode(code === original ? (code + 1) % 0x10000 : code)
        links[k] = { ...link, body: replaceCharAt(link.body, at, replacement) }
        await expectBrokenAt(links, k, 'hash_mismatch')
      }),
      { numRuns: 300 },
    )
  })

  it('one flipped bit in the UTF-8 bytes of a body is caught at that seq', async () => {
    await fc.assert(
      fc.asyncProperty(oneSessionDrafts, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 7 }), async (drafts, pick, position, bit) => {
        const links = chainOf(drafts)
        const k = pick % links.length
        const link = links[k] as StoredEvent
        const bytes = Buffer.from(link.body, 'utf8')
        const at = position % bytes.length
        bytes[at] = (bytes[at] as number) ^ (1 << bit)
        const tampered = bytes.toString('utf8')
        // A store holds text: a byte change that decodes to the same text is no change at all.
        fc.pre(tampered !== link.body)
        links[k] = { ...link, body: tampered }
        await expectBrokenAt(links, k, 'hash_mismatch')
      }),
      { numRuns: 300 },
    )
  })

  it('one changed digit of a stored hash or prevHash, or a changed seq, is caught at that seq', async () => {
    await fc.assert(
      fc.asyncProperty(
        oneSessionDrafts,
        fc.nat(),
        fc.constantFrom('hash', 'prevHash', 'seq'),
        fc.nat(),
        fc.nat(),
        async (drafts, pick, field, position, shift) => {
          const links = chainOf(drafts)
          const k = pick % links.length
          const link = links[k] as StoredEvent
          if (field === 'hash') {
            links[k] = { ...link, hash: otherHexDigit(link.hash, position, shift) }
            await expectBrokenAt(links, k, 'hash_mismatch')
          } else if (field === 'prevHash') {
            links[k] = { ...link, prevHash: otherHexDigit(link.prevHash, position, shift) }
            await expectBrokenAt(links, k, 'prev_hash_mismatch')
          } else {
            links[k] = { ...link, seq: k + 1 + (shift % 1000) }
            await expectBrokenAt(links, k, 'seq_gap')
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('a removed or reordered link is caught where the order breaks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(draftFor(fc.constant('s')), { minLength: 2, maxLength: 25 }),
        fc.nat(),
        fc.boolean(),
        async (drafts, pick, swap) => {
          const links = chainOf(drafts)
          const k = pick % (links.length - 1)
          if (swap) {
            ;[links[k], links[k + 1]] = [links[k + 1] as StoredEvent, links[k] as StoredEvent]
          } else {
            links.splice(k, 1)
          }
          const result = await verifyEvents(links)
          expect(result).toMatchObject({ ok: false, count: k, firstBroken: { seq: k, reason: 'seq_gap', expected: String(k), found: String(k + 1) } })
        },
      ),
      { numRuns: 200 },
    )
  })

  it('a store fed random multi-session batches gives back what it appended, and verifies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(draftFor(fc.constantFrom('a', 'b', 'ü-ß')), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        async (batches) => {
          const store = openMemoryStore()
          const appended = []
          for (const batch of batches) appended.push(...(await store.append(batch)))
          for (const session of new Set(appended.map((event) => event.session))) {
            const read = []
            for await (const event of store.read(session)) read.push(event)
            // Compared canonically: -0 in a draft is stored (and read back) as 0, as RFC 8785 writes it.
            expect(canonicalJson(read)).toBe(canonicalJson(appended.filter((event) => event.session === session)))
          }
          for (const result of await verifyStore(store, undefined, { deep: true })) expect(result.ok).toBe(true)
        },
      ),
      { numRuns: 100 },
    )
  })
})
