// Resident memory of a real `tessera up` process with the demo surfaces, idle, and what
// each further MCP session costs it. The peer is a bare Node process that only imports
// nothing and waits: the floor any Node server starts from on this machine.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sessionFetch } from '@tessera/protocol'
import { fmt } from './stats.js'

const cli = fileURLToPath(new URL('../packages/hub/dist/cli/main.js', import.meta.url))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN)
  return kb / 1024
}

async function waitFor(check, ms) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (check()) return true
    await sleep(100)
  }
  return false
}

export async function benchHubMemory(sessions = 100) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-mem-'))
  // One principal opens every session here, so the hub is configured to allow that many (32 by default).
  const config = join(dataDir, 'tessera.config.json')
  writeFileSync(config, JSON.stringify({ limits: { mcpSessionsPerPrincipal: sessions } }))
  const hub = spawn(process.execPath, [cli, 'up', '--data', dataDir, '--port', '0', '--config', config], { stdio: ['ignore', 'ignore', 'ignore'], env: { ...process.env, CI: 'true' } })
  const bare = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' })
  try {
    if (!(await waitFor(() => existsSync(join(dataDir, 'hub.json')), 20_000))) throw new Error('the hub did not start')
    const { mcpUrl } = JSON.parse(readFileSync(join(dataDir, 'hub.json'), 'utf8'))
    const token = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
    await sleep(1500)
    const idle = rssMiB(hub.pid)
    const bareRss = rssMiB(bare.pid)
    const clients = []
    for (let i = 0; i < sessions; i += 1) {
      const client = new Client({ name: `mem-${i}`, version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      await client.listTools()
      clients.push(client)
    }
    await sleep(1500)
    const loaded = rssMiB(hub.pid)
    await Promise.all(clients.map((c) => c.close()))
    const perSession = (loaded - idle) / sessions
    return {
      name: `Hub memory: tessera up with the demo surfaces, then ${sessions} MCP sessions`,
      budget: 'idle ≤ 200 MB resident; each further MCP session ≤ 1 MB',
      ok: idle <= 200 && perSession <= 1,
      rows: [
        ['hub idle RSS (MiB)', fmt(idle, 1)],
        ['peer: bare node process RSS (MiB)', fmt(bareRss, 1)],
        ['ratio hub / bare node', fmt(idle / bareRss, 2)],
        [`RSS with ${sessions} sessions open (MiB)`, fmt(loaded, 1)],
        ['per MCP session (MiB)', fmt(perSession, 3)],
      ],
    }
  } finally {
    hub.kill('SIGINT')
    bare.kill('SIGTERM')
    await waitFor(() => hub.exitCode !== null || hub.signalCode !== null, 10_000)
    rmSync(dataDir, { recursive: true, force: true })
  }
}
