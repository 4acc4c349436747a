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
