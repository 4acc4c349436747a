import { createHash } from 'node:crypto'
import pg from 'pg'
import type { Approval, ApprovalStatus, TraceEvent, TraceEventDraft } from '@tessera/protocol'
import { chainBatch, sessionsOf, validateDrafts } from './append-batch.js'
import { approvalFromJson, validApproval } from './approval-records.js'
import { type StoredBlob, checkBlobs } from './blobs.js'
import { packBlob, unpackBlob } from './blob-packing.js'
import { ChainWalker } from './chain-walker.js'
import { deepBodyProblem, eventFromBody, type ChainVerification, type StoredEvent, type VerifyOptions } from './hash-chain.js'
import { closedStoreError, storeError } from './store-errors.js'
import { readWindow, type ApprovalFilter, type ChainHead, type ReadOptions, type SessionSummary, type TraceStore } from './store.js'

interface RawRow {
  seq: string
  prev_hash: string
  hash: string
  body: string
}

/** Seqs per page while streaming: bounded memory, few round trips. */
const PAGE_SIZE = 1000

/*
 * Same shape as the SQLite store. Table names carry a prefix because a PostgreSQL database is
 * often shared with other software. `time` stays text: the body is the truth, and the column
 * only serves queries.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS tessera_events (
  session    text   NOT NULL,
  seq        bigint NOT NULL,
  type       text   NOT NULL,
  request_id text,
  time       text   NOT NULL,
  body       text   NOT NULL,
  prev_hash  text   NOT NULL,
  hash       text   NOT NULL,
  PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS tessera_heads (
  session    text   PRIMARY KEY,
  seq        bigint NOT NULL,
  hash       text   NOT NULL,
  first_time text   NOT NULL,
  last_time  text   NOT NULL
);
CREATE TABLE IF NOT EXISTS tessera_approvals (
  id         text PRIMARY KEY,
  session    text NOT NULL,
  status     text NOT NULL,
  created_at text NOT NULL,
  body       text NOT NULL
);
CREATE INDEX IF NOT EXISTS tessera_approvals_by_status ON tessera_approvals (status);
CREATE INDEX IF NOT EXISTS tessera_approvals_by_session ON tessera_approvals (session);
CREATE TABLE IF NOT EXISTS tessera_blobs (
  hash text PRIMARY KEY,
  text text NOT NULL
);
ALTER TABLE tessera_blobs ADD COLUMN IF NOT EXISTS packed bytea;
ALTER TABLE tessera_blobs ALTER COLUMN text DROP NOT NULL;
`

/** Serializes concurrent first-time schema creation by several hubs. */
const SCHEMA_LOCK_KEY = advisoryLockKey('schema')

export interface PostgresStoreOptions {
  /**
   * Called when an idle pooled connection fails (the server restarted, the network dropped).
   * pg raises these outside any call, so they cannot be thrown; default: written to stderr.
   */
  onBackgroundError?: (error: Error) => void
}

/**
 * The shared store: several hubs may append to one database. Each append is one transaction
 * that first takes a transaction-scoped advisory lock per session it touches, so two hubs
 * appending to one session take turns instead of forking its chain.
 */
export class PostgresTraceStore implements TraceStore {
  readonly kind = 'postgres' as const
  private readonly pool: pg.Pool
  private closed = false

  constructor(pool: pg.Pool) {
    this.pool = pool
  }

