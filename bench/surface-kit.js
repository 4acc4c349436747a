// One action with 10 MCP sessions attached, before and after the surface kit: the round
// trip of file_write over Streamable HTTP and how many snapshots of the file tile it costs.
// "Before" is the commit before the kit (BASELINE), checked out and built under bench/.work.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sessionFetch } from '@tessera/protocol'
import { fmt, percentile } from './stats.js'

export const BASELINE = 'abde8d9'
const SESSIONS = 10
const ACTIONS = 60
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The baseline tree, built once: its own workspace packages, the current third-party modules. */
export function baselineTree() {
  const dir = join(root, 'bench', '.work', `baseline-${BASELINE}`)
  if (!existsSync(join(dir, 'packages', 'hub', 'dist', 'index.js'))) {
    process.stderr.write(`  building ${BASELINE} in ${dir} (once)…\n`)
    if (!existsSync(dir)) execFileSync('git', ['worktree', 'add', '--detach', dir, BASELINE], { cwd: root, stdio: 'ignore' })
    const modules = join(dir, 'node_modules')
    mkdirSync(join(modules, '@tessera'), { recursive: true })
    for (const entry of readdirSync(join(root, 'node_modules'))) {
      if (entry === '@tessera' || entry === '.bin' || existsSync(join(modules, entry))) continue
      symlinkSync(join(root, 'node_modules', entry), join(modules, entry))
    }
    // The baseline's own packages, by the names they import each other with.
    const workspaces = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).workspaces
    for (const workspace of workspaces) {
      const name = JSON.parse(readFileSync(join(dir, workspace, 'package.json'), 'utf8')).name
      const link = join(modules, name)
      if (!existsSync(link)) symlinkSync(join(dir, workspace), link)
    }
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: dir, stdio: 'inherit' })
  }
  return dir
}

async function measure(label, tree) {
  const { loadHubConfig, startHub } = await import(pathToFileURL(join(tree, 'packages', 'hub', 'dist', 'index.js')).href)
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-kit-'))
  const hub = await startHub(loadHubConfig({ overrides: { dataDir, port: 0, terminals: { openAtStart: false }, limits: { requestsPerMinute: 10_000_000, bodyBytes: 1_048_576, dispatchTimeoutMs: 30_000 } }, env: {} }), { writeHubFile: false })
  const files = hub.ctx.gateway.surfaces().find((surface) => surface.id === 'files')
  let snapshots = 0
  const snapshot = files.snapshot.bind(files)
  files.snapshot = (options) => {
    snapshots += 1
    return snapshot(options)
  }
  const token = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
  const clients = []
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const client = new Client({ name: `bench-${i}`, version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(hub.mcpUrl), { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      await client.listTools()
      clients.push(client)
    }
    const settle = () => new Promise((resolve) => setTimeout(resolve, 120))
    const write = (i) => clients[0].callTool({ name: 'file_write', arguments: { path: '/bench-kit.txt', content: `write ${i}\n` } })
    for (let i = 0; i < 5; i++) await write(i)
    await settle()
    snapshots = 0
    const times = []
    for (let i = 0; i < ACTIONS; i++) {
      const start = performance.now()
      const result = await write(i)
      times.push(performance.now() - start)
      if (result.isError) throw new Error(`${label}: file_write failed: ${JSON.stringify(result.content)}`)
      // Sessions react to the new frame after the call returns; their snapshots count too.
      await settle()
    }
    times.sort((a, b) => a - b)
    return { label, p50: percentile(times, 50), p95: percentile(times, 95), perAction: snapshots / ACTIONS }
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)))
    await hub.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchSurfaceKit() {
  const before = await measure(`before (${BASELINE})`, baselineTree())
  const after = await measure('after', root)
  return {
    name: `file_write with ${SESSIONS} MCP sessions attached: before and after the surface kit (${ACTIONS} calls each, one run)`,
    budget: 'at most one snapshot per action, whatever the number of sessions',
    ok: after.perAction <= 1,
    rows: [
      [`snapshots of the file tile per file_write, ${before.label}`, fmt(before.perAction, 2)],
      ['snapshots of the file tile per file_write, after', fmt(after.perAction, 2)],
      [`round trip p50 / p95 (ms), ${before.label}`, `${fmt(before.p50, 2)} / ${fmt(before.p95, 2)}`],
      ['round trip p50 / p95 (ms), after', `${fmt(after.p50, 2)} / ${fmt(after.p95, 2)}`],
      ['round trip p50, after ÷ before', fmt(after.p50 / before.p50, 2)],
    ],
  }
}
