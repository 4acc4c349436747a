import { createHash } from 'node:crypto'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TraceEventDraft } from '@tessera/protocol'
import { makeTempDir, type TempDir } from '../../test-support/tmp.js'
import { ChainWalker, GENESIS_HASH } from './chain-walker.js'
import { deepBodyProblem, verifyEvents } from './hash-chain.js'
import { openSqliteStore } from './sqlite-store.js'
import { RAW_LINKS_SQL, splitRanges, stitchRanges, walkRange, type RangeOutcome } from './sqlite-verify.js'

/*
 * The stitching of ranges, run in process: each range walked on its own, as a worker would,
 * then joined. For every tampering and every way of cutting the chain into ranges, the result
 * must equal one walk from seq 0. (verify-workers.test.ts runs the same with real workers.)
 */

const LINKS = 12

function draft(n: number): TraceEventDraft {
  return {
    session: 's',
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    type: 'completed',
    actor: 'agent:alice',
    surface: null,
    action: null,
    frameId: null,
    requestId: `r${n}`,
    data: { marker: `marker-${n}-` },
  }
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')
type Edit = (db: Database.Database) => void
const bodyOf = (db: Database.Database, seq: number): { body: string; prev_hash: string } =>
  db.prepare("SELECT body, prev_hash FROM events WHERE session = 's' AND seq = ?").get(seq) as { body: string; prev_hash: string }
const editBody = (seq: number): Edit => (db) =>
  db.prepare("UPDATE events SET body = replace(body, 'marker-', 'marker+') WHERE session = 's' AND seq = ?").run(seq)
const editPrev = (seq: number): Edit => (db) =>
  db.prepare("UPDATE events SET prev_hash = '1' || substr(prev_hash, 2) WHERE session = 's' AND seq = ?").run(seq)
const editHash = (seq: number): Edit => (db) =>
  db.prepare("UPDATE events SET hash = 'g' || substr(hash, 2) WHERE session = 's' AND seq = ?").run(seq)
const forge = (seq: number): Edit => (db) => {
  const { body, prev_hash } = bodyOf(db, seq)
  const forged = body.replace('marker-', 'marker+')
  db.prepare("UPDATE events SET body = ?, hash = ? WHERE session = 's' AND seq = ?").run(forged, sha256Hex(prev_hash + forged), seq)
}
const remove = (from: number, to = from): Edit => (db) =>
  db.prepare("DELETE FROM events WHERE session = 's' AND seq BETWEEN ? AND ?").run(from, to)
const moveSeq = (seq: number, to: number): Edit => (db) =>
  db.prepare("UPDATE events SET seq = ? WHERE session = 's' AND seq = ?").run(to, seq)

const cases: Array<[string, Edit]> = [['intact', () => {}]]
for (let seq = 0; seq < LINKS; seq += 1) {
  cases.push([`body at ${seq}`, editBody(seq)], [`prev_hash at ${seq}`, editPrev(seq)], [`hash at ${seq}`, editHash(seq)])
  cases.push([`forged at ${seq}`, forge(seq)], [`deleted ${seq}`, remove(seq)], [`deleted from ${seq}`, remove(seq, LINKS)])
  cases.push([`prev_hash at ${seq} and body at ${(seq + 5) % LINKS}`, (db) => (editPrev(seq)(db), editBody((seq + 5) % LINKS)(db))])
  cases.push([`seq ${seq} moved to ${seq - 0.5}`, moveSeq(seq, seq - 0.5)])
}
cases.push(['seq 11 moved past the end', moveSeq(11, 40)])

describe('verifying a SQLite chain in stitched ranges', () => {
  let dir: TempDir
  let pristine: string

  beforeAll(async () => {
    dir = await makeTempDir('tessera-ranges-')
    pristine = join(dir.path, 'pristine.db')
    const store = await openSqliteStore(pristine)
    await store.append(Array.from({ length: LINKS }, (_, n) => draft(n)))
    await store.close()
  })

  afterAll(async () => {
    await dir?.remove()
  })

  it('splits a chain into consecutive ranges, the last open-ended', () => {
    expect(splitRanges(10, 3)).toEqual([
      { startSeq: 0, limit: 3 },
      { startSeq: 3, limit: 3 },
      { startSeq: 6, limit: null },
    ])
    expect(splitRanges(2, 2)).toEqual([
      { startSeq: 0, limit: 1 },
      { startSeq: 1, limit: null },
    ])
  })

  it('gives the first range, walked while the workers start, a head start of at most a share', () => {
    expect(splitRanges(100_000, 3, 10_000)).toEqual([
      { startSeq: 0, limit: 40_000 },
      { startSeq: 40_000, limit: 30_000 },
      { startSeq: 70_000, limit: null },
    ])
    expect(splitRanges(20_000, 4, 25_000)).toEqual([
      { startSeq: 0, limit: 8_750 },
      { startSeq: 8_750, limit: 3_750 },
      { startSeq: 12_500, limit: 3_750 },
      { startSeq: 16_250, limit: null },
    ])
  })

  it.each(cases)('agrees with one walk from seq 0 however the chain is cut: %s', async (_name, edit) => {
    const path = join(dir.path, 'case.db')
    copyFileSync(pristine, path)
    const db = new Database(path)
    try {
      edit(db)
      const select = db.prepare(RAW_LINKS_SQL).raw(true)
      const store = await openSqliteStore(path)
      const expected = await verifyEvents(store.readRaw('s'), { session: 's' })
      await store.close()
      for (let parts = 2; parts <= LINKS; parts += 1) {
        const ranges = splitRanges(LINKS, parts)
        const outcomes: RangeOutcome[] = ranges.map((range) => {
          const start = { seq: range.startSeq, prevHash: range.startSeq === 0 ? GENESIS_HASH : null }
          return walkRange(select, 's', range, new ChainWalker({ session: 's' }, deepBodyProblem, start))
        })
        expect(stitchRanges(ranges, outcomes), `${parts} ranges`).toEqual(expected)
      }
    } finally {
      db.close()
    }
  })
})
