import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ShellSession } from './shell-session.js'
import { sweepOrphanedSessionDirs } from './session-dirs.js'

const scratch = mkdtempSync(join(tmpdir(), 'tessera-sweep-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The pid of a process that has exited (and was reaped): nobody owns it now. */
function deadPid(): number {
  const done = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(done.stdout)
}

function sessionDir(name: string): string {
  const path = join(scratch, name)
  mkdirSync(path)
  writeFileSync(join(path, 'rc'), 'nonce lives here')
  return path
}

describe('orphaned shell folders', () => {
  it('removes the folders of processes that are gone and keeps the live, the foreign and the unrecognised', () => {
    const orphan = sessionDir(`tessera-term-${deadPid()}-AbC123`)
    const mine = sessionDir(`tessera-term-${process.pid}-XyZ789`)
    const parent = sessionDir(`tessera-term-${process.ppid}-QwE456`)
    const legacy = sessionDir('tessera-term-Zz9Yy8')
    const lookalike = sessionDir(`tessera-term-${deadPid()}-toolongname`)
    expect(sweepOrphanedSessionDirs(scratch)).toEqual([orphan])
    expect(existsSync(orphan)).toBe(false)
    for (const kept of [mine, parent, legacy, lookalike]) expect(existsSync(kept)).toBe(true)
  })

  it("a shell's folder is named after the process that owns it, and goes with the shell", async () => {
    const owned = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith(`tessera-term-${process.pid}-`))
    const before = new Set(owned())
    const session = await ShellSession.start({ cwd: scratch })
    const created = owned().filter((name) => !before.has(name))
    try {
      expect(created).toHaveLength(1)
      expect(created[0]).toMatch(new RegExp(`^tessera-term-${process.pid}-[A-Za-z0-9]{6}$`))
      expect((await session.execute('true')).exit_code).toBe(0)
    } finally {
      await session.close()
    }
    expect(existsSync(join(tmpdir(), created[0] ?? 'missing'))).toBe(false)
  })
})
