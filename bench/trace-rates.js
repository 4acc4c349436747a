// Trace append (hash chain, SQLite, batched) and verification rates, against peers measured in
// the same run: the same rows inserted with plain better-sqlite3 (same table, same pragmas,
// no canonical JSON, no validation, no hashing), and a plain read of the rows verify reads.
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { openSqliteStore, verifyStore } from '@tessera/gateway'
import { fmt, now } from './stats.js'

function draft(i) {
  return {
    session: 'bench',
    time: '2026-11-22T10:00:00.000Z',
    type: i % 3 === 0 ? 'requested' : i % 3 === 1 ? 'dispatched' : 'completed',
    actor: 'bench-agent',
    surface: 'claims',
    action: 'approve-payout',
    frameId: 'f'.repeat(64),
    requestId: `req_${Math.floor(i / 3)}`,
    data: { status: 'completed', input: { claimId: `c-${i}`, note: 'benchmark event' }, diff: [{ op: 'replace', path: '/claim/status', value: 'approved' }] },
  }
}

// The store's table and the pragmas it sets on a new file (sqlite-store.ts); the peer uses both.
const EVENTS_TABLE = `CREATE TABLE events (
  session TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, request_id TEXT, time TEXT NOT NULL,
  body TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (session, seq))`
const PAGE_SIZE = 16384
const WAL_AUTOCHECKPOINT_PAGES = (64 * 1024 * 1024) / PAGE_SIZE
/** A stand-in for a hash: the peer's rows are as long as the store's, but nothing is hashed. */
const NOT_A_HASH = 'a'.repeat(64)

// The store checkpoints the WAL on a worker thread (wal-checkpointer.ts); the like-for-like peer
// does the same: PASSIVE checkpoints on its own connection every 4 MiB of rows.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.path)
db.pragma('synchronous = NORMAL')
const state = new Int32Array(workerData.state)
parentPort.on('message', (message) => {
  if (message === 'close') { db.close(); parentPort.close(); return }
  try {
    for (let pass = 0; pass < 4; pass += 1) {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)')
      if (result.busy !== 0 || result.log === result.checkpointed) break
    }
  } finally { Atomics.store(state, 0, 0) }
})`

/** Plain inserts of rows shaped like the store's, in the same batches, one transaction each. */
async function peerAppend(path, drafts, batch, backgroundCheckpoints) {
  const db = new Database(path)
  db.pragma(`page_size = ${PAGE_SIZE}`)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.exec(EVENTS_TABLE)
  let checkpointer = null
  const state = new Int32Array(new SharedArrayBuffer(4))
  if (backgroundCheckpoints) {
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`)
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    checkpointer = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, path, state: state.buffer } })
  }
  const insert = db.prepare('INSERT INTO events (session, seq, type, request_id, time, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  let bytes = 0
  const insertBatch = db.transaction((rows, offset) => {
    for (let k = 0; k < rows.length; k += 1) {
      const row = rows[k]
      const seq = offset + k
      const body = JSON.stringify({ ...row, seq, prevHash: NOT_A_HASH })
      bytes += body.length + 200
      insert.run(row.session, seq, row.type, row.requestId, row.time, body, NOT_A_HASH, NOT_A_HASH)
    }
  }).immediate
  const start = now()
  for (let i = 0; i < drafts.length; i += batch) {
    insertBatch(drafts.slice(i, i + batch), i)
    if (checkpointer !== null && bytes >= 4 * 1024 * 1024 && Atomics.compareExchange(state, 0, 0, 1) === 0) {
      bytes = 0
      checkpointer.postMessage('checkpoint')
    }
  }
  const ms = now() - start
  if (checkpointer !== null) {
    const exited = new Promise((resolve) => checkpointer.once('exit', resolve))
    checkpointer.postMessage('close')
    await exited
  }
  db.close()
  return ms
}

/** A plain read, in one thread and pages of 1000, of the columns verification reads. */
function peerRead(path) {
  const db = new Database(path, { readonly: true })
  const page = db.prepare('SELECT seq, prev_hash, hash, body FROM events WHERE session = ? AND seq > ? ORDER BY seq LIMIT 1000').raw(true)
  let bytes = 0
  const start = now()
  for (let after = -1; ; ) {
    const rows = page.all('bench', after)
    for (const row of rows) bytes += row[3].length
    if (rows.length < 1000) break
    after = rows[rows.length - 1][0]
  }
  const ms = now() - start
  db.close()
  return { ms, bytes }
}

const rate = (events, ms) => events / (ms / 1000)
const perSecond = (value) => Math.round(value).toLocaleString('en-US')

export async function benchTraceRates(total = 200_000, batch = 1_000) {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'))
  try {
    const drafts = Array.from({ length: total }, (_, i) => draft(i))
    const tracePath = join(dir, 'trace.db')
    const store = await openSqliteStore(tracePath)
    let start = now()
    for (let i = 0; i < total; i += batch) await store.append(drafts.slice(i, i + batch))
    const appendMs = now() - start
    start = now()
    const [result] = await verifyStore(store, 'bench')
    const verifyMs = now() - start
    await store.close()
    if (!result?.ok || result.count !== total) throw new Error(`verify failed: ${JSON.stringify(result)}`)

    // The same verification in one thread, as for a session too short to split.
    const oneThread = await openSqliteStore(tracePath, { verifyThreads: 0 })
    start = now()
    const [single] = await verifyStore(oneThread, 'bench')
    const verifyOneThreadMs = now() - start
    await oneThread.close()
    if (!single?.ok || single.count !== total) throw new Error(`verify in one thread failed: ${JSON.stringify(single)}`)

    const peerMs = await peerAppend(join(dir, 'peer.db'), drafts, batch, true)
    const peerInlineMs = await peerAppend(join(dir, 'peer-inline.db'), drafts, batch, false)
    const read = peerRead(tracePath)

    const appendRate = rate(total, appendMs)
    const verifyRate = rate(total, verifyMs)
    const peerRate = rate(total, peerMs)
    const readRate = rate(total, read.ms)
    const threads = Math.min(4, availableParallelism())
    return {
      name: `Trace append and verify, SQLite, ${total.toLocaleString('en-US')} events in batches of ${batch}`,
      budget: 'append ≥ 100,000 events/s; verify ≥ 500,000 events/s',
      ok: appendRate >= 100_000 && verifyRate >= 500_000,
      rows: [
        ['append (events/s)', `${perSecond(appendRate)} (${fmt(appendRate / 100_000, 2)} × budget)`],
        ['peer: plain inserts of same-size rows, same table, pragmas and checkpointing, no hashing (events/s)', perSecond(peerRate)],
        ['peer, with SQLite checkpointing inside the commits instead (events/s)', perSecond(rate(total, peerInlineMs))],
        ['ratio append / peer', fmt(appendRate / peerRate, 2)],
        [`verify, split across up to ${threads} threads (events/s)`, `${perSecond(verifyRate)} (${fmt(verifyRate / 500_000, 2)} × budget)`],
        ['verify in one thread (events/s)', perSecond(rate(total, verifyOneThreadMs))],
        ['peer: plain read of the rows verify reads, one thread (events/s)', perSecond(readRate)],
        ['ratio verify / peer read', fmt(verifyRate / readRate, 2)],
        ['bytes of bodies read by the peer', read.bytes.toLocaleString('en-US')],
      ],
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
