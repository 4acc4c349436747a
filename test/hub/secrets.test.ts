import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { connectHttpClient, removeDir, resultText, startTestHub, type TestHub, toolAnswer } from '../support/hub.js'
import { PLANTED } from '../support/planted-secrets.js'

const LEAK_FILE = PLANTED.map((p) => p.line).join('\n')
const KINDS = [...new Set(PLANTED.map((p) => p.kind))]

/** Every byte the SQLite store holds: the database, its write-ahead log and shared memory. */
function storeBytes(dataDir: string): string {
  return readdirSync(dataDir)
    .filter((name) => name.startsWith('trace.db'))
    .map((name) => readFileSync(join(dataDir, name)).toString('latin1'))
    .join('\n')
}

function expectNoSecret(where: string, text: string): void {
  for (const planted of PLANTED) expect(text.includes(planted.secret), `${planted.kind} (${planted.secret.slice(0, 12)}…) in ${where}`).toBe(false)
}

describe('secrets found by content stay out of what agents read and out of the trace', () => {
  let t: TestHub
  let agent: Client

  beforeAll(async () => {
    t = await startTestHub()
    writeFileSync(join(t.dataDir, 'demo-files', 'notes', 'leak.env'), `${LEAK_FILE}\n`)
    agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await agent?.close()
    await t.stop()
    removeDir(t.dataDir)
  })

  it('in a file read: the agent reads a typed marker for each secret', async () => {
    const read = await agent.callTool({ name: 'file_read', arguments: { path: '/notes/leak.env' } })
    const answer = toolAnswer<{ content: string }>(read)
    expect(answer.status).toBe('completed')
    expectNoSecret('file_read', JSON.stringify(read))
    for (const kind of KINDS) expect(answer.output.content).toContain(`[REDACTED:${kind}]`)
    expect(answer.output.content).toContain('DATABASE_URL=')
  })

  it("in a command's output, a file's or one the command makes up", async () => {
    const cat = await agent.callTool({ name: 'terminal_execute', arguments: { command: 'cat notes/leak.env' } })
    expectNoSecret('terminal_execute', JSON.stringify(cat))
    for (const kind of KINDS) expect(resultText(cat)).toContain(`[REDACTED:${kind}]`)
    // No file holds this one: the command assembles it.
    const made = await agent.callTool({ name: 'terminal_execute', arguments: { command: "printf 'key=sk_live_%s%s\\n' a1B2c3D4e5F6 g7H8i9J0kLmN" } })
    expect(resultText(made)).toMatch(/^key=\[REDACTED:stripe-key\]\n/)
  })

  it("on a terminal's screen and in what terminal_read returns", async () => {
    const terminal = toolAnswer<{ terminals: Array<{ id: string }> }>(await agent.callTool({ name: 'terminal_list', arguments: {} })).output.terminals[0]?.id ?? ''
    expect(toolAnswer(await agent.callTool({ name: 'terminal_input', arguments: { text: 'clear; cat notes/leak.env', enter: true } })).status).toBe('completed')
    await vi.waitFor(
      async () => {
        const screen = resultText(await agent.callTool({ name: 'surface_snapshot', arguments: { surface: terminal } }))
        expect(screen).toContain('[REDACTED:slack-token]')
      },
      { timeout: 10_000, interval: 100 },
    )
    const screen = await agent.callTool({ name: 'surface_snapshot', arguments: { surface: terminal, format: 'json' } })
    expectNoSecret('the terminal frame', JSON.stringify(screen))
    const read = await agent.callTool({ name: 'terminal_read', arguments: { since: 0 } })
    expectNoSecret('terminal_read', JSON.stringify(read))
    expect(resultText(read)).toContain('[REDACTED:private-key]')
  })

  it('in what an agent writes, recorded as the input of its request', async () => {
    const written = await agent.callTool({ name: 'file_write', arguments: { path: '/notes/copy.env', content: `${LEAK_FILE}\n` } })
    expect(toolAnswer(written).status).toBe('completed')
    // The file holds what the agent wrote; only the trace is kept clean of it.
    expect(readFileSync(join(t.dataDir, 'demo-files', 'notes', 'copy.env'), 'utf8')).toBe(`${LEAK_FILE}\n`)
  })

  it('leaves none of them in the database files, the write-ahead log included', async () => {
    const bytes = storeBytes(t.dataDir)
    expect(bytes).toContain('[REDACTED:stripe-key]')
    expectNoSecret('the SQLite files', bytes)
    const trace = await agent.callTool({ name: 'trace_tail', arguments: { limit: 200 } })
    expectNoSecret('trace_tail', JSON.stringify(trace))
  })
})

describe('a root a person marked secrets: "show"', () => {
  let t: TestHub
  let vault: string

  beforeAll(async () => {
    vault = mkdtempSync(join(tmpdir(), 'tessera-vault-'))
    writeFileSync(join(vault, 'keys.env'), `${LEAK_FILE}\n`)
    t = await startTestHub({
      tiles: [
        { kind: 'files', id: 'vault', title: 'Vault', roots: [{ name: 'vault', path: vault, secrets: 'show' }] },
        { kind: 'files', id: 'plain', title: 'Plain', roots: [{ name: 'plain', path: vault }] },
      ],
      terminals: { openAtStart: false },
    })
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
    removeDir(vault)
  })

  it('hands the agent the file as it is, still keeps the trace clean, and other roots redact', async () => {
    const agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const shown = toolAnswer<{ content: string }>(await agent.callTool({ name: 'file_read', arguments: { surface: 'vault', path: '/keys.env' } }))
    expect(shown.output.content).toBe(`${LEAK_FILE}\n`)
    const plain = await agent.callTool({ name: 'file_read', arguments: { surface: 'plain', path: '/keys.env' } })
    expectNoSecret('a root without the option', JSON.stringify(plain))
    expectNoSecret('the SQLite files', storeBytes(t.dataDir))
    await agent.close()
  })
})
