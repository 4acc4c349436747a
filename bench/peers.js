// Peers of the benchmarks, and the hub they are set against, each started the same way:
//   - an MCP server from npm, installed once into a scratch folder outside the repository
//     (never into package.json), with --ignore-scripts and no browser download, and started
//     over stdio with the system Chromium named, from a scratch home and working folder;
//   - a Tessera hub on a loopback port with its own data folder, reached with the official
//     MCP SDK client over Streamable HTTP.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sessionFetch } from '@tessera/protocol'
import { loadHubConfig, startHub } from '@tessera/hub'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'

/** Debian's Chromium: every peer and the hub drive this one binary. */
export const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/lib/chromium/chromium'

export const PLAYWRIGHT_MCP = {
  package: '@playwright/mcp',
  version: '0.0.83',
  // The folder bench/lean-results.js installs into too: one install serves both.
  dir: process.env.TESSERA_BENCH_PW_DIR ?? join(tmpdir(), 'tessera-bench-pwmcp-0.0.83'),
  env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
}

export const CHROME_DEVTOOLS_MCP = {
  package: 'chrome-devtools-mcp',
  version: '1.11.0',
  dir: process.env.TESSERA_BENCH_CDT_DIR ?? join(tmpdir(), 'tessera-bench-cdtmcp-1.11.0'),
  env: { PUPPETEER_SKIP_DOWNLOAD: 'true' },
}

/** Tokens of a text in gpt-tokenizer's o200k_base encoding. */
export const tokens = (text) => encode(text).length

/** What a tool answer says to the model: its text parts, joined. */
export const textOf = (result) => (result.content ?? []).map((part) => part.text ?? '').join('\n')

/**
 * A task's calls on one peer, each answer kept with its time: `call` answers a tool's text
 * (a tool error, or an answer waiting on a person, ends the task); `answers` and `ms` say
 * what was read and how long it took. `timeout`: how long one answer may take.
 */
export function recordingCaller(client, { timeout } = {}) {
  const record = { answers: [], ms: 0 }
  record.call = async (name, args) => {
    const start = performance.now()
    const result = await client.callTool({ name, arguments: args }, undefined, timeout === undefined ? undefined : { timeout })
    const took = performance.now() - start
    record.ms += took
    const text = textOf(result)
    record.answers.push({ call: `${name} ${JSON.stringify(args)}`, text, ms: took })
    if (result.isError || text.startsWith('awaiting_approval')) throw new Error(`${name} did not complete: ${text.slice(0, 200)}`)
    return text
  }
  return record
}

/** spawn + wait for 'close' (exit and both pipes drained), collecting stdout and stderr. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ stdout, stderr, code, signal }))
  })
}

/** Installs a peer once (no install scripts, so no browser download); answers its entry script and version. */
export async function installPeer(peer, bin) {
  const manifest = join(peer.dir, 'node_modules', peer.package, 'package.json')
  if (!existsSync(manifest)) {
    process.stderr.write(`  installing ${peer.package}@${peer.version} into ${peer.dir} (peer for this benchmark only; once)…\n`)
    mkdirSync(peer.dir, { recursive: true })
    const installed = await run('npm', ['install', '--prefix', peer.dir, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${peer.package}@${peer.version}`], {
      env: { ...process.env, ...peer.env },
      timeout: 300_000,
    })
    if (installed.code !== 0 || !existsSync(manifest)) throw new Error(`npm install failed: ${(installed.stderr || installed.stdout).trim().split('\n').slice(-2).join(' | ')}`)
  }
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'))
  const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : pkg.bin
  const entry = bins[bin ?? pkg.name] ?? Object.values(bins)[0]
  return { entry: join(peer.dir, 'node_modules', peer.package, entry), version: pkg.version }
}

/** An MCP server over stdio from a scratch home and working folder (where it may write files), removed on close. */
async function stdioPeer(entry, args, env) {
  const home = mkdtempSync(join(tmpdir(), 'tessera-bench-peer-home-'))
  const client = new Client({ name: 'tessera-bench', version: '1' })
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, ...args],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env },
    cwd: home,
    stderr: 'ignore',
  })
  await client.connect(transport)
  return {
    client,
    home,
    async close() {
      await client.close().catch(() => undefined)
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/**
 * Playwright MCP with its default tools, headless on the system Chromium. `--no-sandbox`
 * because Chromium refuses its sandbox as root (as in a container); Playwright, which the
 * hub drives Chromium with, launches without it too.
 */
export async function startPlaywrightMcp({ viewport = '1280x800' } = {}) {
  const { entry, version } = await installPeer(PLAYWRIGHT_MCP)
  const args = ['--headless', '--executable-path', CHROMIUM, '--isolated', '--viewport-size', viewport]
  if (process.getuid?.() === 0) args.push('--no-sandbox')
  return { version, ...(await stdioPeer(entry, args, PLAYWRIGHT_MCP.env)) }
}

/** chrome-devtools-mcp headless on the system Chromium, with no usage statistics, update checks or CrUX look-ups. */
export async function startChromeDevtoolsMcp({ viewport = '1280x800' } = {}) {
  const { entry, version } = await installPeer(CHROME_DEVTOOLS_MCP, 'chrome-devtools-mcp')
  const args = ['--headless', '--executablePath', CHROMIUM, '--isolated', '--viewport', viewport, '--no-page-id-routing', '--no-usage-statistics', '--no-performance-crux']
  if (process.getuid?.() === 0) args.push('--chromeArg=--no-sandbox')
  const env = { ...CHROME_DEVTOOLS_MCP.env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1', CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1', CI: '1' }
  return { version, ...(await stdioPeer(entry, args, env)) }
}

/** A hub of its own (risky calls answer at once, generous rate limits) and an agent's MCP client on it. */
export async function startTesseraHub() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-hub-'))
  const hub = await startHub(
    loadHubConfig({
      file: undefined,
      overrides: { dataDir, port: 0, approvals: { waitMs: 0 }, limits: { requestsPerMinute: 1_000_000, bodyBytes: 1_048_576, dispatchTimeoutMs: 60_000 } },
      env: {},
    }),
  )
  const token = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
  const client = new Client({ name: 'tessera-bench', version: '1' })
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(hub.mcpUrl), { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  } catch (error) {
    await hub.stop()
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  return {
    hub,
    client,
    dataDir,
    async close() {
      await client.close().catch(() => undefined)
      await hub.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
