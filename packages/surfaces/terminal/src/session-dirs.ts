import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Each shell's private folder (its rc, command file and stderr FIFOs) is named after the
 * process that owns it, `tessera-term-<pid>-XXXXXX`, so a hub that was killed before it
 * could clean up leaves folders the next one can recognise as orphaned.
 */
const PREFIX = 'tessera-term-'
const OWNED = /^tessera-term-(\d+)-[A-Za-z0-9]{6}$/

let swept = false

/** A new private folder for a shell of this process; the first call also sweeps the orphans. */
export function makeSessionDir(): string {
  if (!swept) {
    swept = true
    sweepOrphanedSessionDirs()
  }
  return mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`))
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the folders whose owning process is gone; returns their paths. Only folders of
 * this user with the owned name form are touched: a live hub's, another user's, or one in
 * an older naming without an owner are left alone.
 */
export function sweepOrphanedSessionDirs(dir: string = tmpdir()): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  const uid = process.getuid?.()
  for (const name of names) {
    const owner = OWNED.exec(name)?.[1]
    if (owner === undefined) continue
    const pid = Number(owner)
    if (pid === process.pid || alive(pid)) continue
    const path = join(dir, name)
    try {
      const stats = lstatSync(path)
      if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) continue
      rmSync(path, { recursive: true, force: true })
      removed.push(path)
    } catch {
      // Gone already, or not ours to remove: either way nothing to do.
    }
  }
  return removed
}
