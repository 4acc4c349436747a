import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import Database from 'better-sqlite3'
import { TesseraError, sha256Hex } from '@tessera/protocol'
import { postgresAvailable, startPostgres, type RunningPostgres } from '../../test-support/postgres.js'
import { makeTempDir } from '../../test-support/tmp.js'
import { openMemoryStore } from './memory-store.js'
import { openStore } from './open-store.js'
import { openSqliteStore } from './sqlite-store.js'
import { describeTraceStore } from '../../test-support/trace-store-contract.js'

describeTraceStore('memory', {
  persistent: false,
  create: async () => {
    const store = openMemoryStore()
    return { store, dispose: () => store.close() }
  },
})

describeTraceStore('sqlite', {
  persistent: true,
  create: async () => {
    const dir = await makeTempDir('tessera-trace-')
    // A nested path: opening must create the folder, as it does for .tessera/trace.db.
    const path = join(dir.path, 'nested', 'trace.db')
    const store = await openSqliteStore(path)
    const handles = [store]
    return {
      store,
      openAgain: async () => {
        const again = await openSqliteStore(path)
        handles.push(again)
        return again
      },
      dispose: async () => {
        for (const handle of handles) await handle.close()
        await dir.remove()
      },
    }
  },
})

const postgres = postgresAvailable()
if (postgres.available) {
  let server: RunningPostgres
  let admin: pg.Client

  beforeAll(async () => {
    server = await startPostgres()
    admin = new pg.Client({ connectionString: server.connectionString })
    await admin.connect()
  })

  afterAll(async () => {
    await admin?.end()
    await server?.stop()
  })

  describe('a PostgreSQL blob table of the first shape', () => {
    it('gains a column for packed frames, keeps reading the texts it holds, and packs what comes', async () => {
      await admin.query('DROP TABLE IF EXISTS tessera_blobs')
      await admin.query('CREATE TABLE tessera_blobs (hash text PRIMARY KEY, text text NOT NULL)')
      const old = JSON.stringify({ tree: { id: 'root', children: Array.from({ length: 300 }, (_, i) => ({ id: `n${i}`, kind: 'box', role: 'button', name: `Button ${i}` })) } })
      await admin.query('INSERT INTO tessera_blobs (hash, text) VALUES ($1, $2)', [sha256Hex(old), old])
      const store = await openStore(server.connectionString)
      try {
        expect(await store.getBlob(sha256Hex(old))).toBe(old)
        const frame = frameText(400)
        await store.putBlobs([{ hash: sha256Hex(frame), text: frame }, { hash: sha256Hex('small'), text: 'small' }])
        expect(await store.getBlob(sha256Hex(frame))).toBe(frame)
        expect(await store.getBlob(sha256Hex('small'))).toBe('small')
        const kept = await admin.query<{ hash: string; text: string | null; size: number | null }>('SELECT hash, text, octet_length(packed) AS size FROM tessera_blobs')
        const byHash = new Map(kept.rows.map((row) => [row.hash, row]))
        expect(byHash.get(sha256Hex(frame))?.text).toBeNull()
        expect(byHash.get(sha256Hex(frame))?.size).toBeLessThan(frame.length / 4)
        expect(byHash.get(sha256Hex('small'))).toMatchObject({ text: 'small', size: null })
      } finally {
        await store.close()
      }
    })
  })

  describeTraceStore('postgres', {
    persistent: true,
    create: async () => {
      const store = await openStore(server.connectionString)
      await admin.query('TRUNCATE tessera_events, tessera_heads, tessera_approvals')
      const handles = [store]
      return {
        store,
        openAgain: async () => {
          const again = await openStore(server.connectionString)
          handles.push(again)
          return again
        },
        dispose: async () => {
          for (const handle of handles) await handle.close()
        },
      }
    },
  })
} else {
  describe('TraceStore contract: postgres', () => {
    it.skip(`skipped: ${postgres.reason}`, () => {})
  })
}

