import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TraceEventDraft } from '@tessera/protocol'
import { makeTempDir, type TempDir } from '../../test-support/tmp.js'
import { openSqliteStore } from './sqlite-store.js'
import { verifyStore } from './verify.js'
import { CHECKPOINT_EVERY_BYTES, FALLBACK_WAL_BYTES } from './wal-checkpointer.js'

/*
 * WAL checkpoints run on a worker thread (wal-checkpointer.ts). Appending more than the
 * trigger but less than the writer's own fallback threshold must still get pages copied into
 * the database file, by the worker; closing must leave no WAL behind; nothing may be lost.
 */

const FILLER = 'x'.repeat(4000)

function drafts(from: number, count: number): TraceEventDraft[] {
  return Array.from({ length: count }, (_, k) => ({
    session: 'big',
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, 0, from + k)).toISOString(),
    type: 'completed',
    actor: 'agent:alice',
    surface: null,
    action: null,
    frameId: null,
    requestId: `r${from + k}`,
    data: { n: from + k, filler: FILLER },
  }))
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return check()
}

describe('WAL checkpoints on a worker thread', () => {
  let dir: TempDir

  beforeEach(async () => {
    dir = await makeTempDir('tessera-checkpoint-')
  })

  afterEach(async () => {
    await dir.remove()
  })

  it('copies appended pages into the database file without waiting for the writer', async () => {
    const path = join(dir.path, 'trace.db')
    const store = await openSqliteStore(path)
    // Several times the trigger, well below the writer's own threshold: only the worker checkpoints.
    const total = Math.ceil((3 * CHECKPOINT_EVERY_BYTES) / FILLER.length)
    expect(total * FILLER.length).toBeLessThan(FALLBACK_WAL_BYTES / 2)
    for (let n = 0; n < total; n += 200) await store.append(drafts(n, Math.min(200, total - n)))
    const copied = await eventually(() => statSync(path).size > 2 * CHECKPOINT_EVERY_BYTES, 10_000)
    expect(copied, `database file is ${statSync(path).size} bytes`).toBe(true)
    expect(await verifyStore(store)).toMatchObject([{ session: 'big', ok: true, count: total }])
    await store.close()
    // The worker's connection closes first, so the store's close removes the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false)
    const reopened = await openSqliteStore(path)
    expect(await verifyStore(reopened)).toMatchObject([{ session: 'big', ok: true, count: total }])
    await reopened.close()
  })

  it('leaves checkpoints to SQLite when asked to', async () => {
    const path = join(dir.path, 'inline.db')
    const store = await openSqliteStore(path, { checkpoints: 'inline' })
    const total = Math.ceil((2 * CHECKPOINT_EVERY_BYTES) / FILLER.length)
    for (let n = 0; n < total; n += 200) await store.append(drafts(n, Math.min(200, total - n)))
    await new Promise((resolve) => setTimeout(resolve, 200))
    // SQLite's own threshold (1000 pages) is not reached: everything is still in the WAL.
    expect(statSync(path).size).toBeLessThan(CHECKPOINT_EVERY_BYTES)
    expect(await verifyStore(store)).toMatchObject([{ ok: true, count: total }])
    await store.close()
    expect(existsSync(`${path}-wal`)).toBe(false)
  })
})
