import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { ActionResult, Approval } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttpClient, removeDir } from '../support/hub.js'
import { type CliHub, runCli, startCliHub } from '../support/run-cli.js'

type Structured = { result: ActionResult }

function text(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n')
}

async function get(url: string, token?: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {})
  const body = await response.text()
  let json: unknown = body
  try {
    json = JSON.parse(body)
  } catch {
    // an HTML page: the caller asserts on the status
  }
  return { status: response.status, json }
}

async function redeemLogin(link: string): Promise<number> {
  const url = new URL(link)
  const code = new URLSearchParams(url.hash.slice(1)).get('code')
  const response = await fetch(`${url.origin}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
  await response.text()
  return response.status
}

describe('tessera up as a real process, driven by the CLI and an MCP client', () => {
  let dataDir: string
  let running: CliHub
  let stopped = false
  let agentToken: string
  let adminToken: string
  let client: Client
  let mcpSession = ''

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-cli-hub-'))
    running = await startCliHub(dataDir)
    agentToken = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
    adminToken = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim()
    client = await connectHttpClient(running.hub.mcpUrl, agentToken)
  })

  afterAll(async () => {
    await client?.close().catch(() => undefined)
    if (running && !stopped) await running.stop()
    removeDir(dataDir)
  })

  it('writes hub.json with the URL, MCP URL and pid once ready', async () => {
    expect(running.hub.pid).toBe(running.child.pid)
    expect(running.hub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(running.hub.mcpUrl).toBe(`${running.hub.url}/mcp`)
    const health = await get(`${running.hub.url}/api/health`)
    expect(health).toMatchObject({ status: 200, json: { ok: true, surfaces: 3 } })
  })

  it('prints a console login link, the MCP URL, client configs and the first-start tokens', async () => {
    const out = running.stdout()
    const link = /Console\s+(http:\/\/127\.0\.0\.1:\d+\/#code=\S+)/.exec(out)?.[1]
    expect(link).toBeDefined()
    expect(out).toContain(`MCP       ${running.hub.mcpUrl}`)
    expect(out).toMatch(/Tiles\s+claims \(app\)\s+running/)

    // The Claude Desktop block is real JSON that starts this CLI over stdio on this folder.
    const start = out.indexOf('{', out.indexOf('Claude Desktop'))
    const end = out.indexOf('\n}', start) + 2
    const desktop = JSON.parse(out.slice(start, end)) as { mcpServers: { tessera: { command: string; args: string[] } } }
    expect(desktop.mcpServers.tessera.command).toBe(process.execPath)
    expect(desktop.mcpServers.tessera.args.slice(1)).toEqual(['mcp', '--data', dataDir])
    expect(existsSync(desktop.mcpServers.tessera.args[0]!)).toBe(true)

    expect(out).toContain(`claude mcp add --transport http tessera ${running.hub.mcpUrl} --header "Authorization: Bearer ${agentToken}"`)
    expect(out).toMatch(new RegExp(`admin\\s+${adminToken}`))
    expect(out).toMatch(new RegExp(`agent\\s+${agentToken}`))
    // The one-time link signs a browser in once, and only once.
    expect(await redeemLogin(link!)).toBe(200)
    expect(await redeemLogin(link!)).toBe(401)
  })

  it('token create prints a token the running hub accepts at once; revoke shuts it out without a restart; list shows no secrets', async () => {
    const created = await runCli(['token', 'create', '--role', 'viewer', '--name', 'watcher', '--data', dataDir])
    expect(created.code).toBe(0)
    const token = created.stdout.trim()
    expect(token).toMatch(/^tsr_[A-Za-z0-9_-]{43}$/)
    expect(created.stderr).toMatch(/created tok_[0-9a-f]{8} for watcher \(viewer\)/)
    expect((await get(`${running.hub.url}/api/tiles`, token)).status).toBe(200)

    const listed = await runCli(['token', 'list', '--data', dataDir])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/tok_[0-9a-f]{8}\s+watcher\s+viewer/)
    expect(listed.stdout).toMatch(/admin\s+admin,approver/)
    for (const secret of [token, agentToken, adminToken]) expect(listed.stdout + listed.stderr).not.toContain(secret)
    expect(listed.stdout).not.toContain('tsr_')

    const revoked = await runCli(['token', 'revoke', 'watcher', '--data', dataDir])
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toMatch(/^revoked tok_[0-9a-f]{8} \(watcher\)/)
    expect((await get(`${running.hub.url}/api/tiles`, token)).status).toBe(401)
    expect((await runCli(['token', 'list', '--data', dataDir])).stdout).toMatch(/watcher\s+viewer\s+revoked /)

    const badRole = await runCli(['token', 'create', '--role', 'overlord', '--data', dataDir])
    expect(badRole.code).toBe(1)
    expect(badRole.stderr).toContain('error [invalid_request]')
  })

  it('claims flow: approve-payout waits; `approvals list` shows it; the agent token cannot approve; `approvals approve` completes it', async () => {
    const opened = await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1001' } })
    expect((opened.structuredContent as Structured).result.status).toBe('completed')
    const pending = await client.callTool({ name: 'claims__approve-payout', arguments: {} })
    const waiting = (pending.structuredContent as Structured).result
    expect(waiting.status).toBe('awaiting_approval')
    mcpSession = waiting.session
    const id = waiting.approvalId!

    const listed = await runCli(['approvals', 'list', '--data', dataDir])
    expect(listed.code).toBe(0)
    // What a person needs to decide, before any id or JSON.
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+pending\\s+Approve payout of €1,250 to Ada Brennan for claim c-1001`))
    expect(listed.stdout).toMatch(/claims\/approve-payout · risk write · asked by agent/)
    expect(listed.stdout).toContain('why: write action "approve-payout" needs a human approval')
    expect(listed.stdout).toContain('held: claim.fraudScore < 0.75   (claim.fraudScore = 0.12)')

    // The agent's own token on the human channel: refused, and the approval stays pending.
    const byAgent = await runCli(['approvals', 'approve', id, '--data', dataDir, '--token', agentToken])
    expect(byAgent.code).toBe(1)
    expect(byAgent.stderr).toContain('error [forbidden]')
    const stillPending = await runCli(['approvals', 'list', '--status', 'pending', '--data', dataDir])
    expect(stillPending.stdout).toContain(id)

    const approved = await runCli(['approvals', 'approve', id, '--data', dataDir, '--note', 'receipts checked'])
    expect(approved.stderr).toBe('')
    expect(approved.code).toBe(0)
    expect(approved.stdout).toBe(`approved ${id}: the action ended completed\n`)

    const status = await client.callTool({ name: 'approval_status', arguments: { approvalId: id } })
    expect(text(status)).toContain(`approval ${id}: consumed by admin; the action ended completed`)
    const approval = (status.structuredContent as { approval: Approval }).approval
    expect(approval).toMatchObject({ status: 'consumed', resolvedBy: 'admin', note: 'receipts checked' })
    // completed means the postcondition claim.status === "approved" held on the next frame.
    expect(approval.result?.status).toBe('completed')
    expect(approval.result?.diff).toContainEqual({ op: 'replace', path: '/claim/status', value: 'approved' })

    const again = await runCli(['approvals', 'approve', id, '--data', dataDir])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('error [conflict]')
    const unknown = await runCli(['approvals', 'approve', 'apr_nope', '--data', dataDir])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('error [not_found]')
  })

  it('`approvals deny` with an approver token from `token create` stops a delete-claim', async () => {
    const approverToken = (await runCli(['token', 'create', '--role', 'approver', '--name', 'reviewer', '--data', dataDir])).stdout.trim()
    const pending = await client.callTool({ name: 'claims__delete-claim', arguments: {} })
    const waiting = (pending.structuredContent as Structured).result
    expect(waiting.status).toBe('awaiting_approval')
    const id = waiting.approvalId!

    const denied = await runCli(['approvals', 'deny', id, '--data', dataDir, '--token', approverToken, '--note', 'keep the record'])
    expect(denied.stderr).toBe('')
    expect(denied.code).toBe(0)
    expect(denied.stdout).toBe(`denied ${id}\n`)

    const status = await client.callTool({ name: 'approval_status', arguments: { approvalId: id } })
    expect((status.structuredContent as { approval: Approval }).approval).toMatchObject({ status: 'denied', resolvedBy: 'reviewer' })
    const frame = JSON.parse(text(await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims', format: 'json' } }))) as { state: { claims: unknown[]; claim: { id: string } | null } }
    expect(frame.state.claims).toHaveLength(4)
    expect(frame.state.claim?.id).toBe('c-1001')
    const listed = await runCli(['approvals', 'list', '--status', 'denied', '--data', dataDir])
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+denied\\s+Delete claim c-1001 of Ada Brennan \\(€1,250\\) for good\\n\\s+claims/delete-claim`))
  })

  it('`trace tail -n 5` prints the latest events of the latest session', async () => {
    const tail = await runCli(['trace', 'tail', '--data', dataDir, '-n', '5'])
    expect(tail.stderr).toBe('')
    expect(tail.code).toBe(0)
    const lines = tail.stdout.trim().split('\n')
    expect(lines).toHaveLength(5)
    for (const line of lines) expect(line).toMatch(/^\s*\d+ {2}\d{4}-\d\d-\d\dT\S+Z {2}\w+/)
    expect(tail.stdout).toMatch(/denied\s+reviewer\s+claims\/delete-claim/)
    const chosen = await runCli(['trace', 'tail', '--data', dataDir, '--session', mcpSession, '-n', '200'])
    expect(chosen.stdout).toMatch(/approved\s+admin\s+claims\/approve-payout/)
    expect(chosen.stdout).toMatch(/completed\s+agent\s+claims\/approve-payout {2}completed/)
  })

  it('`approvals approve` exits non-zero when the approved action could not complete', async () => {
    await client.callTool({ name: 'claims__close-claim', arguments: {} })
    await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1003' } })
    const pending = await client.callTool({ name: 'claims__approve-payout', arguments: {} })
    const waiting = (pending.structuredContent as Structured).result
    expect(waiting.status).toBe('awaiting_approval')
    const id = waiting.approvalId!
    // The frame the person would approve on is gone: the claim was closed meanwhile.
    await client.callTool({ name: 'claims__close-claim', arguments: {} })
    const approved = await runCli(['approvals', 'approve', id, '--data', dataDir])
    expect(approved.stdout).toMatch(new RegExp(`approved ${id}: the action ended (stale_frame|precondition_failed)`))
    expect(approved.code).toBe(2)
  })

  it('a second `up` on the same folder, or on the same port, is refused while the first runs, which keeps serving', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'tessera-cli-other-'))
    const port = new URL(running.hub.url).port
    const [second, samePort] = await Promise.all([runCli(['up', '--data', dataDir, '--port', '0']), runCli(['up', '--data', otherDir, '--port', port])]).finally(() => removeDir(otherDir))
    expect(samePort.code).toBe(1)
    expect(samePort.stderr).toContain(`error [conflict]: 127.0.0.1:${port} is already in use`)
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`error [conflict]: a hub is already running on ${dataDir}: ${running.hub.url} (pid ${running.hub.pid})`)
    expect(JSON.parse(readFileSync(join(dataDir, 'hub.json'), 'utf8'))).toMatchObject({ pid: running.hub.pid })
    expect((await get(`${running.hub.url}/api/health`)).status).toBe(200)
  })

  it('`login` prints a one-time console link for the running hub', async () => {
    const login = await runCli(['login', '--data', dataDir])
    expect(login.code).toBe(0)
    const link = login.stdout.trim()
    expect(link).toMatch(new RegExp(`^${running.hub.url}/#code=lgn_[A-Za-z0-9_-]+$`))
    expect(await redeemLogin(link)).toBe(200)
  })

  it('stops cleanly on SIGINT, removes hub.json, and `trace verify` proves the trace intact', async () => {
    await client.close()
    const result = await running.stop()
    stopped = true
    expect(result).toMatchObject({ code: 0, signal: null, hubJsonRemoved: true })
    expect(running.stderr()).toContain('stopping the hub')

    const verify = await runCli(['trace', 'verify', join(dataDir, 'trace.db')])
    expect(verify.stderr).not.toContain('error')
    expect(verify.code).toBe(0)
    expect(verify.stdout).toMatch(new RegExp(`^ok\\s+${mcpSession}: \\d+ events`, 'm'))
    expect(verify.stdout).not.toContain('BROKEN')

    // Without a store: the one `tessera up --data` used.
    const byData = await runCli(['trace', 'verify', '--data', dataDir])
    expect(byData.code).toBe(0)
    // The same chains, and by --data the hub's signed checkpoints too.
    expect(byData.stdout.startsWith(verify.stdout)).toBe(true)
    expect(byData.stdout.slice(verify.stdout.length)).toMatch(/^anchored {2}\d+ session head\(s\) match the hub's signed checkpoints\n$/)
    const nowhere = await runCli(['trace', 'verify', '--data', join(dataDir, 'nowhere')])
    expect(nowhere.code).toBe(1)
    expect(nowhere.stderr).toContain(`error [not_found]: no trace store at ${join(dataDir, 'nowhere', 'trace.db')}`)

    const ghost = await runCli(['trace', 'verify', join(dataDir, 'trace.db'), '--session', 'ghost'])
    expect(ghost.code).toBe(1)
    expect(ghost.stderr).toContain('error [not_found]: no session "ghost"')

    const noHub = await runCli(['approvals', 'list', '--data', dataDir])
    expect(noHub.code).toBe(1)
    expect(noHub.stderr).toContain('error [not_found]: no running hub found')
  })
})

describe('tessera up configuration', () => {
  const dirs: string[] = []
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-cli-config-'))
    dirs.push(dir)
    return dir
  }
  afterAll(() => {
    for (const dir of dirs) removeDir(dir)
  })

  it('reads --config (here: no demo surfaces), and a second start on the same folder creates no new tokens', async () => {
    const dir = tempDir()
    const config = join(dir, 'tessera.config.json')
    writeFileSync(config, JSON.stringify({ demo: false, limits: { requestsPerMinute: 1200 } }))
    const data = join(dir, 'data')
    const first = await startCliHub(data, ['--config', config])
    try {
      expect(first.stdout()).toMatch(/Tiles\s+none/)
      expect(first.stdout()).toContain('First start: created tokens')
      const admin = readFileSync(join(data, 'admin.token'), 'utf8').trim()
      expect((await get(`${first.hub.url}/api/tiles`, admin)).json).toEqual({ tiles: [] })
    } finally {
      expect(await first.stop()).toMatchObject({ code: 0, hubJsonRemoved: true })
    }
    const second = await startCliHub(data, ['--config', config])
    try {
      expect(second.stdout()).not.toContain('First start')
      expect(second.stdout()).toContain(`Tokens: ${join(data, 'agent.token')} (agent)`)
      expect(second.stdout()).not.toContain('tsr_')
    } finally {
      expect(await second.stop()).toMatchObject({ code: 0, hubJsonRemoved: true })
    }
  })

  it('refuses a config that is not JSON, a port that is not a number, and a missing config file, with exit 1 and a typed error', async () => {
    const dir = tempDir()
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, '{ "port": 7300, ')
    const wrongType = join(dir, 'wrong.json')
    writeFileSync(wrongType, JSON.stringify({ port: 'abc' }))
    // Independent processes: run them side by side.
    const [notJson, badFilePort, badFlagPort, outOfRange, missing] = await Promise.all([
      runCli(['up', '--data', dir, '--config', broken]),
      runCli(['up', '--data', dir, '--config', wrongType]),
      runCli(['up', '--data', dir, '--port', 'abc']),
      runCli(['up', '--data', dir, '--port', '70000']),
      runCli(['up', '--data', dir, '--config', join(dir, 'nope.json')]),
    ])
    expect(notJson.code).toBe(1)
    expect(notJson.stderr).toContain('error [invalid_request]')
    expect(notJson.stderr).toContain('is not valid JSON')
    expect(badFilePort.code).toBe(1)
    expect(badFilePort.stderr).toContain('error [invalid_request]')
    expect(badFilePort.stderr).toContain('port')
    expect(badFlagPort.code).toBe(1)
    expect(badFlagPort.stderr).toContain('error [invalid_request]')
    expect(badFlagPort.stderr).toContain('"abc"')
    expect(outOfRange.code).toBe(1)
    expect(outOfRange.stderr).toContain('error [invalid_request]')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('error [not_found]')

    expect(existsSync(join(dir, 'hub.json'))).toBe(false)
  })
})