describe('openStore', () => {
  it('opens memory:, sqlite:PATH and bare paths', async () => {
    const dir = await makeTempDir('tessera-open-')
    try {
      const memory = await openStore('memory:')
      expect(memory.kind).toBe('memory')
      const prefixed = await openStore(`sqlite:${join(dir.path, 'a', 'trace.db')}`)
      const bare = await openStore(join(dir.path, 'b.db'))
      expect([prefixed.kind, bare.kind]).toEqual(['sqlite', 'sqlite'])
      await Promise.all([memory.close(), prefixed.close(), bare.close()])
    } finally {
      await dir.remove()
    }
  })

  it.each(['', 'mysql://localhost/trace', 'sqlite:'])('rejects %j as invalid_request', async (spec) => {
    await expect(openStore(spec)).rejects.toSatisfy(
      (error: unknown) => error instanceof TesseraError && error.code === 'invalid_request',
    )
  })

  it('reports an unreachable PostgreSQL as store_error', async () => {
    // Port 1 on loopback refuses at once; nothing listens there.
    await expect(openStore('postgres://nobody@127.0.0.1:1/none')).rejects.toSatisfy(
      (error: unknown) => error instanceof TesseraError && error.code === 'store_error',
    )
  })
})

/** A frame's JSON as a page of buttons makes it: keys repeated on every node. */
function frameText(nodes: number): string {
  return JSON.stringify({ surface: 'browser-1', tree: { id: 'page', kind: 'box', role: 'document', children: Array.from({ length: nodes }, (_, i) => ({ id: `e${i}`, kind: 'box', role: 'link', name: `Section ${i}: shell expansions` })) } })
}

describe('a SQLite trace keeps big frames packed', () => {
  it('deflates a blob of a few KiB and more, keeps a small one as text, and reads both, and texts an earlier build wrote, as they were', async () => {
    const dir = await makeTempDir('tessera-packed-')
    const path = join(dir.path, 'trace.db')
    try {
      const store = await openSqliteStore(path)
      const frame = frameText(400)
      await store.putBlobs([{ hash: sha256Hex(frame), text: frame }, { hash: sha256Hex('small'), text: 'small' }])
      await store.close()
      const raw = new Database(path)
      const rows = raw.prepare('SELECT hash, typeof(text) AS kind, length(text) AS size FROM blobs').all() as Array<{ hash: string; kind: string; size: number }>
      const byHash = new Map(rows.map((row) => [row.hash, row]))
      expect(byHash.get(sha256Hex(frame))?.kind).toBe('blob')
      expect(byHash.get(sha256Hex(frame))?.size).toBeLessThan(frame.length / 4)
      expect(byHash.get(sha256Hex('small'))?.kind).toBe('text')
      // As an earlier build kept a frame: its text.
      const older = frameText(300)
      raw.prepare('INSERT INTO blobs (hash, text) VALUES (?, ?)').run(sha256Hex(older), older)
      expect(raw.pragma('user_version', { simple: true })).toBe(2)
      raw.close()
      const reopened = await openSqliteStore(path)
      expect(await reopened.getBlob(sha256Hex(frame))).toBe(frame)
      expect(await reopened.getBlob(sha256Hex('small'))).toBe('small')
      expect(await reopened.getBlob(sha256Hex(older))).toBe(older)
      await reopened.close()
    } finally {
      await dir.remove()
    }
  })
})

describe('a SQLite trace written before frames were stored apart', () => {
  it('opens, keeps its events and gains the blob table', async () => {
    const dir = await makeTempDir('tessera-old-trace-')
    const path = join(dir.path, 'trace.db')
    try {
      const first = await openSqliteStore(path)
      const events = await first.append([{ session: 'old', time: '2026-01-01T00:00:00.000Z', type: 'session_started', actor: 'hub', surface: null, action: null, frameId: null, requestId: null, data: {} }])
      await first.close()
      // The shape of a file from before: no blobs table.
      const raw = new Database(path)
      raw.exec('DROP TABLE blobs')
      raw.close()
      const reopened = await openSqliteStore(path)
      expect(await reopened.head('old')).toEqual({ seq: 0, hash: events[0]?.hash })
      await reopened.putBlobs([{ hash: sha256Hex('frame'), text: 'frame' }])
      expect(await reopened.getBlob(sha256Hex('frame'))).toBe('frame')
      await reopened.close()
    } finally {
      await dir.remove()
    }
  })
})
