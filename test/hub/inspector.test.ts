import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, removeDir, startTestHub, type TestHub } from '../support/hub.js'
import { cliEnv, repoRoot } from '../support/run-cli.js'

/**
 * Where the MCP Inspector CLI lives, or null. It is a devDependency of the repository;
 * under CI its absence is a failure, not a reason to skip.
 */
function inspectorBuild(): string | null {
  try {
    const manifest = createRequire(join(repoRoot, 'package.json')).resolve('@modelcontextprotocol/inspector-cli/package.json')
    const build = join(dirname(manifest), 'build')
    return existsSync(join(build, 'cli.js')) ? build : null
  } catch {
    return null
  }
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `mcp-inspector-cli --cli URL --transport http --header … --method …`. The working
 * folder is the package's build folder: inspector-cli 1.0.3 finds its own package.json
 * with `fs.existsSync('../package.json')`, i.e. relative to the working folder, and fails
 * with "Cannot find module …/@modelcontextprotocol/package.json" anywhere else.
 */
function inspector(build: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(build, 'cli.js'), '--cli', ...args], { cwd: build, env: cliEnv() })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

const build = inspectorBuild()
const missing = '@modelcontextprotocol/inspector-cli is not installed (it is a devDependency: run `npm install`)'

describe.skipIf(build === null && process.env.CI !== 'true')('the MCP Inspector CLI as an independent client', () => {
  let t: TestHub

  beforeAll(async () => {
    if (build === null) throw new Error(missing)
    t = await startTestHub()
  })
  afterAll(async () => {
    await t?.stop()
    if (t) removeDir(t.dataDir)
  })

  const target = () => [t.hub.mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${t.agentToken}`]

  it('lists the hub tools, the per-action ones included', async () => {
    const run = await inspector(build!, [...target(), '--method', 'tools/list'])
    expect(run.code, run.stderr).toBe(0)
    const { tools } = JSON.parse(run.stdout) as { tools: Array<{ name: string; inputSchema: unknown }> }
    const names = tools.map((tool) => tool.name)
    for (const name of ['surfaces_list', 'surface_snapshot', 'action_request', 'approval_status', 'trace_tail', 'claims__open-claim', 'claims__export-claims']) expect(names).toContain(name)
  })

  it('calls surfaces_list and an action tool, and the hub traces the call', async () => {
    const list = await inspector(build!, [...target(), '--method', 'tools/call', '--tool-name', 'surfaces_list'])
    expect(list.code, list.stderr).toBe(0)
    const listed = JSON.parse(list.stdout) as { isError?: boolean; structuredContent: { surfaces: Array<{ id: string; kind: string }> } }
    expect(listed.isError ?? false).toBe(false)
    expect(listed.structuredContent.surfaces).toEqual([expect.objectContaining({ id: 'claims', kind: 'app' }), expect.objectContaining({ id: 'files', kind: 'files' }), expect.objectContaining({ id: 'term-1', kind: 'terminal' }), expect.objectContaining({ id: 'map', kind: 'map', actions: ['open', 'close', 'focus', 'navigate', 'move', 'resize', 'list'] })])

    const opened = await inspector(build!, [...target(), '--method', 'tools/call', '--tool-name', 'claims__open-claim', '--tool-arg', 'claimId=c-1003'])
    expect(opened.code, opened.stderr).toBe(0)
    const result = (JSON.parse(opened.stdout) as { structuredContent: { result: { status: string; session: string } } }).structuredContent.result
    expect(result.status).toBe('completed')

    // The model's claim of approval through an independent client changes nothing: approve-payout waits.
    const payout = await inspector(build!, [...target(), '--method', 'tools/call', '--tool-name', 'claims__approve-payout', '--tool-arg', 'approved=true'])
    expect(JSON.parse(payout.stdout)).toMatchObject({ structuredContent: { result: { status: 'awaiting_approval' } } })

    const trace = await api<{ events: Array<{ type: string; action: string | null }> }>(t.hub, `/api/trace/${encodeURIComponent(result.session)}`, { token: t.adminToken })
    expect(trace.json.events).toContainEqual(expect.objectContaining({ type: 'completed', action: 'open-claim' }))
  })

  it('reads a frame resource', async () => {
    const run = await inspector(build!, [...target(), '--method', 'resources/read', '--uri', 'tessera://surfaces/claims/outline'])
    expect(run.code, run.stderr).toBe(0)
    const { contents } = JSON.parse(run.stdout) as { contents: Array<{ text: string }> }
    expect(contents[0]?.text).toContain('claims')
  })

  it('is refused without a token, with a clear message', async () => {
    const run = await inspector(build!, [t.hub.mcpUrl, '--transport', 'http', '--method', 'tools/list'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/401|unauthorized/i)
  })
})
