import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Database from 'better-sqlite3'
import type { Approval, ApprovalStatus, TraceEvent, TraceEventDraft } from '@tessera/protocol'
import { assertDraftArray, chainDrafts } from './append-batch.js'
import { approvalFromJson, validApproval } from './approval-records.js'
import { type StoredBlob, checkBlobs } from './blobs.js'
import { packBlob, unpackBlob } from './blob-packing.js'
import { deepBodyProblem, eventFromBody, type ChainVerification, type StoredEvent, type VerifyOptions } from './hash-chain.js'
import { DEFAULT_VERIFY_PLAN, RAW_LINKS_SQL, verifySqliteChain, type VerifyPlan } from './sqlite-verify.js'
import { closedStoreError, storeError } from './store-errors.js'
import { FALLBACK_WAL_BYTES, WalCheckpointer } from './wal-checkpointer.js'
import { readWindow, type ApprovalFilter, type ChainHead, type ReadOptions, type SessionSummary, type TraceStore } from './store.js'

export const DEFAULT_SQLITE_PATH = '.tessera/trace.db'

/** Rows fetched per query while streaming: bounded memory, few enough queries to stay fast. */
const PAGE_SIZE = 1000
/**
 * Database page size for new files. Events are rows of about a kilobyte, written and read in
 * seq order; with SQLite's default 4 KiB pages a batched append writes a third more page
 * headers, b-tree splits and WAL frames than with 16 KiB pages, for no gain in a trace.
 */
const PAGE_BYTES = 16384
/** 2: a blob's `text` column may hold its deflated bytes (blob-packing.ts); a build that knows only 1 would read them as text. */
const SCHEMA_VERSION = 2

/*
 * `events` keeps the canonical body — the exact text hashed — as the source of truth; type,
 * request_id and time are copies for queries and are never read back into an event. `heads`
 * is updated in the same transaction as the events, so head() and sessions() never scan.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  session    TEXT    NOT NULL,
  seq        INTEGER NOT NULL,
  type       TEXT    NOT NULL,
  request_id TEXT,
  time       TEXT    NOT NULL,
  body       TEXT    NOT NULL,
  prev_hash  TEXT    NOT NULL,
  hash       TEXT    NOT NULL,
  PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS heads (
  session    TEXT    PRIMARY KEY,
  seq        INTEGER NOT NULL,
  hash       TEXT    NOT NULL,
  first_time TEXT    NOT NULL,
  last_time  TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS approvals (
  id         TEXT PRIMARY KEY,
  session    TEXT NOT NULL,
  status     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS approvals_by_status ON approvals (status, created_at, id);
CREATE INDEX IF NOT EXISTS approvals_by_session ON approvals (session, created_at, id);
CREATE TABLE IF NOT EXISTS blobs (
  hash TEXT PRIMARY KEY,
  text TEXT NOT NULL
) WITHOUT ROWID;
`

export interface SqliteStoreOptions {
  /**
   * 'normal' (default): in WAL mode a commit is atomic and survives the process being killed
   * at any instant; only a power cut can lose the last commits, never tear one. 'full' also
   * survives power loss at the cost of an fsync per append batch — too slow for a per-action
   * append on the gateway's hot path, so it is opt-in.
   */
  synchronous?: 'normal' | 'full'
  /** How long a writer waits for another process's transaction (ms, default 5000). */
  busyTimeoutMs?: number
  /**
   * 'background' (default): WAL checkpoints run on a worker thread, so an append never waits
   * for one (see wal-checkpointer.ts). 'inline': SQLite's own, inside the commit that crosses
   * its threshold.
   */
  checkpoints?: 'background' | 'inline'
  /**
   * Threads that verify a long session side by side, this one included: it walks the first
   * range of seqs while worker threads, each on its own read-only connection, walk the rest
   * (default: the machine's parallelism, at most 4; 0 or 1 walks the chain here alone).
   */
  verifyThreads?: number
  /** Sessions with fewer links than this are verified in process (default 20,000). */
  verifyThreadsFrom?: number
}

type Row = Record<string, unknown>

/** The embedded default store: one SQLite file in WAL mode, one transaction per append batch. */
export class SqliteTraceStore implements TraceStore {
  readonly kind = 'sqlite' as const
  readonly path: string
  private readonly db: Database.Database
  private readonly statements: ReturnType<typeof prepareStatements>
  private readonly appendInTransaction: (drafts: readonly unknown[]) => TraceEvent[]
  private readonly rows: EventRows
  private readonly checkpointer: WalCheckpointer | null
  /** The file for other connections (verification workers); null for an in-memory database. */
  private readonly file: string | null
  private readonly verifyPlan: VerifyPlan

