import { type ChildProcess, spawn } from 'node:child_process'
import { TesseraError } from '@tessera/protocol'
import { type Browser, chromium } from 'playwright-core'

/** An Electron app (or any Chromium-based one) a tile drives through its DevTools endpoint. */
export interface AppTarget {
  /** Start it: the command and its arguments; `--remote-debugging-port=0` is added. */
  command?: readonly string[]
  /** Or attach to one already running with a remote-debugging port: `http://127.0.0.1:9222`. */
  endpoint?: string
}

export interface AttachedApp {
  browser: Browser
  /** The process the tile started, ended with the tile; none when it attached to a running app. */
  child?: ChildProcess
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])
const START_TIMEOUT_MS = 30_000

function loopbackOnly(endpoint: string): string {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new TesseraError('invalid_input', `expected a DevTools endpoint URL such as http://127.0.0.1:9222, found "${endpoint}"`, { found: endpoint })
  }
  if (!LOOPBACK.has(url.hostname)) throw new TesseraError('forbidden', `a DevTools endpoint must be on this machine's loopback, found ${url.hostname}`, { expected: [...LOOPBACK], found: url.hostname })
  return endpoint
}

/** Starts the app with a DevTools port of the system's choosing and reads where it listens. */
function start(command: readonly string[]): Promise<{ endpoint: string; child: ChildProcess }> {
  const [file, ...args] = command
  if (file === undefined) throw new TesseraError('invalid_input', 'expected an app command, found an empty list', { found: [] })
  const child = spawn(file, [...args, '--remote-debugging-port=0'], { stdio: ['ignore', 'ignore', 'pipe'] })
  return new Promise((resolve, reject) => {
    let said = ''
    const fail = (why: string): void => {
      clearTimeout(timer)
      if (child.exitCode === null) child.kill('SIGTERM')
      const lastWords = said.trim().split('\n').pop()?.slice(0, 300)
      reject(new TesseraError('not_found', `the app ${file} did not open a DevTools port: ${why}${lastWords ? ` (it said: ${lastWords})` : ''}`, { expected: 'a Chromium or Electron app that accepts --remote-debugging-port', found: said.slice(-500) }))
    }
    const timer = setTimeout(() => fail(`nothing after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS)
    child.once('error', (error) => fail(error.message))
    child.once('exit', (code) => fail(`it exited with ${code}`))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(said)
      if (found?.[1] === undefined) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      child.removeAllListeners('error')
      resolve({ endpoint: found[1], child })
    })
  })
}

/** How long an app has to end after SIGTERM before it is killed. */
const END_TIMEOUT_MS = 5_000

/**
 * Ends an app the tile started and waits until it has: its profile folder is free to remove
 * or reuse when this returns. One that ignores SIGTERM gets SIGKILL.
 */
export async function endApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), END_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

/** The same code path as a browser tile's own Chromium: Playwright over CDP, to the app's windows. */
export async function attachApp(target: AppTarget): Promise<AttachedApp> {
  if (target.command !== undefined) {
    const { endpoint, child } = await start(target.command)
    try {
      return { browser: await chromium.connectOverCDP(loopbackOnly(endpoint)), child }
    } catch (error) {
      await endApp(child)
      throw error
    }
  }
  if (target.endpoint === undefined) throw new TesseraError('invalid_input', 'expected an app command or a DevTools endpoint, found neither', { expected: ['command', 'endpoint'], found: null })
  try {
    return { browser: await chromium.connectOverCDP(loopbackOnly(target.endpoint)) }
  } catch (error) {
    if (error instanceof TesseraError) throw error
    throw new TesseraError('not_found', `no DevTools endpoint answers at ${target.endpoint}: ${(error as Error).message.split('\n')[0]}`, { found: target.endpoint })
  }
}
