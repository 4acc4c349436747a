import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/*
 * In WAL mode every commit appends pages to the -wal file, and a checkpoint copies them into
 * the database file: an fsync of the WAL, the copy, an fsync of the database. SQLite runs it
 * inside whichever commit crosses wal_autocheckpoint, so that append waits for it; on a
 * batched append stream that was a fifth to a third of the wall time. This moves the copy to a
 * worker thread with its own connection, which is how SQLite expects concurrent
 * checkpointing to be done (PASSIVE: it never blocks the writer or a reader).
 *
 * Nothing about durability changes: commits are made durable exactly as before (the WAL with
 * the store's synchronous setting), and the checkpoint keeps its own syncs (the worker's
 * connection uses the same setting). A kill at any instant, of the process or the worker,
 * leaves a WAL that SQLite recovers as it always does.
 *
 * The writer keeps SQLite's own checkpointing at a larger threshold (FALLBACK_WAL_BYTES), so
 * the WAL stays bounded if the worker falls behind, cannot start, or dies. It also does what
 * the worker cannot under a steady stream of appends: the WAL starts over from its beginning
 * only when a write transaction begins with every frame already copied, and a writer that is
 * always mid-transaction never sees the worker finish. When appends pause, the worker catches
 * up and the next append starts the WAL over; under a steady stream, the writer's own
 * checkpoint at FALLBACK_WAL_BYTES copies what the worker has not and starts it over. That
 * checkpoint costs the append that runs it about two fsyncs whatever it copies, so the
 * threshold is large: the WAL may reach 64 MiB under a sustained stream, rather than 4 MiB.
 *
 * The worker's source is inline (not a sibling file) so it runs the same from the TypeScript
 * sources under vitest as from dist/; it loads the same better-sqlite3 the store does.
 */

/** Row bytes appended between two requests to the worker. */
export const CHECKPOINT_EVERY_BYTES = 4 * 1024 * 1024
/** The writer's own wal_autocheckpoint, as bytes of WAL (see above). */
export const FALLBACK_WAL_BYTES = 64 * 1024 * 1024
/**
 * One request runs checkpoint passes until one finds the WAL fully copied (so the writer can
 * start the WAL over at its next commit) or this many have run.
 */
const MAX_PASSES = 4

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.path, { fileMustExist: true })
db.pragma('synchronous = ' + workerData.synchronous)
const state = new Int32Array(workerData.state)
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close()
    parentPort.close()
    return
  }
  try {
    for (let pass = 0; pass < ${MAX_PASSES}; pass += 1) {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)')
      if (result.busy !== 0 || result.log === result.checkpointed) break
    }
  } finally {
    Atomics.store(state, 0, 0)
  }
})
`

const IDLE = 0
const REQUESTED = 1

export class WalCheckpointer {
  private worker: Worker | null = null
  private exited: Promise<void> | null = null
  private failed = false
  private pendingBytes = 0
  /** IDLE, or REQUESTED until the worker has finished the request. */
  private readonly state = new Int32Array(new SharedArrayBuffer(4))

  constructor(
    private readonly path: string,
    private readonly synchronous: 'NORMAL' | 'FULL',
  ) {}

  /** Called after each commit with the bytes of the rows it wrote. */
  noteAppended(bytes: number): void {
    this.pendingBytes += bytes
    if (this.pendingBytes < CHECKPOINT_EVERY_BYTES || this.failed) return
    // A request still running covers the pages committed since it was made, or the next one will.
    if (Atomics.compareExchange(this.state, 0, IDLE, REQUESTED) !== IDLE) return
    this.pendingBytes = 0
    const worker = this.worker ?? this.start()
    if (worker === null) return
    worker.postMessage('checkpoint')
  }

  /** Lets a running checkpoint finish, then closes the worker's connection. */
  async close(): Promise<void> {
    const worker = this.worker
    const exited = this.exited
    this.worker = null
    this.failed = true
    if (worker === null || exited === null) return
    worker.postMessage('close')
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS)
    await exited
    clearTimeout(timer)
  }

  private start(): Worker | null {
    try {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { driver: driverPath(), path: this.path, synchronous: this.synchronous, state: this.state.buffer },
      })
      // A checkpointer never keeps the process alive; a process that exits mid-checkpoint
      // leaves a WAL SQLite recovers, as after any crash.
      worker.unref()
      // After an error the writer's own checkpoints take over (FALLBACK_WAL_BYTES).
      worker.on('error', () => {
        this.failed = true
      })
      this.exited = new Promise((resolve) => worker.once('exit', () => resolve()))
      this.worker = worker
      return worker
    } catch {
      this.failed = true
      return null
    }
  }
}

const CLOSE_TIMEOUT_MS = 10_000

let driver: string | undefined
function driverPath(): string {
  driver ??= createRequire(import.meta.url).resolve('better-sqlite3')
  return driver
}