  async append(drafts: readonly TraceEventDraft[]): Promise<TraceEvent[]> {
    this.assertOpen()
    const valid = validateDrafts(drafts)
    if (valid.length === 0) return []
    const sessions = sessionsOf(valid)
    // A fixed lock order (by key) keeps two batches that share sessions from deadlocking.
    const lockKeys = [...new Set(sessions.map(advisoryLockKey))].sort(compareBigIntText)
    return this.transaction('append events', async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(key) FROM unnest($1::bigint[]) AS key', [lockKeys])
      const found = await client.query<{ session: string; seq: string; hash: string }>(
        'SELECT session, seq, hash FROM tessera_heads WHERE session = ANY($1::text[])',
        [sessions],
      )
      const stored = new Map(found.rows.map((row) => [row.session, { seq: Number(row.seq), hash: row.hash }]))
      const columns: [string[], number[], string[], Array<string | null>, string[], string[], string[], string[]] = [
        [], [], [], [], [], [], [], [],
      ]
      const { events, heads } = chainBatch(valid, (session) => stored.get(session) ?? null, (event, body) => {
        columns[0].push(event.session)
        columns[1].push(event.seq)
        columns[2].push(event.type)
        columns[3].push(event.requestId)
        columns[4].push(event.time)
        columns[5].push(body)
        columns[6].push(event.prevHash)
        columns[7].push(event.hash)
      })
      await client.query(
        `INSERT INTO tessera_events (session, seq, type, request_id, time, body, prev_hash, hash)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])`,
        columns,
      )
      const updates = [...heads.values()]
      await client.query(
        `INSERT INTO tessera_heads (session, seq, hash, first_time, last_time)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[])
         ON CONFLICT (session) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, last_time = excluded.last_time`,
        [
          updates.map((head) => head.session),
          updates.map((head) => head.seq),
          updates.map((head) => head.hash),
          updates.map((head) => head.firstTime ?? head.lastTime),
          updates.map((head) => head.lastTime),
        ],
      )
      return events
    })
  }

  async *read(session: string, options: ReadOptions = {}): AsyncIterable<TraceEvent> {
    const { fromSeq, limit } = readWindow(options)
    let remaining = limit
    if (remaining === 0) return
    for await (const page of this.pages<{ seq: string; body: string; hash: string }>('read events', 'seq, body, hash', session, fromSeq)) {
      for (const row of page) {
        yield eventFromBody(row.body, row.hash, { session, seq: Number(row.seq) })
        remaining -= 1
        if (remaining === 0) return
      }
    }
  }

  async *readRaw(session: string): AsyncIterable<StoredEvent> {
    for await (const page of this.pages<RawRow>('read raw events', 'seq, prev_hash, hash, body', session, 0)) {
      for (const row of page) yield { seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash, body: row.body }
    }
  }

  /** verifyEvents(readRaw(session)) with an await per page rather than per link. */
  async verifyChain(session: string, options: VerifyOptions = {}): Promise<ChainVerification> {
    const walker = new ChainWalker(options, deepBodyProblem)
    walk: for await (const page of this.pages<RawRow>('verify events', 'seq, prev_hash, hash, body', session, 0)) {
      for (const row of page) if (!walker.acceptLink(Number(row.seq), row.prev_hash, row.hash, row.body)) break walk
    }
    return walker.result()
  }

  /**
   * A session's rows from `fromSeq` on, in seq order, a page at a time. Each query asks for a
   * range of seqs, not "the next N after X": on a young table whose statistics are stale,
   * PostgreSQL answers "next N" by reading and sorting the whole rest of the session, for every
   * page. Chains are dense, so a range of PAGE_SIZE seqs holds at most PAGE_SIZE rows and each
   * query's cost stays bounded whatever the planner believes. A short page means the end of
   * the chain or a gap (a tampered chain); the next row, if any, is looked up directly.
   */
  private async *pages<Row extends { seq: string }>(
    operation: string,
    columns: string,
    session: string,
    fromSeq: number,
  ): AsyncIterable<Row[]> {
    let from = fromSeq
    for (;;) {
      const rows = await this.query<Row>(
        operation,
        `SELECT ${columns} FROM tessera_events WHERE session = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
        [session, from, from + PAGE_SIZE],
      )
      if (rows.length > 0) yield rows
      if (rows.length === PAGE_SIZE) {
        from += PAGE_SIZE
        continue
      }
      const next = await this.query<{ next: string | null }>(
        operation,
        'SELECT min(seq) AS next FROM tessera_events WHERE session = $1 AND seq >= $2',
        [session, from + PAGE_SIZE],
      )
      const nextSeq = next[0]?.next
      if (nextSeq === null || nextSeq === undefined) return
      from = Number(nextSeq)
    }
  }

  async head(session: string): Promise<ChainHead | null> {
    const rows = await this.query<{ seq: string; hash: string }>(
      'read head',
      'SELECT seq, hash FROM tessera_heads WHERE session = $1',
      [session],
    )
    const row = rows[0]
    return row ? { seq: Number(row.seq), hash: row.hash } : null
  }

  async sessions(): Promise<SessionSummary[]> {
    const rows = await this.query<{ session: string; seq: string; hash: string; first_time: string; last_time: string }>(
      'list sessions',
      'SELECT session, seq, hash, first_time, last_time FROM tessera_heads ORDER BY session COLLATE "C"',
      [],
    )
    return rows.map((row) => ({
      session: row.session,
      events: Number(row.seq) + 1,
      firstTime: row.first_time,
      lastTime: row.last_time,
      headHash: row.hash,
    }))
  }

  async putApproval(approval: Approval): Promise<void> {
    const valid = validApproval(approval)
    await this.query(
      'store approval',
      `INSERT INTO tessera_approvals (id, session, status, created_at, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET session = excluded.session, status = excluded.status,
         created_at = excluded.created_at, body = excluded.body`,
      [valid.id, valid.session, valid.status, valid.createdAt, JSON.stringify(valid)],
    )
  }

  async transitionApproval(next: Approval, from: ApprovalStatus): Promise<boolean> {
    const valid = validApproval(next)
    // One statement: PostgreSQL re-checks the WHERE on the row it locks, so of two concurrent
    // updates from 'pending' the second finds the row changed and updates nothing.
    const rows = await this.query<{ id: string }>(
      'update approval',
      'UPDATE tessera_approvals SET status = $2, body = $3 WHERE id = $1 AND status = $4 RETURNING id',
      [valid.id, valid.status, JSON.stringify(valid), from],
    )
    return rows.length === 1
  }

  async putBlobs(blobs: readonly StoredBlob[]): Promise<void> {
    checkBlobs(blobs)
    if (blobs.length === 0) return
    // Each kept as its text or its packed bytes (blob-packing.ts), the other column null. One statement, so the batch is atomic without a transaction of its own.
    const kept = blobs.map((b) => packBlob(b.text))
    await this.query(
      'store blobs',
      'INSERT INTO tessera_blobs (hash, text, packed) SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[]) ON CONFLICT (hash) DO NOTHING',
      [blobs.map((b) => b.hash), kept.map((k) => (typeof k === 'string' ? k : null)), kept.map((k) => (typeof k === 'string' ? null : k))],
    )
  }

  async getBlob(hash: string): Promise<string | null> {
    const rows = await this.query<{ text: string | null; packed: Buffer | null }>('read blob', 'SELECT text, packed FROM tessera_blobs WHERE hash = $1', [hash])
    const row = rows[0]
    if (row === undefined) return null
    return row.packed !== null ? unpackBlob(row.packed) : row.text
  }

  async getApproval(id: string): Promise<Approval | null> {
    const rows = await this.query<{ body: string }>('read approval', 'SELECT body FROM tessera_approvals WHERE id = $1', [id])
    const row = rows[0]
    return row ? approvalFromJson(row.body, id) : null
  }

  async listApprovals(filter: ApprovalFilter = {}): Promise<Approval[]> {
    const rows = await this.query<{ id: string; body: string }>(
      'list approvals',
      `SELECT id, body FROM tessera_approvals
       WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR session = $2)
       ORDER BY created_at COLLATE "C", id COLLATE "C"`,
      [filter.status ?? null, filter.session ?? null],
    )
    return rows.map((row) => approvalFromJson(row.body, row.id))
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    try {
      await this.pool.end()
    } catch (error) {
      throw storeError('postgres', 'close the connection pool', error)
    }
  }

  private assertOpen(): void {
    if (this.closed) throw closedStoreError(this.kind)
  }

  private async query<Row extends pg.QueryResultRow>(operation: string, text: string, values: unknown[]): Promise<Row[]> {
    this.assertOpen()
    try {
      return (await this.pool.query<Row>(text, values)).rows
    } catch (error) {
      throw storeError('postgres', operation, error)
    }
  }

  private async transaction<T>(operation: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient
    try {
      client = await this.pool.connect()
    } catch (error) {
      throw storeError('postgres', `${operation} (connect)`, error)
    }
    let broken: Error | undefined
    try {
      await client.query('BEGIN')
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      try {
        await client.query('ROLLBACK')
      } catch (rollbackError) {
        // The connection itself failed: hand it back broken so the pool discards it.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))
      }
      throw storeError('postgres', operation, error)
    } finally {
      client.release(broken)
    }
  }
}

/**
 * A stable signed 64-bit advisory lock key per session. Derived from SHA-256 rather than
 * PostgreSQL's hashtext so the client can sort keys before locking (see append).
 */
function advisoryLockKey(session: string): string {
  const digest = createHash('sha256').update(`tessera.trace:${session}`).digest('hex')
  return BigInt.asIntN(64, BigInt(`0x${digest.slice(0, 16)}`)).toString()
}

function compareBigIntText(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b)
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}

/**
 * Connects to PostgreSQL and creates the tables if they are missing. The connection string
 * form is postgres://user:password@host:port/database.
 */
export async function openPostgresStore(
  connection: string | pg.PoolConfig,
  options: PostgresStoreOptions = {},
): Promise<PostgresTraceStore> {
  const config: pg.PoolConfig = typeof connection === 'string' ? { connectionString: connection } : connection
  const pool = new pg.Pool(config)
  const report = options.onBackgroundError ?? ((error: Error) => console.error(`tessera trace store (postgres): ${error.message}`))
  pool.on('error', (error) => report(storeError('postgres', 'keep an idle connection', error)))
  try {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SCHEMA_LOCK_KEY])
      await client.query(SCHEMA)
      await client.query('COMMIT')
    } catch (error) {
      // The schema error is the one worth reporting; a failed rollback adds nothing to it.
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  } catch (error) {
    await pool.end().catch(() => undefined)
    throw storeError('postgres', 'open the database and create its tables', error, {
      host: config.host ?? null,
      database: config.database ?? null,
    })
  }
  return new PostgresTraceStore(pool)
}
