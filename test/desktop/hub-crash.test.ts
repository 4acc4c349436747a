import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { officePipeOf } from '@tessera/surface-desktop'
import { afterAll, describe, expect, it } from 'vitest'
import { removeDir } from '../support/hub.js'
import { startCliHub } from '../support/run-cli.js'

/** Live processes (not zombies) whose TESSERA_DESKTOP, the session folder every desktop process carries, is under `prefix`. */
function sessionProcesses(prefix: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.[0]
      const marked = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').some((entry) => entry.startsWith(`TESSERA_DESKTOP=${prefix}`))
      if (marked && state !== 'Z') found.push(`${pid} ${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`)
    } catch {
      // The process ended while it was read.
    }
  }
  return found
}

describe('a hub that dies without closing its tiles', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-crash-'))
  // The hub makes its sessions' folders in its TMPDIR: this test's processes are told apart by it.
  const sessions = mkdtempSync(join(tmpdir(), 'tessera-crash-sessions-'))
  afterAll(() => {
    removeDir(dataDir)
    removeDir(sessions)
  })

  it('takes its desktop tiles\' displays, buses and apps with it (SIGKILL)', async () => {
    const config = join(dataDir, 'tessera.config.json')
    // LibreOffice's launcher (oosplash) ignores SIGTERM: the watch kills what TERM leaves, 3 s on.
    writeFileSync(config, JSON.stringify({ tiles: [{ kind: 'desktop', id: 'calc', app: 'gnome-calculator' }, { kind: 'desktop', id: 'sheet', app: 'libreoffice-calc' }] }))
    const hub = await startCliHub(dataDir, ['--config', config], { env: { TMPDIR: sessions } })
    const running = sessionProcesses(sessions)
    // Xvfb, the session bus, the accessibility bus and its registry, the app, and a watch for each.
    expect(running.join('\n')).toMatch(/Xvfb/)
    expect(running.join('\n')).toMatch(/gnome-calculato/)
    expect(running.join('\n')).toMatch(/oosplash/)
    expect(running.join('\n')).toMatch(/soffice\.bin/)
    // LibreOffice's single-instance socket in /tmp, named after its profile: the tile's watch removes it too.
    const office = running.find((line) => line.endsWith(' soffice.bin')) as string
    const pipe = officePipeOf(readFileSync(`/proc/${office.split(' ')[0]}/cmdline`, 'utf8').split('\0')) as string
    expect(pipe).toBeDefined()
    const made = Date.now() + 15_000
    while (!existsSync(pipe) && Date.now() < made) await new Promise((done) => setTimeout(done, 200))
    expect(existsSync(pipe)).toBe(true)
    process.kill(hub.child.pid as number, 'SIGKILL')
    const deadline = Date.now() + 15_000
    let left = sessionProcesses(sessions)
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 200))
      left = sessionProcesses(sessions)
    }
    expect(left).toEqual([])
    expect(existsSync(pipe)).toBe(false)
  }, 60_000)
})
