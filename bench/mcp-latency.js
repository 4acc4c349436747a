// MCP tool-call latency over Streamable HTTP on loopback, against the same call in process
// (the SDK's in-memory transport): what the HTTP transport, auth and JSON-RPC framing add.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sessionFetch } from '@tessera/protocol'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { loadHubConfig, McpSession, startHub } from '@tessera/hub'
import { fmt, percentile, sample } from './stats.js'

export async function benchMcpLatency(iterations = 2000) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-hub-'))
  const hub = await startHub(loadHubConfig({ overrides: { dataDir, port: 0, limits: { requestsPerMinute: 10_000_000, bodyBytes: 1_048_576, dispatchTimeoutMs: 30_000 } }, env: {} }))
  try {
    const token = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
    const http = new Client({ name: 'bench', version: '1' })
    await http.connect(new StreamableHTTPClientTransport(new URL(hub.mcpUrl), { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    const local = new Client({ name: 'bench', version: '1' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const session = new McpSession(hub.ctx, { id: 'agent', roles: ['agent'] }, 'bench-in-process')
    await session.server.connect(serverSide)
    await local.connect(clientSide)

    const call = (client) => async () => {
      const result = await client.callTool({ name: 'surfaces_list', arguments: {} })
      if (result.isError) throw new Error('call failed')
    }
    const overHttp = await sample(call(http), { iterations })
    const inProcess = await sample(call(local), { iterations })
    const snapshotHttp = await sample(async () => {
      await http.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims' } })
    }, { iterations: Math.ceil(iterations / 4) })
    await http.close()
    await local.close()
    const p50 = percentile(overHttp, 50)
    return {
      name: 'MCP tool call over Streamable HTTP on loopback (surfaces_list)',
      budget: 'p50 ≤ 5 ms',
      ok: p50 <= 5,
      rows: [
        ['HTTP p50 (ms)', fmt(p50)],
        ['HTTP p99 (ms)', fmt(percentile(overHttp, 99))],
        ['peer: same call in process, p50 (ms)', fmt(percentile(inProcess, 50))],
        ['peer: same call in process, p99 (ms)', fmt(percentile(inProcess, 99))],
        ['ratio HTTP / in process (p50)', fmt(p50 / percentile(inProcess, 50), 2)],
        ['surface_snapshot over HTTP p50 (ms)', fmt(percentile(snapshotHttp, 50))],
      ],
    }
  } finally {
    await hub.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
