import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The README's default data folder, relative to where `npm start` runs. */
const dataDir = join(repoRoot, '.tessera')

interface HubFile {
  url: string
  mcpUrl: string
  pid: number
}

/**
 * `npm start` exactly as the README gives it — from the repository root, default data
 * folder — except for the port: 0 lets it run beside a hub a developer keeps on 7300.
 * Every demo tile must come up `running` and every seed tool must answer.
 */
describe('npm start, the README way', () => {
  let child: ChildProcess | undefined
  let output = ''

  afterAll(async () => {
    if (child?.pid === undefined || child.exitCode !== null) return
    const exited = new Promise((done) => child?.once('exit', done))
    // npm runs the hub under a shell: the whole group started here gets the Ctrl-C.
    process.kill(-child.pid, 'SIGINT')
    await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))])
  })

  it('starts every demo tile running, says so, and every seed tool answers', async () => {
    const hubFile = join(dataDir, 'hub.json')
    if (existsSync(hubFile)) {
      const running = JSON.parse(readFileSync(hubFile, 'utf8')) as HubFile
      let alive = true
      try {
        process.kill(running.pid, 0)
      } catch {
        alive = false
      }
      if (alive) throw new Error(`a hub already runs on ${dataDir} (pid ${running.pid}); stop it to run this test`)
    }
    child = spawn('npm', ['start'], { cwd: repoRoot, env: { ...process.env, TESSERA_PORT: '0', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    const deadline = Date.now() + 150_000
    while (!output.includes('Press Ctrl-C to stop.')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output.slice(-3000)}`)
      await new Promise((done) => setTimeout(done, 200))
    }

    // The banner names each tile with its state.
    for (const tile of ['claims (app)', 'files (files)', 'term-1 (terminal)']) expect(output).toMatch(new RegExp(`${tile.replace(/[()]/g, '\\$&')}\\s+running`))
    expect(output).not.toMatch(/\berror\b/)

    const hub = JSON.parse(readFileSync(hubFile, 'utf8')) as HubFile
    const token = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
    const tiles = (await (await fetch(`${hub.url}/api/tiles`, { headers: { authorization: `Bearer ${token}` } })).json()) as { tiles: Array<{ id: string; state: string; error?: string }> }
    expect(tiles.tiles.map((t) => [t.id, t.state, t.error])).toEqual([
      ['claims', 'running', undefined],
      ['files', 'running', undefined],
      ['term-1', 'running', undefined],
    ])

    const client = new Client({ name: 'npm-start-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(hub.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    try {
      const answers: Array<[string, Record<string, unknown>]> = [
        ['surfaces_list', {}],
        ['terminal_list', {}],
        ['terminal_execute', { command: 'echo started' }],
        ['file_list', { path: '/' }],
        ['file_read', { path: '/README.md' }],
        ['file_find', { pattern: '*.md' }],
        ['file_write', { path: '/npm-start-test.txt', content: 'written by the start test\n' }],
        ['file_edit', { path: '/npm-start-test.txt', old_text: 'written', new_text: 'edited' }],
      ]
      const listed = new Set((await client.listTools()).tools.map((t) => t.name))
      for (const [name, args] of answers) {
        expect(listed.has(name), `${name} is listed`).toBe(true)
        const result = await client.callTool({ name, arguments: args })
        const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n')
        expect(result.isError ?? false, `${name}: ${text}`).toBe(false)
      }
      const echoed = await client.callTool({ name: 'terminal_execute', arguments: { command: 'pwd' } })
      expect((echoed.structuredContent as { stdout: string }).stdout.trim()).toBe(join(dataDir, 'demo-files'))
    } finally {
      await client.close()
      // The demo's folder is the user's own from here on: what the test wrote there goes.
      rmSync(join(dataDir, 'demo-files', 'npm-start-test.txt'), { force: true })
    }
  }, 200_000)
})