  constructor(path: string = DEFAULT_SQLITE_PATH, options: SqliteStoreOptions = {}) {
    this.path = path
    const synchronous = options.synchronous === 'full' ? 'FULL' : 'NORMAL'
    const inMemory = path === ':memory:' || path === ''
    this.file = inMemory ? null : resolve(path)
    this.verifyPlan = {
      ...DEFAULT_VERIFY_PLAN,
      threads: options.verifyThreads ?? DEFAULT_VERIFY_PLAN.threads,
      minLinks: options.verifyThreadsFrom ?? DEFAULT_VERIFY_PLAN.minLinks,
    }
    try {
      this.db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 })
    } catch (error) {
      throw storeError('sqlite', `open ${path}`, error, { path })
    }
    try {
      // Only takes effect on a new, empty file: a page size is fixed once a table exists.
      this.db.pragma(`page_size = ${PAGE_BYTES}`)
      this.db.pragma('journal_mode = WAL')
      this.db.pragma(`synchronous = ${synchronous}`)
      migrate(this.db, path)
      const pageSize = this.db.pragma('page_size', { simple: true }) as number
      this.checkpointer = options.checkpoints === 'inline' || inMemory ? null : new WalCheckpointer(this.file as string, synchronous)
      if (this.checkpointer !== null) {
        this.db.pragma(`wal_autocheckpoint = ${Math.max(1000, Math.ceil(FALLBACK_WAL_BYTES / pageSize))}`)
      }
      this.statements = prepareStatements(this.db)
    } catch (error) {
      this.db.close()
      throw storeError('sqlite', `prepare ${path}`, error, { path })
    }
    const { selectHead, upsertHead } = this.statements
    const headOf = (session: string): ChainHead | null => (selectHead.get(session) as ChainHead | undefined) ?? null
    const rows = new EventRows(this.db)
    this.rows = rows
    // IMMEDIATE takes the write lock before the heads are read, so two processes appending to
    // one file cannot both continue from the same head.
    this.appendInTransaction = this.db.transaction((drafts: readonly unknown[]) => {
      try {
        const { events, heads } = chainDrafts(drafts, headOf, rows.write)
        rows.flush()
        for (const head of heads.values()) {
          upsertHead.run(head.session, head.seq, head.hash, head.firstTime ?? head.lastTime, head.lastTime)
        }
        return events
      } finally {
        rows.clear()
      }
    }).immediate
  }

  async append(drafts: readonly TraceEventDraft[]): Promise<TraceEvent[]> {
    this.assertOpen()
    assertDraftArray(drafts)
    if (drafts.length === 0) return []
    try {
      // Drafts are validated inside the transaction as they are written; an invalid one
      // throws and the transaction rolls back, so nothing of the batch is stored.
      const events = this.appendInTransaction(drafts)
      this.checkpointer?.noteAppended(this.rows.takeBytesWritten())
      return events
    } catch (error) {
      throw storeError('sqlite', 'append events', error, { path: this.path, events: drafts.length })
    }
  }

  async *read(session: string, options: ReadOptions = {}): AsyncIterable<TraceEvent> {
    const range = readWindow(options)
    let nextSeq = range.fromSeq
    let remaining = range.limit
    while (remaining > 0) {
      const page = this.query('read events', () =>
        this.statements.selectEvents.all(session, nextSeq, Math.min(PAGE_SIZE, remaining)),
      ) as Array<[number, string, string]>
      for (const [seq, body, hash] of page) yield eventFromBody(body, hash, { session, seq })
      const last = page.at(-1)
      if (last === undefined || page.length < PAGE_SIZE) return
      nextSeq = last[0] + 1
      remaining -= page.length
    }
  }

  async *readRaw(session: string): AsyncIterable<StoredEvent> {
    // Keyset on the last seq seen (not the next expected one), so a missing row shows as a gap.
    let afterSeq = -1
    for (;;) {
      const page = this.query('read raw events', () =>
        this.statements.selectRaw.all(session, afterSeq, PAGE_SIZE),
      ) as Array<[number, string, string, string]>
      for (const [seq, prevHash, hash, body] of page) yield { seq, prevHash, hash, body }
      const last = page.at(-1)
      if (last === undefined || page.length < PAGE_SIZE) return
      afterSeq = last[0]
    }
  }

  /**
   * verifyEvents(readRaw(session)) without a promise per link: rows are walked as they are
   * read, and a long session is split across worker threads (sqlite-verify.ts).
   */
  async verifyChain(session: string, options: VerifyOptions = {}): Promise<ChainVerification> {
    this.assertOpen()
    try {
      const head = this.statements.selectHead.get(session) as ChainHead | undefined
      const source = { select: this.statements.selectRaw, file: this.file, recorded: head === undefined ? 0 : head.seq + 1 }
      const { verification } = await verifySqliteChain(source, session, options, deepBodyProblem, this.verifyPlan)
      return verification
    } catch (error) {
      throw storeError('sqlite', 'verify events', error, { path: this.path, session })
    }
  }

  async head(session: string): Promise<ChainHead | null> {
    const row = this.query('read head', () => this.statements.selectHead.get(session)) as ChainHead | undefined
    return row ?? null
  }

  async sessions(): Promise<SessionSummary[]> {
    const rows = this.query('list sessions', () => this.statements.selectSessions.all()) as Row[]
    return rows.map((row) => ({
      session: row.session as string,
      events: (row.seq as number) + 1,
      firstTime: row.first_time as string,
      lastTime: row.last_time as string,
      headHash: row.hash as string,
    }))
  }

  async putApproval(approval: Approval): Promise<void> {
    const valid = validApproval(approval)
    this.query('store approval', () =>
      this.statements.upsertApproval.run(valid.id, valid.session, valid.status, valid.createdAt, JSON.stringify(valid)),
    )
  }

  async transitionApproval(next: Approval, from: ApprovalStatus): Promise<boolean> {
    const valid = validApproval(next)
    const changed = this.query('update approval', () => this.statements.transitionApproval.run(valid.status, JSON.stringify(valid), valid.id, from))
    return changed.changes === 1
  }

  async putBlobs(blobs: readonly StoredBlob[]): Promise<void> {
    checkBlobs(blobs)
    if (blobs.length === 0) return
    const insert = this.statements.insertBlob
    this.query('store blobs', () => this.db.transaction(() => {
      for (const blob of blobs) insert.run(blob.hash, packBlob(blob.text))
    })())
  }

  async getBlob(hash: string): Promise<string | null> {
    const kept = this.query('read blob', () => this.statements.selectBlob.get(hash)) as string | Buffer | undefined
    return kept === undefined ? null : unpackBlob(kept)
  }

  async getApproval(id: string): Promise<Approval | null> {
    const text = this.query('read approval', () => this.statements.selectApproval.get(id)) as string | undefined
    return text === undefined ? null : approvalFromJson(text, id)
  }

  async listApprovals(filter: ApprovalFilter = {}): Promise<Approval[]> {
    const rows = this.query('list approvals', () =>
      this.statements.selectApprovals.all({ status: filter.status ?? null, session: filter.session ?? null }),
    ) as Array<[string, string]>
    return rows.map(([id, body]) => approvalFromJson(body, id))
  }

  async close(): Promise<void> {
    // The checkpointer's connection closes first, so closing the last one checkpoints the WAL
    // and removes it, as SQLite does.
    await this.checkpointer?.close()
    if (this.db.open) this.db.close()
  }

  private assertOpen(): void {
    if (!this.db.open) throw closedStoreError(this.kind)
  }

  private query<T>(operation: string, run: () => T): T {
    this.assertOpen()
    try {
      return run()
    } catch (error) {
      throw storeError('sqlite', operation, error, { path: this.path })
    }
  }
}

