import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { officePipeOf, removeOfficePipe } from './office-pipe.js'

describe('LibreOffice\'s single-instance socket', () => {
  it('is named from the profile URL, and only for a program given one', () => {
    // Seen on LibreOffice 7.4 for this profile: bytes in hex without leading zeros.
    expect(officePipeOf(['libreoffice', '--calc', '-env:UserInstallation=file:///tmp/lo-hash-test-b'], 0)).toBe('/tmp/OSL_PIPE_0_SingleOfficeIPC_5ac212961a5081e8d8a17f8b18622aa6')
    expect(officePipeOf(['mousepad'])).toBeUndefined()
    expect(officePipeOf(['gimp', '-env:Other=1'])).toBeUndefined()
  })

  it('is where a real LibreOffice makes it, stays when it ends by signal, and is removed after', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'tessera-office-pipe-'))
    const args = ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`]
    const pipe = officePipeOf(args) as string
    const office = spawn('libreoffice', args, { detached: true, stdio: 'ignore' })
    const ended = new Promise<void>((done) => office.once('exit', () => done()))
    try {
      await vi.waitFor(() => expect(existsSync(pipe)).toBe(true), { timeout: 60_000, interval: 100 })
      // Killed: a TERM it sometimes gets to handle, removing the socket itself (seen once in a loaded CI run), and then there is nothing to check.
      process.kill(-(office.pid as number), 'SIGKILL')
      await ended
      // Its helper process may outlive the wrapper by a moment; the socket outlives them all.
      await new Promise((done) => setTimeout(done, 1000))
      expect(existsSync(pipe)).toBe(true)
      removeOfficePipe(pipe)
      expect(existsSync(pipe)).toBe(false)
    } finally {
      try {
        process.kill(-(office.pid as number), 'SIGKILL')
      } catch {
        // Already gone.
      }
      removeOfficePipe(pipe)
      rmSync(profile, { recursive: true, force: true })
    }
  }, 90_000)
})
