// Trace append (hash chain, SQLite, batched) and verification rates, against the peer:
// the same rows inserted with plain better-sqlite3, no canonical JSON and no hashing.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

export async function benchTraceRates(total = 200_000, batch = 1_000) {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'))
  try {
    const drafts = Array.from({ length: total }, (_, i) => draft(i))
    const store = await openSqliteStore(join(dir, 'trace.db'))
    let start = now()
    for (let i = 0; i < total; i += batch) await store.append(drafts.slice(i, i + batch))
    const appendMs = now() - start
    start = now()
    const [result] = await verifyStore(store, 'bench')
    const verifyMs = now() - start
    await store.close()
    if (!result?.ok || result.count !== total) throw new Error(`verify failed: ${JSON.stringify(result)}`)

    // Peer: the same JSON rows into a table of the same shape, in the same batches.
    const peer = new Database(join(dir, 'peer.db'))
    peer.pragma('journal_mode = WAL')
    peer.pragma('synchronous = NORMAL')
    peer.exec('CREATE TABLE events (session TEXT, seq INTEGER, type TEXT, request_id TEXT, time TEXT, body TEXT, prev_hash TEXT, hash TEXT, PRIMARY KEY (session, seq))')
    const insert = peer.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    const insertBatch = peer.transaction((rows, offset) => {
      rows.forEach((row, k) => insert.run(row.session, offset + k, row.type, row.requestId, row.time, JSON.stringify(row), '', ''))
    })
    start = now()
    for (let i = 0; i < total; i += batch) insertBatch(drafts.slice(i, i + batch), i)
    const peerMs = now() - start
    start = now()
    let bytes = 0
    for (const row of peer.prepare('SELECT body FROM events ORDER BY session, seq').raw(true).iterate()) bytes += row[0].length
    const peerReadMs = now() - start
    peer.close()

    const appendRate = total / (appendMs / 1000)
    const verifyRate = total / (verifyMs / 1000)
    return {
      name: `Trace append and verify, SQLite, ${total.toLocaleString('en-US')} events in batches of ${batch}`,
      budget: 'append ≥ 100,000 events/s; verify ≥ 500,000 events/s',
      ok: appendRate >= 100_000 && verifyRate >= 500_000,
      rows: [
        ['append (events/s)', Math.round(appendRate).toLocaleString('en-US')],
        ['peer: plain inserts, no hashing (events/s)', Math.round(total / (peerMs / 1000)).toLocaleString('en-US')],
        ['ratio append / peer', fmt(appendRate / (total / (peerMs / 1000)), 2)],
        ['verify (events/s)', Math.round(verifyRate).toLocaleString('en-US')],
        ['peer: plain read of the same rows (events/s)', Math.round(total / (peerReadMs / 1000)).toLocaleString('en-US')],
        ['ratio verify / peer read', fmt(verifyRate / (total / (peerReadMs / 1000)), 2)],
        ['bytes read by the peer', bytes.toLocaleString('en-US')],
      ],
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
