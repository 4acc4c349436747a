import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { isRunning, pidExists, processTree } from './processes.js'
import { ShellSession } from './shell-session.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('ShellSession on a real PTY', () => {
  let shell: ShellSession

  beforeAll(async () => {
    shell = await ShellSession.start({ cwd: '/' })
  })

  afterAll(async () => {
    await shell.close()
  })

  it('reports exit codes 0, 1 and 127, and death by signal', async () => {
    // A plain run says only what it did: no timed_out, truncated or cwd when they say nothing.
    expect(await shell.execute('true')).toEqual({ exit_code: 0, success: true, stdout: '', stderr: '' })
    expect(await shell.execute('false')).toMatchObject({ exit_code: 1, success: false })
    const missing = await shell.execute('no-such-command-here')
    expect(missing).toMatchObject({ exit_code: 127, success: false, stdout: '' })
    expect(missing.stderr).toContain('no-such-command-here: command not found')
    const killed = await shell.execute("sh -c 'kill -9 $$'")
    expect(killed).toMatchObject({ exit_code: 137, signal: 'SIGKILL', success: false })
    expect(await shell.execute('exit_with() { return $1; }; exit_with 42')).toMatchObject({ exit_code: 42 })
  })

  it('keeps stderr apart from stdout, and shows both on the screen', async () => {
    const result = await shell.execute('echo out; echo err >&2; echo out2; echo err2 1>&2')
    expect(result.stdout).toBe('out\nout2\n')
    expect(result.stderr).toBe('err\nerr2\n')
    await shell.screen.settle()
    const screen = shell.screen.lines()
    for (const line of ['out', 'err', 'out2', 'err2']) expect(screen).toContain(line)
    const transcript = shell.read({ since: result.offset }).text
    expect(transcript).toContain('err2')
  })

  it('keeps the working directory and environment between commands', async () => {
    expect(await shell.execute('cd /tmp')).toMatchObject({ exit_code: 0, cwd: '/tmp' })
    expect((await shell.execute('pwd')).stdout).toBe('/tmp\n')
    expect(shell.cwd).toBe('/tmp')
    await shell.execute('export TESSERA_TEST_FOO=1; BAR=two')
    expect((await shell.execute('echo "$TESSERA_TEST_FOO $BAR"')).stdout).toBe('1 two\n')
    expect((await shell.execute('bash -c \'echo "child sees $TESSERA_TEST_FOO"\'')).stdout).toBe('child sees 1\n')
  })

  it('runs multi-line scripts, here-documents and compound commands as one command line', async () => {
    const result = await shell.execute('echo a\necho b >&2\ncat <<EOF\nhere $((20 + 22))\nEOF\nfalse')
    expect(result).toMatchObject({ stdout: 'a\nhere 42\n', stderr: 'b\n', exit_code: 1 })
    expect((await shell.execute('for i in 1 2 3; do echo $i; done | wc -l')).stdout.trim()).toBe('3')
    expect((await shell.execute("printf 'tab\\there\\n'")).stdout).toBe('tab\there\n')
    expect((await shell.execute("echo \"quote ' and !bang and \\$HOME\"")).stdout).toBe("quote ' and !bang and $HOME\n")
  })

  it('reports a syntax error as bash does, and cancels an incomplete line', async () => {
    const syntax = await shell.execute('echo )')
    expect(syntax.exit_code).toBe(2)
    expect(syntax.stderr).toMatch(/syntax error near unexpected token/)
    await expect(shell.execute('echo "unterminated')).rejects.toThrow(/incomplete command/)
    expect((await shell.execute('echo still fine')).stdout).toBe('still fine\n')
  })

  it('strips escape sequences from captured output', async () => {
    const result = await shell.execute("printf '\\e[1;31mred\\e[0m and \\e[32mgreen\\e[0m\\n'; ls --color=always / | head -3")
    expect(result.stdout.split('\n')[0]).toBe('red and green')
    expect(result.stdout).not.toContain('\x1b')
  })

  it('caps captured output explicitly, keeping head and tail', async () => {
    const small = await ShellSession.start({ cwd: '/', captureBytes: 1000 })
    try {
      const result = await small.execute('seq 1 2000')
      expect(result.truncated).toBe(true)
      expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true)
      expect(result.stdout.endsWith('1999\n2000\n')).toBe(true)
      expect(result.stdout).toMatch(/\[… \d+ bytes omitted …\]/)
      expect(result.hint).toMatch(/stdout was 8893 bytes/)
      expect(result.omitted_bytes).toBeGreaterThan(7000)
    } finally {
      await small.close()
    }
  })

  it('accepts timeouts beyond the 24.8-day timer limit and returns a timed-out result that leaves the command running', async () => {
    expect(await shell.execute('sleep 0.2; echo done', { timeoutMs: 3_000_000_000 })).toEqual({ stdout: 'done\n', stderr: '', exit_code: 0, success: true })
    const slow = await shell.execute('echo begun; sleep 30', { timeoutMs: 300 })
    expect(slow).toMatchObject({ timed_out: true, exit_code: null, success: false, stdout: 'begun\n' })
    expect(String(slow.hint)).toMatch(/interrupt/)
    expect(shell.busy).toBe(true)
    await expect(shell.execute('true')).rejects.toThrow(/busy/)
    await shell.interrupt()
    expect(await shell.waitFor({ prompt: true, timeoutMs: 5000 })).toMatchObject({ matched: true })
    expect(shell.lastExitCode).toBe(130)
  })

  it('reads a long-running program incrementally: every line once, in order', async () => {
    const started = await shell.start('for i in $(seq 1 30); do echo "tick $i"; sleep 0.1; done')
    expect(started.running).toBe(true)
    let since = started.offset
    let text = ''
    let reads = 0
    const deadline = Date.now() + 15_000
    for (;;) {
      await sleep(250)
      const chunk = shell.read({ since })
      expect(chunk.offset).toBe(since)
      expect(chunk.dropped).toBe(0)
      text += chunk.text
      since = chunk.next_offset
      reads++
      if (!chunk.busy || Date.now() > deadline) break
    }
    text += shell.read({ since }).text
    const ticks = [...text.matchAll(/^tick (\d+)$/gm)].map((match) => Number(match[1]))
    expect(ticks).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    expect(reads).toBeGreaterThan(4)
    expect(shell.lastExitCode).toBe(0)
  })

  it('reads by absolute line and by tail', async () => {
    const result = await shell.execute('printf "alpha\\nbeta\\ngamma\\n"')
    const first = shell.read({ since: result.offset })
    const alpha = first.line + 1
    expect(shell.read({ line: alpha }).text.startsWith('alpha\nbeta\ngamma\n')).toBe(true)
    expect(shell.read({ tail: 2 }).text).toBe('beta\ngamma\n')
  })

  it('starts a two-minute program without any hidden cap, then interrupts it', async () => {
    const started = await shell.start('sleep 120')
    expect(started.running).toBe(true)
    await sleep(1000)
    expect(shell.busy).toBe(true)
    expect(shell.status).toBe('running')
    await shell.interrupt()
    const back = await shell.waitFor({ prompt: true, timeoutMs: 5000 })
    expect(back.matched).toBe(true)
    expect(shell.lastExitCode).toBe(130)
  })

  it('drives bc with input and waits for its answers', async () => {
    await shell.start('bc -q')
    shell.input('2^10', { enter: true })
    expect(await shell.waitFor({ pattern: '/^1024$/m', timeoutMs: 5000 })).toMatchObject({ matched: true, match: '1024' })
    shell.input('scale=3; 10/4', { enter: true })
    expect(await shell.waitFor({ pattern: '2.500', timeoutMs: 5000 })).toMatchObject({ matched: true })
    shell.input('quit', { enter: true })
    expect(await shell.waitFor({ prompt: true, timeoutMs: 5000 })).toMatchObject({ matched: true })
  })

  it('drives python3 -i through its >>> prompt', async () => {
    await shell.start('python3 -q -i')
    expect((await shell.waitFor({ pattern: '>>> ', timeoutMs: 10_000 })).matched).toBe(true)
    shell.input('print(6 * 7)', { enter: true })
    const answer = await shell.waitFor({ pattern: '>>> ', timeoutMs: 5000 })
    expect(answer.matched).toBe(true)
    expect(answer.text).toContain('42')
    shell.input('import sys; sys.exit(3)', { enter: true })
    expect((await shell.waitFor({ prompt: true, timeoutMs: 5000 })).matched).toBe(true)
    expect(shell.lastExitCode).toBe(3)
  })

  it('times out a wait honestly', async () => {
    const result = await shell.waitFor({ pattern: 'never-printed-anywhere', timeoutMs: 200 })
    expect(result).toMatchObject({ matched: false, timed_out: true, match: null })
  })

  it('kills the foreground program, and every background job with all', async () => {
    await shell.start('sleep 100')
    const killed = await shell.kill()
    expect(killed.killed.length).toBeGreaterThan(0)
    expect((await shell.waitFor({ prompt: true, timeoutMs: 5000 })).matched).toBe(true)
    expect(shell.lastExitCode).toBe(137)

    const background = await shell.execute('sleep 100 >/dev/null 2>&1 & echo $!')
    const pid = Number(background.stdout.trim())
    expect(pidExists(pid)).toBe(true)
    const all = await shell.kill({ all: true })
    expect(all.killed).toContain(pid)
    await sleep(100)
    expect((await shell.execute('jobs -r | wc -l')).stdout.trim()).toBe('0')
  })

  it('keeps a background process that holds stderr out of later commands', async () => {
    await shell.execute('(for i in 1 2 3 4 5 6; do sleep 0.1; echo bg-noise >&2; done) &')
    await sleep(150)
    const later = await shell.execute('sleep 0.4; echo mine >&2')
    expect(later.stderr).toBe('mine\n')
    await sleep(300)
  })

  it('restarts the shell in the same working directory', async () => {
    await shell.execute('cd /usr')
    const before = shell.pid
    const result = await shell.kill({ restart: true })
    expect(result.restarted).toBe(true)
    expect(shell.pid).not.toBe(before)
    expect(pidExists(before as number)).toBe(false)
    expect((await shell.execute('pwd')).stdout).toBe('/usr\n')
  })
})

