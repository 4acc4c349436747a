import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, type TempDir } from '../../test-support/tmp.js'
import type { ChainVerification } from './hash-chain.js'

/*
 * Long SQLite sessions are verified in ranges of seqs walked side by side, the first by the
 * calling thread and the others by worker threads, and the ranges are stitched together
 * (sqlite-verify.ts). Whatever was tampered with, and wherever
 * it falls against the ranges' edges, the result must be exactly that of one walk from seq 0.
 *
 * Workers run dist/trace/verify-worker.js, so this runs the BUILT store in a child process, as
 * sigkill.test.ts does (npm test builds first); under vitest's TypeScript sources the store
 * walks the whole chain itself. The child reports how many ranges were walked, so a build in
 * which workers no longer start fails here instead of quietly falling back.
 */

const here = dirname(fileURLToPath(import.meta.url))
const gatewayDist = process.env.TESSERA_GATEWAY_DIST ?? resolve(here, '../../dist')
const builtWorker = join(gatewayDist, 'trace', 'verify-worker.js')
const childScript = resolve(here, '../../test-support/verify-workers-child.mjs')

interface CaseResult {
  name: string
  deep: boolean
  ranges: number
  parallel: ChainVerification
  inProcess: ChainVerification
  walked: ChainVerification
  viaStore: ChainVerification
}

function runChild(scratch: string): Promise<CaseResult[]> {
  return new Promise((resolveRun, reject) => {
    execFile(process.execPath, [childScript, gatewayDist, scratch], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`verify-workers-child failed: ${error.message}\n${stderr}`))
      else resolveRun(JSON.parse(stdout) as CaseResult[])
    })
  })
}

/** seq and reason of the first broken link, or 'ok COUNT'. */
function verdict(result: ChainVerification): string {
  return result.ok ? `ok ${result.count}` : `${result.firstBroken.seq} ${result.firstBroken.reason}`
}

describe('verifying a long SQLite session in worker threads', () => {
  let dir: TempDir
  let results: CaseResult[]

  beforeAll(async () => {
    if (!existsSync(builtWorker)) {
      throw new Error(`verify-workers.test.ts runs the built store and ${builtWorker} is missing: run npm run build first`)
    }
    dir = await makeTempDir('tessera-verify-workers-')
    results = await runChild(dir.path)
  }, 120_000)

  afterAll(async () => {
    await dir?.remove()
  })

  it('splits the work across the threads asked for', () => {
    expect(results.length).toBeGreaterThan(0)
    for (const result of results) expect(result.ranges, result.name).toBe(3)
  })

  it('gives exactly the result of one walk from seq 0, in process and in workers, for every tampering', () => {
    for (const result of results) {
      const context = `${result.name}${result.deep ? ' (deep)' : ''}`
      expect(result.parallel, context).toEqual(result.walked)
      expect(result.inProcess, context).toEqual(result.walked)
      expect(result.viaStore, context).toEqual(result.walked)
    }
  })

  it('names the first broken link wherever it falls against the ranges', () => {
    const verdicts = Object.fromEntries(results.filter((result) => !result.deep).map((result) => [result.name, verdict(result.parallel)]))
    expect(verdicts).toEqual({
      intact: 'ok 3000',
      'body at 0': '0 hash_mismatch',
      'body at 999, the last of range 0': '999 hash_mismatch',
      'body at 1000, the first of range 1': '1000 hash_mismatch',
      'body at 2999, the last link': '2999 hash_mismatch',
      'prev_hash at 1000': '1000 prev_hash_mismatch',
      'prev_hash at 2000': '2000 prev_hash_mismatch',
      'prev_hash and body at 1000': '1000 prev_hash_mismatch',
      'hash at 999': '999 hash_mismatch',
      'hash at 1999 and body at 2500': '1999 hash_mismatch',
      'body and hash forged at 999': '1000 prev_hash_mismatch',
      'body and hash forged at 1999': '2000 prev_hash_mismatch',
      'forged body at 1000 that names another seq': '1000 unparseable',
      'deleted 1000': '1000 seq_gap',
      'deleted 1000 to 1999, all of range 1': '1000 seq_gap',
      'deleted 1000 to 2999, the tail from range 1 on': 'ok 1000',
      'deleted 1500 to 2999, a tail inside range 1': 'ok 1500',
      'deleted 2000 to 2999, all of the last range': 'ok 2000',
      'deleted 500, body at 2500': '500 seq_gap',
      'seq 1000 moved to 999.5': '1000 seq_gap',
      'seq 1999 moved to 999.5': '1000 seq_gap',
      'seq 2999 moved past the end': '2999 seq_gap',
      'a link appended past the recorded head': '3000 prev_hash_mismatch',
      'a link copied from another session': '0 unparseable',
    })
  })
})
