import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from './command-policy.js'
import { pidExists } from './processes.js'
import { sandboxAvailable, sandboxCommand } from './sandbox.js'
import { ShellSession } from './shell-session.js'

const available = sandboxAvailable()

describe.skipIf(!available)('terminals inside bubblewrap', () => {
  let root: string
  let outside: string
  let server: Server
  let port: number
  let connections = 0
  let shell: ShellSession

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'tessera-sandbox-root-')))
    // Outside /tmp, so the sandbox sees the real directory (read-only) instead of its private tmpfs.
    outside = realpathSync(mkdtempSync(join('/var/tmp', 'tessera-sandbox-outside-')))
    writeFileSync(join(outside, 'keep.txt'), 'precious')
    mkdirSync(join(outside, 'dir'))
    writeFileSync(join(outside, 'dir', 'nested.txt'), 'precious')
    server = createServer((socket) => {
      connections++
      socket.end('hello\n')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    shell = await ShellSession.start({ cwd: root, sandbox: { writableRoots: [root], network: false } })
  })

  afterAll(async () => {
    await shell?.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    rmSync(root, { recursive: true, force: true })
    rmSync(outside, { recursive: true, force: true })
  })

  it('writes inside the writable roots', async () => {
    const result = await shell.execute(`echo inside > ${root}/made.txt && cat ${root}/made.txt`)
    expect(result).toMatchObject({ exit_code: 0, stdout: 'inside\n' })
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('inside\n')
  })

  it('refuses writes anywhere else with a read-only file system', async () => {
    const result = await shell.execute(`touch ${outside}/new.txt`)
    expect(result.exit_code).toBe(1)
    expect(result.stderr).toMatch(/Read-only file system/)
    expect(existsSync(join(outside, 'new.txt'))).toBe(false)
    expect((await shell.execute('touch /etc/tessera-sandbox-probe')).stderr).toMatch(/Read-only file system/)
    expect(existsSync('/etc/tessera-sandbox-probe')).toBe(false)
  })

  it('gives the shell a private /tmp', async () => {
    const probe = `tessera-private-${process.pid}`
    expect((await shell.execute(`echo x > /tmp/${probe} && ls /tmp`)).stdout).toContain(probe)
    expect(existsSync(join('/tmp', probe))).toBe(false)
  })

  it.each([
    ['plain', (p: string) => `rm -rf ${p}`],
    ['$(…)', (p: string) => `echo $(rm -rf ${p})`],
    ['backticks', (p: string) => `echo \`rm -rf ${p}\``],
    ['absolute path', (p: string) => `/bin/rm -rf ${p}`],
    ['newline', (p: string) => `ls\nrm -rf ${p}`],
    ['sh -c', (p: string) => `sh -c 'rm -rf ${p}'`],
    ['bash -lc', (p: string) => `bash -lc "rm -rf ${p}"`],
    ['env', (p: string) => `env rm -rf ${p}`],
    ['xargs', (p: string) => `echo ${p} | xargs rm -rf`],
    ['find -delete', (p: string) => `find ${p} -delete`],
    ['alias', (p: string) => `alias zap='rm -rf ${p}'\nzap`],
    ['command', (p: string) => `command rm -rf ${p}`],
  ])('contains the bypass shape %s, which the classifier also flags', async (_, make) => {
    const command = make(outside)
    expect(classifyCommand(command).risk).toBe('destructive')
    const result = await shell.execute(command)
    expect(result.stderr).toMatch(/Read-only file system/)
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('precious')
    expect(readFileSync(join(outside, 'dir', 'nested.txt'), 'utf8')).toBe('precious')
  })

  it('has no network when network is false', async () => {
    const result = await shell.execute(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`)
    expect(result.exit_code).not.toBe(0)
    expect(result.stdout).not.toContain('connected')
    expect(result.stderr).toMatch(/Connection refused|Network is unreachable/)
    const interfaces = (await shell.execute('tail -n +3 /proc/net/dev | cut -d: -f1')).stdout.trim().split(/\s+/)
    expect(interfaces).toEqual(['lo'])
    expect(connections).toBe(0)
  })

  it('reaches the network when network is true', async () => {
    const online = await ShellSession.start({ cwd: root, sandbox: { writableRoots: [root], network: true } })
    try {
      const result = await online.execute(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`)
      expect(result).toMatchObject({ exit_code: 0, stdout: 'hello\n' })
      expect(connections).toBe(1)
    } finally {
      await online.close()
    }
  })

  it('sees no host processes and holds no capabilities', async () => {
    const kill = await shell.execute(`kill -0 ${process.pid}`)
    expect(kill.exit_code).toBe(1)
    expect(kill.stderr).toMatch(/No such process/)
    expect((await shell.execute('grep CapEff /proc/self/status')).stdout).toMatch(/CapEff:\s+0+\n/)
  })

  it('keeps job control: Ctrl-C reaches the foreground program', async () => {
    await shell.start('sleep 30')
    await shell.interrupt()
    expect((await shell.waitFor({ prompt: true, timeoutMs: 5000 })).matched).toBe(true)
    expect(shell.lastExitCode).toBe(130)
  })

  it('reaps bubblewrap and the shell on close', async () => {
    const other = await ShellSession.start({ cwd: root, sandbox: { writableRoots: [root], network: false } })
    try {
      await other.start('sleep 60')
      const pid = other.pid as number
      await other.close()
      expect(pidExists(pid)).toBe(false)
    } finally {
      await other.close()
    }
  })
})

describe('sandboxCommand', () => {
  it('mounts everything read-only, then the writable roots, and unshares the network only when asked', () => {
    const root = realpathSync(tmpdir())
    const { file, args } = sandboxCommand({ writableRoots: [root], network: false }, { cwd: '/', integrationDir: root, command: ['bash', '-i'] })
    expect(file).toBe('bwrap')
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/'])
    expect(args).toContain('--unshare-net')
    expect(args).toContain('--cap-drop')
    expect(args).not.toContain('--new-session')
    expect(args.slice(-3)).toEqual(['--', 'bash', '-i'])
    expect(sandboxCommand({ writableRoots: [root], network: true }, { cwd: '/', integrationDir: root, command: ['bash'] }).args).not.toContain('--unshare-net')
  })

  it('rejects a writable root of /, missing roots and a working directory hidden by the private /tmp', () => {
    const layout = { cwd: '/', integrationDir: realpathSync(tmpdir()) + '/tessera-integration-not-used', command: ['bash'] }
    expect(() => sandboxCommand({ writableRoots: ['/'], network: false }, layout)).toThrow(/whole file system writable/)
    expect(() => sandboxCommand({ writableRoots: ['/no/such/dir'], network: false }, layout)).toThrow(/does not exist/)
    expect(() => sandboxCommand({ writableRoots: ['relative'], network: false }, layout)).toThrow(/absolute path/)
    const hidden = mkdtempSync(join(tmpdir(), 'tessera-hidden-'))
    try {
      expect(() => sandboxCommand({ writableRoots: [], network: false }, { ...layout, cwd: hidden })).toThrow(/empty tmpfs/)
    } finally {
      rmSync(hidden, { recursive: true, force: true })
    }
  })
})
