import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
export const cliPath = fileURLToPath(new URL('../../packages/hub/dist/cli/main.js', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  cwd?: string
  timeoutMs?: number
  env?: Record<string, string>
}

function requireBuiltCli(): void {
  if (!existsSync(cliPath)) throw new Error(`expected the built CLI at ${cliPath}; run \`npm run build\` first`)
}

/**
 * The environment a CLI child sees: the test's own, without TESSERA_* variables that would
 * silently override flags, and without colour so output can be matched.
 */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('TESSERA_')) delete env[key]
  return { ...env, ...extra }
}

/** Runs the built `tessera` CLI as a user would; `npm test` builds before it runs tests. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  requireBuiltCli()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd ?? repoRoot, env: cliEnv(options.env) })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

export interface HubJson {
  url: string
  mcpUrl: string
  consoleUrl: string
  pid: number
  startedAt: string
  store: string
}

export interface CliHub {
  child: ChildProcessWithoutNullStreams
  dataDir: string
  hub: HubJson
  stdout(): string
  stderr(): string
  /** SIGINT, as Ctrl-C would; resolves with the exit code once the process is gone. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; hubJsonRemoved: boolean }>
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function readHubJson(dataDir: string): HubJson | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'hub.json'), 'utf8')) as HubJson
  } catch {
    // Not there yet, or half-written.
    return null
  }
}

/**
 * Spawns `tessera up --data DIR --port 0 …` as a long-running child and waits (bounded)
 * until DIR/hub.json names it and it has printed its banner. Every caller must call stop().
 */
export async function startCliHub(dataDir: string, args: string[] = [], options: CliOptions = {}): Promise<CliHub> {
  requireBuiltCli()
  const child = spawn(process.execPath, [cliPath, 'up', '--data', dataDir, '--port', '0', ...args], { cwd: options.cwd ?? repoRoot, env: cliEnv(options.env) })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal }
      resolve(exited)
    })
  })
  const stop: CliHub['stop'] = async () => {
    if (exited === null) child.kill('SIGINT')
    const timeout = delay(10_000).then(() => null)
    const result = await Promise.race([exit, timeout])
    if (result === null) {
      child.kill('SIGKILL')
      await exit
      throw new Error(`tessera up did not exit within 10 s of SIGINT; stderr:\n${stderr}`)
    }
    return { ...result, hubJsonRemoved: !existsSync(join(dataDir, 'hub.json')) }
  }
  const deadline = Date.now() + (options.timeoutMs ?? 20_000)
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`tessera up exited early (${JSON.stringify(exited)}); stderr:\n${stderr}\nstdout:\n${stdout}`)
    const hub = readHubJson(dataDir)
    if (hub !== null && hub.pid === child.pid && stdout.includes('Press Ctrl-C')) {
      return { child, dataDir, hub, stdout: () => stdout, stderr: () => stderr, stop }
    }
    await delay(50)
  }
  await stop().catch(() => undefined)
  throw new Error(`tessera up did not write ${dataDir}/hub.json within ${options.timeoutMs ?? 20_000} ms; stderr:\n${stderr}`)
}
