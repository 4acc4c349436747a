// Verifies tampered SQLite traces with the BUILT store, once split across threads (this one
// and two workers) and once as one walk, and prints the results per case as JSON;
// verify-workers.test.ts holds them equal and checks the named links. Plain JavaScript on
// purpose: worker threads load dist/trace/verify-worker.js, which exists only in a build
// (node cannot load TypeScript).
//
// usage: node verify-workers-child.mjs <gateway dist folder> <scratch folder>
import { createHash } from 'node:crypto'
import { copyFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'

const [dist, scratch] = process.argv.slice(2)
if (!dist || !scratch) {
  process.stderr.write('usage: node verify-workers-child.mjs <gateway dist> <scratch folder>\n')
  process.exit(2)
}
const load = (file) => import(pathToFileURL(join(dist, 'trace', file)).href)
const { openSqliteStore } = await load('sqlite-store.js')
const { verifyEvents, deepBodyProblem } = await load('hash-chain.js')
const { verifySqliteChain, RAW_LINKS_SQL } = await load('sqlite-verify.js')
const sha256Hex = (text) => createHash('sha256').update(text).digest('hex')

/** Three threads over 3,000 links: ranges start at seqs 0, 1000 and 2000. */
const LINKS = 3000
const THREADS = 3
const PLAN = { threads: THREADS, minLinks: 1, headStart: 0 }

function draft(session, n) {
  return {
    session,
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, 0, n)).toISOString(),
    type: 'completed',
    actor: 'agent:alice',
    surface: 'claims',
    action: 'approve-payout',
    frameId: `f${n}`,
    requestId: `r${n}`,
    data: { note: `marker-${n}-qwertyuiop`, amount: n * 100, nested: { n, text: 'ünïcödé 🧩' } },
  }
}

const pristine = join(scratch, 'pristine.db')
{
  const store = await openSqliteStore(pristine)
  for (let n = 0; n < LINKS; n += 500) {
    await store.append(Array.from({ length: 500 }, (_, k) => draft('s', n + k)))
    await store.append([draft('other', n)])
  }
  await store.close()
}

const changeChar = (text, at) => text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1)
const row = (db, seq) => db.prepare("SELECT body, prev_hash, hash FROM events WHERE session = 's' AND seq = ?").get(seq)
const setBody = (db, seq, body) => db.prepare("UPDATE events SET body = ? WHERE session = 's' AND seq = ?").run(body, seq)
const editBody = (seq) => (db) => setBody(db, seq, row(db, seq).body.replace(`marker-${seq}-`, `marker-${seq}+`))
const editPrev = (seq) => (db) =>
  db.prepare("UPDATE events SET prev_hash = ? WHERE session = 's' AND seq = ?").run(changeChar(row(db, seq).prev_hash, 10), seq)
const editHash = (seq) => (db) =>
  db.prepare("UPDATE events SET hash = ? WHERE session = 's' AND seq = ?").run(changeChar(row(db, seq).hash, 10), seq)
/** Rewrites a body and its hash consistently, as someone who knows the scheme could. */
const forge = (seq, edit = (body) => body.replace(`marker-${seq}-`, `marker-${seq}+`)) => (db) => {
  const { body, prev_hash } = row(db, seq)
  const forged = edit(body)
  db.prepare("UPDATE events SET body = ?, hash = ? WHERE session = 's' AND seq = ?").run(forged, sha256Hex(prev_hash + forged), seq)
}
const remove = (from, to = from) => (db) => db.prepare("DELETE FROM events WHERE session = 's' AND seq BETWEEN ? AND ?").run(from, to)
const moveSeq = (seq, to) => (db) => db.prepare("UPDATE events SET seq = ? WHERE session = 's' AND seq = ?").run(to, seq)
const all = (...edits) => (db) => edits.forEach((edit) => edit(db))

const cases = {
  intact: () => {},
  'body at 0': editBody(0),
  'body at 999, the last of range 0': editBody(999),
  'body at 1000, the first of range 1': editBody(1000),
  'body at 2999, the last link': editBody(2999),
  'prev_hash at 1000': editPrev(1000),
  'prev_hash at 2000': editPrev(2000),
  'prev_hash and body at 1000': all(editPrev(1000), editBody(1000)),
  'hash at 999': editHash(999),
  'hash at 1999 and body at 2500': all(editHash(1999), editBody(2500)),
  'body and hash forged at 999': forge(999),
  'body and hash forged at 1999': forge(1999),
  'forged body at 1000 that names another seq': forge(1000, (body) => body.replace('"seq":1000,', '"seq":1001,')),
  'deleted 1000': remove(1000),
  'deleted 1000 to 1999, all of range 1': remove(1000, 1999),
  'deleted 1000 to 2999, the tail from range 1 on': remove(1000, 2999),
  'deleted 1500 to 2999, a tail inside range 1': remove(1500, 2999),
  'deleted 2000 to 2999, all of the last range': remove(2000, 2999),
  'deleted 500, body at 2500': all(remove(500), editBody(2500)),
  'seq 1000 moved to 999.5': moveSeq(1000, 999.5),
  'seq 1999 moved to 999.5': moveSeq(1999, 999.5),
  'seq 2999 moved past the end': moveSeq(2999, 5000),
  'a link appended past the recorded head': (db) =>
    db.prepare("INSERT INTO events SELECT session, 3000, type, request_id, time, body, prev_hash, hash FROM events WHERE session = 's' AND seq = 2999").run(),
  'a link copied from another session': (db) => {
    const other = db.prepare("SELECT body, prev_hash, hash FROM events WHERE session = 'other' AND seq = 0").get()
    db.prepare("UPDATE events SET body = ?, prev_hash = ?, hash = ? WHERE session = 's' AND seq = 0").run(other.body, other.prev_hash, other.hash)
  },
}

/** Deep verification loads the protocol package in every worker: a few cases suffice. */
const deepCases = new Set(['intact', 'forged body at 1000 that names another seq', 'a link copied from another session'])

const results = []
let index = 0
for (const [name, edit] of Object.entries(cases)) {
  index += 1
  const path = join(scratch, `case-${index}.db`)
  for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true })
  copyFileSync(pristine, path)
  const db = new Database(path)
  edit(db)
  db.close()
  const store = await openSqliteStore(path, { verifyThreads: THREADS, verifyThreadsFrom: 1 })
  const reader = new Database(path, { readonly: true })
  try {
    const source = { select: reader.prepare(RAW_LINKS_SQL).raw(true), file: path, recorded: LINKS }
    for (const deep of deepCases.has(name) ? [false, true] : [false]) {
      const options = { session: 's', deep }
      const parallel = await verifySqliteChain(source, 's', options, deepBodyProblem, PLAN)
      const inProcess = await verifySqliteChain(source, 's', options, deepBodyProblem, { ...PLAN, threads: 1 })
      const walked = await verifyEvents(store.readRaw('s'), options)
      const viaStore = await store.verifyChain('s', options)
      results.push({ name, deep, ranges: parallel.ranges, parallel: parallel.verification, inProcess: inProcess.verification, walked, viaStore })
    }
  } finally {
    reader.close()
    await store.close()
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`)
