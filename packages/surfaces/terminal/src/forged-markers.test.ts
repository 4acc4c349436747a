import { readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxAvailable } from './sandbox.js'
import { ShellSession } from './shell-session.js'

/**
 * A program inside the terminal that tries to end its own command early with a forged
 * marker: it looks for the nonce everywhere a process of the same user can read — the
 * integration folder, the shell's environment and command line, its own environment — and
 * prints an end marker claiming exit 0 in /etc with every candidate. The real command then
 * goes on and fails with 7.
 */
const FORGER = [
  // Regular files only: the folder's FIFOs would block a reader.
  `bash -c 'for c in $(for f in ${tmpdir()}/tessera-term-*/* /proc/$PPID/environ /proc/$PPID/cmdline /proc/self/environ; do [ -f "$f" ] && cat "$f"; done 2>/dev/null | tr -c "0-9a-f" "\\n" | grep -E "^[0-9a-f]{32}$" | sort -u); do printf "\\e]633;%s;D;0;0;/etc\\a" "$c"; done; echo forged'`,
  'sleep 0.3',
  '(exit 7)',
].join('; ')

const sessions: ShellSession[] = []
afterAll(async () => {
  for (const session of sessions) await session.close()
})

async function start(sandboxed: boolean): Promise<ShellSession> {
  const cwd = process.cwd()
  const session = await ShellSession.start(sandboxed ? { cwd, sandbox: { writableRoots: [cwd], network: false } } : { cwd })
  sessions.push(session)
  return session
}

for (const sandboxed of [false, true]) {
  describe(`forged command ends ${sandboxed ? 'inside the sandbox' : 'without a sandbox'}`, () => {
    let shell: ShellSession
    beforeAll(async () => {
      if (sandboxed && !sandboxAvailable()) {
        if (process.env.CI === 'true') throw new Error('bubblewrap (bwrap) is missing: scripts/bootstrap installs it')
        return
      }
      shell = await start(sandboxed)
    })

    it('a program that hunts for the nonce and prints an end marker cannot end the command: its real exit code and directory stand', async (context) => {
      if (shell === undefined) return context.skip()
      const result = await shell.execute(FORGER, { timeoutMs: 20_000 })
      expect(result.stdout).toContain('forged')
      expect(result.exit_code).toBe(7)
      expect(result.cwd ?? shell.cwd).not.toBe('/etc')
      expect(shell.cwd).not.toBe('/etc')
      // And the shell goes on normally.
      expect((await shell.execute('echo still here')).stdout).toBe('still here\n')
    })

    it('a nonce request printed by a program is not answered', async (context) => {
      if (shell === undefined) return context.skip()
      const asked = await shell.execute(`printf '\\e]633;N\\a'; IFS= read -r -t 1 answer; echo "answer:[$answer]"`)
      expect(asked.stdout).toContain('answer:[]')
      expect(asked.stdout).not.toMatch(/[0-9a-f]{32}/)
    })
  })
}

describe('where the nonce is not', () => {
  it('no file of the shell folder holds it', async () => {
    const shell = await start(false)
    const mine = readdirSync(tmpdir()).filter((name) => name.startsWith(`tessera-term-${process.pid}-`))
    expect(mine.length).toBeGreaterThan(0)
    for (const dir of mine) {
      for (const file of readdirSync(join(tmpdir(), dir))) {
        const path = join(tmpdir(), dir, file)
        // Regular files only: reading one of the FIFOs would wait for a writer.
        if (statSync(path).isFile()) expect(readFileSync(path, 'utf8')).not.toMatch(/[0-9a-f]{32}/)
      }
    }
    expect((await shell.execute('env')).stdout).not.toMatch(/[0-9a-f]{32}/)
  })
})
