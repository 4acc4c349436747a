import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { ChainWalker, GENESIS_HASH, type DeepBodyCheck } from './chain-walker.js'
import { RAW_LINKS_SQL, walkRange, type RangeTask } from './sqlite-verify.js'

/*
 * Walks one range of a session's links on its own read-only connection and posts the
 * RangeOutcome (see sqlite-verify.ts). Loads only what the walk needs: the protocol package
 * comes in just for deep verification.
 */

const task = workerData as RangeTask
const deepCheck: DeepBodyCheck | null = task.options.deep === true ? (await import('./hash-chain.js')).deepBodyProblem : null
const db = new Database(task.file, { readonly: true, fileMustExist: true })
try {
  const select = db.prepare(RAW_LINKS_SQL).raw(true)
  const start = { seq: task.range.startSeq, prevHash: task.range.startSeq === 0 ? GENESIS_HASH : null }
  parentPort?.postMessage(walkRange(select, task.session, task.range, new ChainWalker(task.options, deepCheck, start)))
} finally {
  db.close()
}
