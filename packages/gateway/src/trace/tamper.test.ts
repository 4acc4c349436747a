import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sha256Hex, type TraceEventDraft } from '@tessera/protocol'
import { postgresAvailable, startPostgres, type RunningPostgres } from '../../test-support/postgres.js'
import { makeTempDir, type TempDir } from '../../test-support/tmp.js'
import { openPostgresStore } from './postgres-store.js'
import { openSqliteStore } from './sqlite-store.js'
import type { BrokenLinkReason } from './hash-chain.js'
import type { TraceStore } from './store.js'
import { verifyStore } from './verify.js'

/*
 * Edits the stored trace behind the store's back, the way someone with access to the file or
 * the database could, and checks that verification names exactly the link that was touched.
 */

const EVENTS = 10

/** Each body carries a marker that appears nowhere else in the database. */
function marker(seq: number): string {
  return `marker-${seq}-qwertyuiop`
}

function drafts(session: string): TraceEventDraft[] {
  return Array.from({ length: EVENTS }, (_, seq) => ({
    session,
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(),
    type: 'completed',
    actor: 'agent:alice',
    surface: 'claims',
    action: 'approve-payout',
    frameId: `f${seq}`,
    requestId: `r${seq}`,
    data: { note: marker(seq), amount: seq * 100 },
  }))
}

/** One character changed, length kept: the smallest edit to a stored value. */
function oneCharChanged(text: string, at: number): string {
  const replacement = text[at] === 'x' ? 'y' : 'x'
  return text.slice(0, at) + replacement + text.slice(at + 1)
}

async function expectBroken(store: TraceStore, session: string, seq: number, reason: BrokenLinkReason): Promise<void> {
  const [result] = await verifyStore(store, session)
  expect(result).toMatchObject({ session, ok: false, count: seq, firstBroken: { seq, reason } })
}