const EVENT_COLUMNS = '(session, seq, type, request_id, time, body, prev_hash, hash)'
const EVENT_PLACEHOLDERS = '(?, ?, ?, ?, ?, ?, ?, ?)'
/** A power of two; 64 rows × 8 columns stays far below SQLite's limit on bound parameters. */
const ROWS_PER_INSERT = 64

/**
 * Inserts events in groups of up to ROWS_PER_INSERT rows per statement: a tenth or so less
 * time per batch than a statement per row, mostly fewer calls across the native boundary.
 * Rows are written as they are chained, so a batch's bodies never all exist at once.
 */
class EventRows {
  /** INSERT statements by row count: ROWS_PER_INSERT and each smaller power of two, for the rest. */
  private readonly inserts = new Map<number, Database.Statement>()
  /** One parameter array, refilled for every group: SQLite copies what it binds. */
  private readonly values = new Array<unknown>(ROWS_PER_INSERT * 8)
  private filled = 0
  /** Bytes of the rows inserted since takeBytesWritten() last ran, roughly. */
  private bytesWritten = 0

  constructor(db: Database.Database) {
    for (let count = ROWS_PER_INSERT; count >= 1; count /= 2) {
      this.inserts.set(count, db.prepare(`INSERT INTO events ${EVENT_COLUMNS} VALUES ${new Array(count).fill(EVENT_PLACEHOLDERS).join(', ')}`))
    }
  }

