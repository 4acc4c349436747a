import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type Database from 'better-sqlite3'
import { ChainWalker, GENESIS_HASH, type BrokenLink, type ChainVerification, type DeepBodyCheck, type VerifyOptions } from './chain-walker.js'

/*
 * Verifying a SQLite chain is reading rows and hashing them, and each link's check needs only
 * its own row and the hash of the row before. A long session is therefore split into ranges
 * of seqs: the calling thread walks the first on the store's connection while worker threads
 * walk the others, each on its own read-only connection (WAL lets readers run side by side).
 * The ranges are stitched back together here: range r's first prevHash must be range r-1's
 * last hash. The result is exactly what one walk from seq 0 gives, including which link is
 * named first and why.
 */

/** Rows per query while walking: bounded memory, few enough queries to stay fast. */
const PAGE_SIZE = 1000

export const RAW_LINKS_SQL = 'SELECT seq, prev_hash, hash, body FROM events WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?'

/** A stretch of a session's links: `limit` links from the first whose seq is over startSeq - 1. */
export interface LinkRange {
  startSeq: number
  /** null: to the end of the chain. */
  limit: number | null
}

/** What walking one range found; everything the stitch needs, and nothing per link. */
export interface RangeOutcome {
  /** Links that held, from startSeq on. */
  count: number
  /** The hash of the last link that held. */
  lastHash: string | null
  /** The first link's prevHash when its seq was startSeq (a range after the first checks it). */
  firstPrevHash: string | null
  broken: BrokenLink | null
}

export interface VerifyPlan {
  /** Threads that walk a session of at least `minLinks` links, this one included; 1: no split. */
  threads: number
  minLinks: number
  /**
   * Links the calling thread walks beyond an equal share, while each worker starts (a worker
   * takes tens of milliseconds to start; this thread walks a link in a few microseconds).
   */
  headStart: number
}

export const DEFAULT_VERIFY_PLAN: VerifyPlan = {
  threads: Math.min(4, availableParallelism()),
  minLinks: 20_000,
  // A worker takes some 50 ms to start and load its modules; measured on a 2-core VM, a head
  // start of 20,000 to 30,000 links finished the threads together.
  headStart: 25_000,
}

/** Where the links are: an open connection (walked here) and its file (for the workers). */
export interface SqliteChainSource {
  select: Database.Statement
  /** Absolute path of the database file; null for a database workers cannot open (:memory:). */
  file: string | null
  /** Links the store recorded for the session (its head), to split the work by. */
  recorded: number
}

type LinkRow = [number, string, string, string]

/**
 * Walks `range` of `session`'s links with `select` (RAW_LINKS_SQL, raw rows). Keyset paging
 * on the last seq seen, not the next one expected, so a missing row shows as a gap.
 */
export function walkRange(select: Database.Statement, session: string, range: LinkRange, walker: ChainWalker): RangeOutcome {
  const pages = new RangePages(select, session, range)
  while (pages.walkNext(walker));
  return outcomeOf(range, walker)
}

/** walkRange, letting the event loop run between pages. */
async function walkRangeYielding(select: Database.Statement, session: string, range: LinkRange, walker: ChainWalker): Promise<RangeOutcome> {
  const pages = new RangePages(select, session, range)
  while (pages.walkNext(walker)) await nextTurn()
  return outcomeOf(range, walker)
}

class RangePages {
  private afterSeq: number
  private remaining: number

  constructor(
    private readonly select: Database.Statement,
    private readonly session: string,
    range: LinkRange,
  ) {
    this.afterSeq = range.startSeq - 1
    this.remaining = range.limit ?? Infinity
  }

  /** Walks the next page; false when the range is done (ended, or a link broke). */
  walkNext(walker: ChainWalker): boolean {
    if (this.remaining <= 0) return false
    const pageSize = Math.min(PAGE_SIZE, this.remaining)
    const rows = this.select.all(this.session, this.afterSeq, pageSize) as LinkRow[]
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index] as LinkRow
      if (!walker.acceptLink(row[0], row[1], row[2], row[3])) return false
    }
    if (rows.length < pageSize) return false
    this.afterSeq = (rows[rows.length - 1] as LinkRow)[0]
    this.remaining -= rows.length
    return true
  }
}

function outcomeOf(range: LinkRange, walker: ChainWalker): RangeOutcome {
  return {
    count: walker.nextSeq - range.startSeq,
    lastHash: walker.lastHash,
    firstPrevHash: walker.firstPrevHash,
    broken: walker.firstBroken,
  }
}

/**
 * Splits `links` recorded links into `parts` ranges, the first longer than the others by
 * `headStart` (at most an equal share). The last runs to the end of the chain, so links
 * appended meanwhile, or written behind the store's back, are walked as one walk would.
 */
