import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs'
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/*
 * Runs a real, throwaway PostgreSQL (Debian's packages, installed by scripts/bootstrap) for
 * tests: its own data directory, a free port on 127.0.0.1, no fsync. Tests run as root in CI
 * and initdb refuses root, so the server runs as the `postgres` user through setpriv, which
 * execs it: postgres stays this process's direct child and is stopped and reaped by PID.
 */

const POSTGRES_ROOT = '/usr/lib/postgresql'
const DATABASE = 'tessera_test'
const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 10_000

export type PostgresAvailability = { available: true } | { available: false; reason: string }

export interface RunningPostgres {
  connectionString: string
  stop(): Promise<void>
}

interface Installation {
  binDir: string
  /** Who to run as when we are root (initdb refuses to run as root). */
  runAs: { uid: number; gid: number } | null
}

/**
 * Whether startPostgres() can work here. In CI (CI=true) a missing PostgreSQL is a failure,
 * never a reason to skip, so this throws instead of answering false.
 */
export function postgresAvailable(): PostgresAvailability {
  const found = findInstallation()
  if (typeof found !== 'string') return { available: true }
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI: ${found}`)
  return { available: false, reason: found }
}

export async function startPostgres(): Promise<RunningPostgres> {
  const installation = findInstallation()
  if (typeof installation === 'string') throw new Error(`cannot start PostgreSQL: ${installation}`)
  const root = await mkdtemp(join(tmpdir(), 'tessera-pg-'))
  try {
    const dataDir = join(root, 'data')
    const socketDir = join(root, 'socket')
    await mkdir(socketDir)
    if (installation.runAs) await chown(root, installation.runAs.uid, installation.runAs.gid)
    if (installation.runAs) await chown(socketDir, installation.runAs.uid, installation.runAs.gid)
    await runToCompletion(installation, 'initdb', [
      '-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions',
    ])
    // A port found free can be taken before postgres binds it; try a few.
    let lastError: unknown
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const port = await freePort()
      const server = launchServer(installation, dataDir, socketDir, port)
      try {
        await waitUntilAccepting(server, port)
        await createDatabase(port)
        return {
          connectionString: `postgresql://postgres@127.0.0.1:${port}/${DATABASE}`,
          stop: async () => {
            await server.stop()
            await rm(root, { recursive: true, force: true })
          },
        }
      } catch (error) {
        lastError = error
        await server.stop()
      }
    }
    throw lastError
  } catch (error) {
    await rm(root, { recursive: true, force: true })
    throw error
  }
}

/** The installation, or why there is none usable. */
function findInstallation(): Installation | string {
  let versions: string[]
  try {
    versions = readdirSync(POSTGRES_ROOT)
  } catch {
    return `no ${POSTGRES_ROOT} (install the Debian package postgresql, or run scripts/bootstrap)`
  }
  const binDir = versions
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(POSTGRES_ROOT, version, 'bin'))
    .find((dir) => isExecutable(join(dir, 'initdb')) && isExecutable(join(dir, 'postgres')))
  if (binDir === undefined) return `no initdb and postgres under ${POSTGRES_ROOT}/*/bin`
  if (process.getuid?.() !== 0) return { binDir, runAs: null }
  const user = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'postgres')
  if (user === undefined) return 'running as root and there is no postgres user to run the server as'
  if (!['/usr/bin/setpriv', '/bin/setpriv'].some(isExecutable)) return 'running as root and setpriv is missing (util-linux)'
  return { binDir, runAs: { uid: Number(user[2]), gid: Number(user[3]) } }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The program and arguments that run `tool` from the installation, as postgres when root. */
function command(installation: Installation, tool: string, args: string[]): [string, string[]] {
  const program = join(installation.binDir, tool)
  if (installation.runAs === null) return [program, args]
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', program, ...args]]
}

function runToCompletion(installation: Installation, tool: string, args: string[]): Promise<void> {
  const [program, programArgs] = command(installation, tool, args)
  return new Promise((resolve, reject) => {
    execFile(program, programArgs, { timeout: 60_000, cwd: tmpdir() }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${tool} failed: ${error.message}\n${stdout}${stderr}`))
      else resolve()
    })
  })
}

interface ServerProcess {
  child: ChildProcess
  output(): string
  stop(): Promise<void>
}

function launchServer(installation: Installation, dataDir: string, socketDir: string, port: number): ServerProcess {
  const [program, args] = command(installation, 'postgres', [
    '-D', dataDir, '-h', '127.0.0.1', '-p', String(port), '-k', socketDir, '-F',
    '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
  ])
  const child = spawn(program, args, { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString('utf8')).slice(-16_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // If the test process dies without stop(), do not leave a server behind.
  const killOnExit = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT')
  }
  process.once('exit', killOnExit)
  return {
    child,
    output: () => log,
    stop: async () => {
      process.removeListener('exit', killOnExit)
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGINT') // fast shutdown: disconnect clients, then exit cleanly
      if (await settlesWithin(exited, STOP_TIMEOUT_MS)) return
      child.kill('SIGKILL')
      await exited
    },
  }
}

async function waitUntilAccepting(server: ServerProcess, port: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`postgres exited (${server.child.exitCode ?? server.child.signalCode}) before accepting connections:\n${server.output()}`)
    }
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
    try {
      await client.connect()
      await client.end()
      return
    } catch (error) {
      await client.end().catch(() => undefined)
      if (Date.now() > deadline) {
        throw new Error(`postgres did not accept connections on port ${port} within ${START_TIMEOUT_MS} ms: ${String(error)}\n${server.output()}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

async function createDatabase(port: number): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${DATABASE}`)
  } finally {
    await client.end()
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    void promise.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