  readonly write = (event: TraceEvent, body: string): void => {
    const values = this.values
    const at = this.filled * 8
    values[at] = event.session
    values[at + 1] = event.seq
    values[at + 2] = event.type
    values[at + 3] = event.requestId
    values[at + 4] = event.time
    values[at + 5] = body
    values[at + 6] = event.prevHash
    values[at + 7] = event.hash
    this.bytesWritten += body.length + ROW_BYTES_BESIDES_BODY
    this.filled += 1
    if (this.filled === ROWS_PER_INSERT) {
      ;(this.inserts.get(ROWS_PER_INSERT) as Database.Statement).run(values)
      this.filled = 0
    }
  }

  /** Inserts the rows written since the last full group. */
  flush(): void {
    let from = 0
    while (from < this.filled) {
      let count = ROWS_PER_INSERT
      while (count > this.filled - from) count /= 2
      ;(this.inserts.get(count) as Database.Statement).run(this.values.slice(from * 8, (from + count) * 8))
      from += count
    }
    this.filled = 0
  }

  /** Drops what was written but not inserted (the batch failed) and every reference to it. */
  clear(): void {
    this.filled = 0
    this.values.fill(undefined)
  }

  takeBytesWritten(): number {
    const bytes = this.bytesWritten
    this.bytesWritten = 0
    return bytes
  }
}

/** Two hashes, the copied columns and the index entry, about. */
const ROW_BYTES_BESIDES_BODY = 200

function migrate(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number
  if (version > SCHEMA_VERSION) {
    throw storeError('sqlite', `use ${path}`, new Error(`the file's trace schema is version ${version}; this build knows up to ${SCHEMA_VERSION}`))
  }
  db.exec(SCHEMA)
  db.pragma(`user_version = ${SCHEMA_VERSION}`)
}

function prepareStatements(db: Database.Database) {
  return {
    selectHead: db.prepare('SELECT seq, hash FROM heads WHERE session = ?'),
    insertBlob: db.prepare('INSERT OR IGNORE INTO blobs (hash, text) VALUES (?, ?)'),
    selectBlob: db.prepare('SELECT text FROM blobs WHERE hash = ?').pluck(true),
    upsertHead: db.prepare(
      `INSERT INTO heads (session, seq, hash, first_time, last_time) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (session) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, last_time = excluded.last_time`,
    ),
    selectEvents: db
      .prepare('SELECT seq, body, hash FROM events WHERE session = ? AND seq >= ? ORDER BY seq LIMIT ?')
      .raw(true),
    selectRaw: db.prepare(RAW_LINKS_SQL).raw(true),
    selectSessions: db.prepare('SELECT session, seq, hash, first_time, last_time FROM heads ORDER BY session'),
    upsertApproval: db.prepare(
      `INSERT INTO approvals (id, session, status, created_at, body) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET session = excluded.session, status = excluded.status,
         created_at = excluded.created_at, body = excluded.body`,
    ),
    transitionApproval: db.prepare('UPDATE approvals SET status = ?, body = ? WHERE id = ? AND status = ?'),
    selectApproval: db.prepare('SELECT body FROM approvals WHERE id = ?').pluck(true),
    selectApprovals: db
      .prepare(
        `SELECT id, body FROM approvals
         WHERE (@status IS NULL OR status = @status) AND (@session IS NULL OR session = @session)
         ORDER BY created_at, id`,
      )
      .raw(true),
  }
}

/** Opens (creating the folder and tables if missing) the SQLite trace at `path`. */
export async function openSqliteStore(
  path: string = DEFAULT_SQLITE_PATH,
  options: SqliteStoreOptions = {},
): Promise<SqliteTraceStore> {
  if (path !== ':memory:' && path !== '') {
    try {
      mkdirSync(dirname(path), { recursive: true })
    } catch (error) {
      throw storeError('sqlite', `create the folder of ${path}`, error, { path })
    }
  }
  return new SqliteTraceStore(path, options)
}