describe('closing a terminal', () => {
  it('ends and reaps the shell and everything it started', async () => {
    const shell = await ShellSession.start({ cwd: '/' })
    try {
      await shell.execute('sleep 100 >/dev/null 2>&1 &')
      await shell.start('sleep 200')
      const pid = shell.pid as number
      // `start` returns once bash accepted the line; the fork follows a moment later.
      let tree: number[] = []
      for (let tries = 0; tries < 200 && tree.length < 3; tries++) {
        await sleep(10)
        tree = processTree(pid).map((stat) => stat.pid)
      }
      expect(tree.length).toBeGreaterThanOrEqual(3)
      await shell.close()
      // The shell is reaped by us; its orphaned children are dead (at most zombies until init reaps them).
      expect(pidExists(pid)).toBe(false)
      for (const child of tree) expect(isRunning(child)).toBe(false)
      expect(shell.status).toBe('closed')
      expect(() => shell.input('x')).toThrow(/closed/)
    } finally {
      await shell.close()
    }
  })

  it('answers `exit 7` with exit code 7 and goes on in a new shell in the same directory', async () => {
    const shell = await ShellSession.start({ cwd: '/' })
    try {
      await shell.execute('cd /tmp && export GONE=1')
      const result = await shell.execute('exit 7')
      expect(result).toMatchObject({ exit_code: 7, success: false, shell_restarted: true, cwd: '/tmp', stderr: '' })
      expect(result.hint).toMatch(/new shell started in \/tmp/)
      expect(shell.exited).toBeNull()
      expect(await shell.execute('pwd; echo "${GONE:-unset}"')).toMatchObject({ stdout: '/tmp\nunset\n', exit_code: 0 })
      // A shell ended from outside a command (typed `exit`) is replaced by the next command too.
      shell.input('exit 3', { enter: true })
      await vi.waitFor(() => expect(shell.status).toBe('exited'))
      expect((await shell.execute('echo back')).stdout).toBe('back\n')
      expect(shell.history).toEqual(['cd /tmp && export GONE=1', 'exit 7', 'pwd; echo "${GONE:-unset}"', 'echo back'])
    } finally {
      await shell.close()
    }
  })
})