export function splitRanges(links: number, parts: number, headStart = 0): LinkRange[] {
  const lead = Math.min(headStart, Math.floor(links / parts))
  const first = Math.floor((links + lead * (parts - 1)) / parts)
  const ranges: LinkRange[] = []
  let startSeq = 0
  for (let part = 0; part < parts; part += 1) {
    const endSeq = part === 0 ? first : first + Math.floor(((links - first) * part) / (parts - 1))
    ranges.push({ startSeq, limit: part === parts - 1 ? null : endSeq - startSeq })
    startSeq = endSeq
  }
  return ranges
}

/** Joins consecutive ranges' outcomes into the verification of the whole chain. */
export function stitchRanges(ranges: readonly LinkRange[], outcomes: readonly RangeOutcome[]): ChainVerification {
  let headHash = GENESIS_HASH
  for (let part = 0; part < ranges.length; part += 1) {
    const range = ranges[part] as LinkRange
    const outcome = outcomes[part] as RangeOutcome
    // Every range before this one held and was full, so the chain has reached range.startSeq.
    if (part > 0 && outcome.firstPrevHash !== null && outcome.firstPrevHash !== headHash) {
      return {
        ok: false,
        count: range.startSeq,
        firstBroken: { seq: range.startSeq, reason: 'prev_hash_mismatch', expected: headHash, found: outcome.firstPrevHash },
      }
    }
    if (outcome.broken !== null) return { ok: false, count: outcome.broken.seq, firstBroken: outcome.broken }
    if (outcome.lastHash !== null) headHash = outcome.lastHash
    const full = range.limit === null || outcome.count === range.limit
    if (!full || part === ranges.length - 1) return { ok: true, count: range.startSeq + outcome.count, headHash }
  }
  return { ok: true, count: 0, headHash }
}

/** Whether stitching can stop after this outcome: the chain breaks or ends inside its range. */
function settles(range: LinkRange, outcome: RangeOutcome): boolean {
  return outcome.broken !== null || (range.limit !== null && outcome.count < range.limit)
}

/** The worker script, built beside this file; absent when running from TypeScript sources. */
const WORKER_URL = new URL('./verify-worker.js', import.meta.url)
let workerScript: URL | null | undefined

function verifyWorkerScript(): URL | null {
  workerScript ??= existsSync(fileURLToPath(WORKER_URL)) ? WORKER_URL : null
  return workerScript
}

/** What a verification worker is given (workerData). */
export interface RangeTask {
  file: string
  session: string
  range: LinkRange
  options: VerifyOptions
}

/**
 * Verifies one session's chain as one walk from seq 0 would: split across threads when the
 * session is long enough and its file can be shared, else walked here. The event loop runs
 * between pages either way. `ranges` says how many ranges were walked side by side (1: one
 * walk), for tests that must know the parallel path ran.
 */
export async function verifySqliteChain(
  source: SqliteChainSource,
  session: string,
  options: VerifyOptions,
  deepCheck: DeepBodyCheck,
  plan: VerifyPlan = DEFAULT_VERIFY_PLAN,
): Promise<{ verification: ChainVerification; ranges: number }> {
  const script = verifyWorkerScript()
  const parts = Math.min(plan.threads, source.recorded)
  if (script !== null && source.file !== null && parts >= 2 && source.recorded >= plan.minLinks) {
    const ranges = splitRanges(source.recorded, parts, plan.headStart)
    const workers = ranges.slice(1).map((range) => new RangeWorker(script, { file: source.file as string, session, range, options }))
    try {
      const first = await walkRangeYielding(source.select, session, ranges[0] as LinkRange, new ChainWalker(options, deepCheck))
      // A break or an end in the first range is the answer whatever the others hold.
      if (settles(ranges[0] as LinkRange, first)) return { verification: stitchRanges(ranges, [first]), ranges: parts }
      const rest = await Promise.all(workers.map((worker) => worker.outcome))
      if (rest.every((outcome) => outcome !== null)) {
        return { verification: stitchRanges(ranges, [first, ...(rest as RangeOutcome[])]), ranges: parts }
      }
    } finally {
      for (const worker of workers) worker.stop()
    }
  }
  const walker = new ChainWalker(options, deepCheck)
  await walkRangeYielding(source.select, session, { startSeq: 0, limit: null }, walker)
  return { verification: walker.result(), ranges: 1 }
}

/** One range walked on a worker thread; its outcome is null if the worker failed. */
class RangeWorker {
  readonly outcome: Promise<RangeOutcome | null>
  private worker: Worker | null = null

  constructor(script: URL, task: RangeTask) {
    const workerData: RangeTask = { ...task, options: { session: task.options.session, deep: task.options.deep ?? false } }
    this.outcome = new Promise((resolve) => {
      try {
        const worker = new Worker(script, { workerData })
        this.worker = worker
        worker.once('message', (outcome: RangeOutcome) => resolve(outcome))
        worker.once('error', () => resolve(null))
        worker.once('exit', () => resolve(null))
      } catch {
        resolve(null)
      }
    })
  }

  /** Ends the worker if it is still walking (the answer is known without it). */
  stop(): void {
    void this.worker?.terminate()
  }
}