describe('tampering with a SQLite trace', () => {
  let dir: TempDir
  let path: string

  beforeEach(async () => {
    dir = await makeTempDir('tessera-tamper-')
    path = join(dir.path, 'trace.db')
    const store = await openSqliteStore(path)
    await store.append(drafts('s'))
    expect(await verifyStore(store)).toMatchObject([{ ok: true, count: EVENTS }])
    await store.close()
  })

  afterEach(async () => {
    await dir.remove()
  })

  /** Runs raw SQL on the file, as an attacker with the file would. */
  function withRawDb(edit: (db: Database.Database) => void): void {
    const db = new Database(path)
    try {
      edit(db)
    } finally {
      db.close()
    }
  }

  async function verifyFile(seq: number, reason: BrokenLinkReason): Promise<void> {
    const store = await openSqliteStore(path)
    try {
      await expectBroken(store, 's', seq, reason)
    } finally {
      await store.close()
    }
  }

  function body(db: Database.Database, seq: number): string {
    return db.prepare('SELECT body FROM events WHERE session = ? AND seq = ?').pluck().get('s', seq) as string
  }

  it('says a session that does not exist is not_found, not an intact chain of 0 events', async () => {
    const store = await openSqliteStore(path)
    try {
      await expect(verifyStore(store, 'ghost')).rejects.toMatchObject({ code: 'not_found', details: { found: 'ghost' } })
      expect(await verifyStore(store, 's')).toMatchObject([{ ok: true }])
    } finally {
      await store.close()
    }
  })

  it('names the event whose body had one character changed by an UPDATE', async () => {
    withRawDb((db) => {
      const original = body(db, 5)
      const tampered = original.replace(marker(5), oneCharChanged(marker(5), 9))
      expect(Buffer.byteLength(tampered)).toBe(Buffer.byteLength(original))
      db.prepare('UPDATE events SET body = ? WHERE session = ? AND seq = ?').run(tampered, 's', 5)
    })
    await verifyFile(5, 'hash_mismatch')
  })

  it('names the event whose body had one byte changed in the database file on disk', async () => {
    // Closing the last connection checkpoints the WAL, so every body is in the main file.
    expect(existsSync(`${path}-wal`)).toBe(false)
    const original = await readFile(path)
    const needle = Buffer.from(marker(7))
    // SQLite leaves stale copies of moved cells in free space after page splits; only the
    // live copy belongs to the trace, so try each copy and require that the live one is named.
    const outcomes: string[] = []
    for (let at = original.indexOf(needle); at >= 0; at = original.indexOf(needle, at + 1)) {
      const bytes = Buffer.from(original)
      bytes[at + 9] = (bytes[at + 9] as number) ^ 0x01
      await writeFile(path, bytes)
      const store = await openSqliteStore(path)
      try {
        const [result] = await verifyStore(store, 's')
        outcomes.push(result?.ok ? 'ok (stale copy)' : `${result?.firstBroken.seq} ${result?.firstBroken.reason}`)
      } finally {
        await store.close()
      }
    }
    expect(outcomes).toContain('7 hash_mismatch')
    expect(outcomes.filter((outcome) => outcome !== 'ok (stale copy)')).toEqual(['7 hash_mismatch'])
  })

  it('names the event whose stored hash had one character changed', async () => {
    withRawDb((db) => {
      const hash = db.prepare("SELECT hash FROM events WHERE session = 's' AND seq = 3").pluck().get() as string
      db.prepare("UPDATE events SET hash = ? WHERE session = 's' AND seq = 3").run(oneCharChanged(hash, 40))
    })
    await verifyFile(3, 'hash_mismatch')
  })

  it('names the event whose stored prev_hash had one character changed', async () => {
    withRawDb((db) => {
      const prev = db.prepare("SELECT prev_hash FROM events WHERE session = 's' AND seq = 4").pluck().get() as string
      db.prepare("UPDATE events SET prev_hash = ? WHERE session = 's' AND seq = 4").run(oneCharChanged(prev, 0))
    })
    await verifyFile(4, 'prev_hash_mismatch')
  })

  it('names the first event of a chain whose genesis prev_hash was changed', async () => {
    withRawDb((db) => db.prepare("UPDATE events SET prev_hash = ? WHERE session = 's' AND seq = 0").run('1'.repeat(64)))
    await verifyFile(0, 'prev_hash_mismatch')
  })

  it('names a deleted event as a seq gap', async () => {
    withRawDb((db) => db.prepare("DELETE FROM events WHERE session = 's' AND seq = 6").run())
    const store = await openSqliteStore(path)
    try {
      expect(await verifyStore(store, 's')).toEqual([
        { session: 's', ok: false, count: 6, firstBroken: { seq: 6, reason: 'seq_gap', expected: '6', found: '7' } },
      ])
    } finally {
      await store.close()
    }
  })

  it('names a truncated tail against the head the store recorded', async () => {
    withRawDb((db) => db.prepare("DELETE FROM events WHERE session = 's' AND seq >= 8").run())
    await verifyFile(8, 'seq_gap')
  })

  it('names the link after an event whose body and hash were both rewritten', async () => {
    withRawDb((db) => {
      const row = db.prepare("SELECT body, prev_hash FROM events WHERE session = 's' AND seq = 2").get() as { body: string; prev_hash: string }
      const forged = row.body.replace(marker(2), oneCharChanged(marker(2), 9))
      db.prepare("UPDATE events SET body = ?, hash = ? WHERE session = 's' AND seq = 2").run(forged, sha256Hex(row.prev_hash + forged))
    })
    await verifyFile(3, 'prev_hash_mismatch')
  })

  it('names a rewritten last event against the head the store recorded', async () => {
    withRawDb((db) => {
      const row = db.prepare("SELECT body, prev_hash FROM events WHERE session = 's' AND seq = 9").get() as { body: string; prev_hash: string }
      const forged = row.body.replace(marker(9), oneCharChanged(marker(9), 9))
      db.prepare("UPDATE events SET body = ?, hash = ? WHERE session = 's' AND seq = 9").run(forged, sha256Hex(row.prev_hash + forged))
    })
    const store = await openSqliteStore(path)
    try {
      const [result] = await verifyStore(store, 's')
      expect(result).toMatchObject({ ok: false, count: 9, firstBroken: { seq: 9, reason: 'hash_mismatch' } })
    } finally {
      await store.close()
    }
  })

  it('names a forged body that no longer parses as unparseable', async () => {
    withRawDb((db) => {
      const prev = db.prepare("SELECT prev_hash FROM events WHERE session = 's' AND seq = 9").pluck().get() as string
      const forgedHash = sha256Hex(`${prev}{"truncated`)
      db.prepare("UPDATE events SET body = ?, hash = ? WHERE session = 's' AND seq = 9").run('{"truncated', forgedHash)
      db.prepare("UPDATE heads SET hash = ? WHERE session = 's'").run(forgedHash)
    })
    await verifyFile(9, 'unparseable')
  })
})

