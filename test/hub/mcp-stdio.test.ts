import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { ActionResult, Approval, TraceEvent } from '@tessera/protocol'
import { afterAll, describe, expect, it } from 'vitest'
import { removeDir } from '../support/hub.js'
import { type CliHub, cliEnv, cliPath, repoRoot, runCli, startCliHub } from '../support/run-cli.js'

type Structured = { result: ActionResult }

function text(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n')
}

interface StdioClient {
  client: Client
  transport: StdioClientTransport
  stderr(): string
}

/** The official SDK client spawning `tessera mcp --data DIR [more]`, as Claude Desktop would. */
async function connectStdio(dataDir: string, more: string[] = []): Promise<StdioClient> {
  const env = Object.fromEntries(Object.entries(cliEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined))
  const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp', '--data', dataDir, ...more], cwd: repoRoot, env, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name: 'tessera-stdio-test', version: '1.0.0' })
  await client.connect(transport)
  return { client, transport, stderr: () => stderr }
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

describe('tessera mcp over stdio, official SDK client', () => {
  const dirs: string[] = []
  const hubs: CliHub[] = []
  const clients: StdioClient[] = []
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-stdio-'))
    dirs.push(dir)
    return dir
  }
  afterAll(async () => {
    for (const c of clients) await c.client.close().catch(() => undefined)
    for (const hub of hubs) await hub.stop().catch(() => undefined)
    for (const dir of dirs) removeDir(dir)
  })

  it('with no hub running, starts one in process: tools, snapshot, a payout that waits, approved from the CLI', async () => {
    const dataDir = tempDir()
    const stdio = await connectStdio(dataDir)
    clients.push(stdio)
    const { client } = stdio
    expect(client.getServerVersion()?.name).toBe('tessera')

    const names = (await client.listTools()).tools.map((t) => t.name)
    for (const name of ['surfaces_list', 'surface_snapshot', 'action_request', 'approval_status', 'trace_tail', 'claims__open-claim', 'claims__export-claims']) expect(names).toContain(name)
    const snapshot = await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims' } })
    expect(text(snapshot)).toContain('[open-claim read input]')

    const opened = await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1003' } })
    expect((opened.structuredContent as Structured).result.status).toBe('completed')
    const pending = await client.callTool({ name: 'claims__approve-payout', arguments: {} })
    const waiting = (pending.structuredContent as Structured).result
    expect(waiting.status).toBe('awaiting_approval')
    expect(waiting.session).toMatch(/^mcp-stdio-\d+$/)

    // The in-process hub announced itself in hub.json, so the human channel reaches it.
    const hubJson = JSON.parse(readFileSync(join(dataDir, 'hub.json'), 'utf8')) as { pid: number; url: string }
    expect(hubJson.pid).toBe(stdio.transport.pid)
    const approved = await runCli(['approvals', 'approve', waiting.approvalId!, '--data', dataDir])
    expect(approved.stderr).toBe('')
    expect(approved.stdout).toBe(`approved ${waiting.approvalId}: the action ended completed\n`)

    const status = await client.callTool({ name: 'approval_status', arguments: { approvalId: waiting.approvalId } })
    expect(text(status)).toContain('consumed by admin; the action ended completed')
    expect((status.structuredContent as { approval: Approval }).approval.result?.diff).toContainEqual({ op: 'replace', path: '/claim/status', value: 'approved' })
    const tail = text(await client.callTool({ name: 'trace_tail', arguments: { limit: 50 } }))
    expect(tail).toMatch(/approved admin claims\/approve-payout/)
    expect(tail).toMatch(/completed agent claims\/approve-payout/)

    // Closing stdin ends the process promptly (well before the SDK's 2 s SIGTERM fallback),
    // and the hub it started stops cleanly: hub.json is gone, the trace verifies.
    const started = Date.now()
    await client.close()
    clients.splice(clients.indexOf(stdio), 1)
    expect(Date.now() - started).toBeLessThan(1_900)
    expect(existsSync(join(dataDir, 'hub.json'))).toBe(false)
    const verify = await runCli(['trace', 'verify', join(dataDir, 'trace.db'), '--session', waiting.session])
    expect(verify.code).toBe(0)
    expect(verify.stdout).toMatch(/^ok\s+mcp-stdio-\d+: \d+ events/m)
  })

  it('with a hub running on the folder, bridges to it: the call is traced on that hub, and the session ends with the bridge', async () => {
    const dataDir = tempDir()
    const running = await startCliHub(dataDir)
    hubs.push(running)
    const admin = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim()
    const before = await getJson<{ sessions: Array<{ session: string }> }>(`${running.hub.url}/api/sessions`, admin)

    const stdio = await connectStdio(dataDir)
    clients.push(stdio)
    const { client } = stdio
    expect(stdio.transport.pid).not.toBe(running.hub.pid)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(['surfaces_list', 'claims__open-claim', 'claims__export-claims']))
    const listed = await client.callTool({ name: 'surfaces_list', arguments: {} })
    expect((listed.structuredContent as { surfaces: Array<{ id: string }> }).surfaces.map((s) => s.id)).toEqual(['claims', 'files', 'term-1', 'map'])
    const opened = await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1004' } })
    const result = (opened.structuredContent as Structured).result
    expect(result.status).toBe('completed')
    expect(stdio.stderr()).toContain(`bridging stdio to ${running.hub.mcpUrl}`)

    // The running hub recorded it, under a new session of the agent principal.
    const after = await getJson<{ sessions: Array<{ session: string }> }>(`${running.hub.url}/api/sessions`, admin)
    const added = after.sessions.map((s) => s.session).filter((s) => !before.sessions.some((b) => b.session === s))
    expect(added).toEqual([result.session])
    const trace = await getJson<{ events: TraceEvent[] }>(`${running.hub.url}/api/trace/${encodeURIComponent(result.session)}`, admin)
    expect(trace.events.map((e) => `${e.type} ${e.actor} ${e.action ?? ''}`)).toContain('completed agent open-claim')
    const health = await getJson<{ mcpSessions: number }>(`${running.hub.url}/api/health`, admin)
    expect(health.mcpSessions).toBe(1)

    // The bridge ends its hub session when its client leaves.
    await client.close()
    clients.splice(clients.indexOf(stdio), 1)
    const deadline = Date.now() + 5_000
    let sessions = 1
    while (Date.now() < deadline && sessions !== 0) {
      sessions = (await getJson<{ mcpSessions: number }>(`${running.hub.url}/api/health`, admin)).mcpSessions
      if (sessions !== 0) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(sessions).toBe(0)
  })

  it('a bridge whose hub went away answers requests with an error instead of leaving them hanging', async () => {
    const dataDir = tempDir()
    const running = await startCliHub(dataDir)
    hubs.push(running)
    const stdio = await connectStdio(dataDir)
    clients.push(stdio)
    expect((await stdio.client.listTools()).tools.length).toBeGreaterThan(6)
    expect(await running.stop()).toMatchObject({ code: 0 })
    const started = Date.now()
    await expect(stdio.client.callTool({ name: 'surfaces_list', arguments: {} }, undefined, { timeout: 10_000 })).rejects.toThrow(/refused or failed/)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('--tools lists the generic tools and the named kinds, in process and through a bridge; an unknown name stops it with what it accepts', async () => {
    const generic = ['surfaces_list', 'surface_snapshot', 'action_request', 'surface_act', 'approval_status', 'trace_tail']
    const alone = await connectStdio(tempDir(), ['--tools', 'app'])
    clients.push(alone)
    expect((await alone.client.listTools()).tools.map((t) => t.name)).toEqual([...generic, 'claims__export-claims', 'claims__open-claim'])

    const dataDir = tempDir()
    const running = await startCliHub(dataDir)
    hubs.push(running)
    const bridged = await connectStdio(dataDir, ['--tools', 'files'])
    clients.push(bridged)
    const names = (await bridged.client.listTools()).tools.map((t) => t.name)
    expect(names.filter((name) => !generic.includes(name))).toEqual(['file_list', 'file_navigate', 'file_find', 'file_read', 'file_write', 'file_edit'])
    const refused = await bridged.client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1004' } })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toContain('tools=files')

    const wrong = await runCli(['mcp', '--data', tempDir(), '--tools', 'files,fiels'])
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toMatch(/--tools: expected a kind or a tool name, found "fiels"/)
  })
})