const postgres = postgresAvailable()

describe('tampering with a PostgreSQL trace', () => {
  if (!postgres.available) {
    it.skip(`skipped: ${postgres.reason}`, () => {})
    return
  }

  let server: RunningPostgres
  let admin: pg.Client
  let store: TraceStore
  let session = ''
  let sessions = 0

  beforeAll(async () => {
    server = await startPostgres()
    admin = new pg.Client({ connectionString: server.connectionString })
    await admin.connect()
    store = await openPostgresStore(server.connectionString)
  })

  afterAll(async () => {
    await store?.close()
    await admin?.end()
    await server?.stop()
  })

  beforeEach(async () => {
    sessions += 1
    session = `tamper-${sessions}`
    await store.append(drafts(session))
  })

  it('names the event whose body had one character changed by an UPDATE', async () => {
    const position = await admin.query<{ at: number }>(
      'SELECT strpos(body, $3) AS at FROM tessera_events WHERE session = $1 AND seq = $2',
      [session, 5, marker(5)],
    )
    const at = (position.rows[0]?.at ?? 0) + 9
    await admin.query(
      "UPDATE tessera_events SET body = overlay(body placing 'x' from $3 for 1) WHERE session = $1 AND seq = $2",
      [session, 5, at],
    )
    await expectBroken(store, session, 5, 'hash_mismatch')
  })

  it('names the event whose stored hash or prev_hash was changed', async () => {
    await admin.query("UPDATE tessera_events SET hash = overlay(hash placing 'g' from 1 for 1) WHERE session = $1 AND seq = 8", [session])
    await expectBroken(store, session, 8, 'hash_mismatch')
    await admin.query("UPDATE tessera_events SET prev_hash = overlay(prev_hash placing 'g' from 64 for 1) WHERE session = $1 AND seq = 2", [session])
    await expectBroken(store, session, 2, 'prev_hash_mismatch')
  })

  it('names a deleted event as a seq gap', async () => {
    await admin.query('DELETE FROM tessera_events WHERE session = $1 AND seq = 4', [session])
    await expectBroken(store, session, 4, 'seq_gap')
  })

  it('reads past a gap wider than a page and names where it starts', async () => {
    const wide = `${session}-wide`
    const many = Array.from({ length: 2500 }, (_, n) => ({ ...drafts(wide)[n % EVENTS], requestId: `r${n}` }) as TraceEventDraft)
    await store.append(many)
    await admin.query('DELETE FROM tessera_events WHERE session = $1 AND seq BETWEEN 500 AND 1700', [wide])
    const seqs: number[] = []
    for await (const link of store.readRaw(wide)) seqs.push(link.seq)
    expect(seqs).toEqual([...Array.from({ length: 500 }, (_, n) => n), ...Array.from({ length: 799 }, (_, n) => 1701 + n)])
    const [result] = await verifyStore(store, wide)
    expect(result).toMatchObject({ ok: false, count: 500, firstBroken: { seq: 500, reason: 'seq_gap', expected: '500', found: '1701' } })
  })
})
