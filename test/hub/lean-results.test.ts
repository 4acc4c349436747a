import { Ajv } from 'ajv'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it, vi } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectHttpClient, resultText, startTestHub, toolAnswer, useTestHub } from '../support/hub.js'

const tokens = (text: string): number => encode(text).length

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number]

/** Every seed tool call a session makes here, with the structured answer checked against the tool's own outputSchema. */
async function call(client: Client, tools: readonly Tool[], name: string, args: Record<string, unknown>): Promise<{ text: string; structured: Record<string, unknown> | undefined; meta: Record<string, unknown> | undefined; isError: boolean }> {
  const answer = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> }
  const tool = tools.find((candidate) => candidate.name === name)
  if (!answer.isError && tool?.outputSchema !== undefined) {
    const validate = new Ajv({ strict: false }).compile(tool.outputSchema)
    expect(validate(answer.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true)
    // What a client that shows structuredContent alone reads costs at most half again the text.
    expect(tokens(JSON.stringify(answer.structuredContent)), `${name} ${JSON.stringify(answer.structuredContent)}`).toBeLessThanOrEqual(1.5 * tokens(resultText(answer)))
  }
  return { text: resultText(answer), structured: answer.structuredContent, meta: answer._meta, isError: answer.isError === true }
}

describe('lean results: a completed seed tool answers with its output alone', () => {
  const t = useTestHub()

  it('terminal_execute says stdout, stderr and the exit code; no request id, frame id or screen delta', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const { tools } = await client.listTools()
    const hello = await call(client, tools, 'terminal_execute', { command: 'echo hello' })
    expect(hello.text).toBe('hello\n[exit 0]')
    // Claude Code and VS Code hand a model structuredContent alone when there is one: it is as lean as the text.
    expect(hello.structured).toEqual({ stdout: 'hello', exit_code: 0 })
    expect(tokens(JSON.stringify(hello.structured))).toBeLessThanOrEqual(1.5 * tokens(hello.text))
    const frame = await t.hub.ctx.gateway.frames.current('term-1')
    expect(hello.text).not.toContain(frame.id.slice(0, 12))
    expect(hello.text).not.toMatch(/req_|request|frame/)
    const mixed = await call(client, tools, 'terminal_execute', { command: 'echo out; echo err >&2; cd notes; (exit 3)' })
    expect(mixed.text).toBe(`out\nstderr:\nerr\n[exit 3 · cwd ${String(mixed.structured?.cwd)}]`)
    expect(mixed.structured).toEqual({ stdout: 'out', stderr: 'err', exit_code: 3, cwd: expect.stringMatching(/demo-files\/notes$/) })
    // A program asks for the protocol's CommandResult as well, and gets it in _meta.
    const full = await client.callTool({ name: 'terminal_execute', arguments: { command: 'true' }, _meta: { 'tessera/output': 'full' } })
    expect(full.structuredContent).toEqual({ exit_code: 0 })
    expect(full._meta?.['tessera/output']).toEqual({ stdout: '', stderr: '', exit_code: 0, success: true })
    // The whole result, ids and delta included, stays in the trace.
    const tail = resultText(await client.callTool({ name: 'trace_tail', arguments: { limit: 40 } }))
    expect(tail).toMatch(/completed agent term-1\/execute/)
    await call(client, tools, 'terminal_execute', { command: 'cd ..' })
    await client.close()
  })

  it('every seed tool answers valid against its outputSchema, and a pending approval with the envelope', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const { tools } = await client.listTools()
    for (const name of ['terminal_execute', 'terminal_list', 'terminal_create', 'file_list', 'file_find', 'file_read', 'file_write', 'file_edit', 'file_navigate', 'run_in_new_terminal', 'find_and_edit']) {
      expect(tools.find((tool) => tool.name === name)?.outputSchema, name).toMatchObject({ type: 'object' })
    }
    // A listing and a search read as their lean JSON, text and structured alike.
    const listed = await call(client, tools, 'file_list', { path: '/' })
    expect(listed.text).toMatch(/^\{"path":"\/","dirs":\["notes","src"\],"files":\{"README\.md":\d+,"claims\.csv":\d+\}\}$/)
    expect(JSON.parse(listed.text)).toEqual(listed.structured)
    expect((await call(client, tools, 'file_find', { pattern: '*.md' })).text).toBe('{"matches":["/README.md","/notes/todo.md"]}')
    expect((await call(client, tools, 'file_find', { pattern: 'no*', path: '/' })).structured).toEqual({ matches: ['/notes/'] })
    const read = await call(client, tools, 'file_read', { path: '/notes/todo.md' })
    expect(read.structured).toEqual({ content: read.text })
    expect((await call(client, tools, 'file_write', { path: '/lean.txt', content: 'one two' })).text).toBe('wrote /lean.txt (7 bytes, new file)')
    expect((await call(client, tools, 'file_edit', { path: '/lean.txt', old_text: 'two', new_text: '2' })).text).toBe('edited /lean.txt: 1 replacement')
    expect((await call(client, tools, 'file_navigate', { path: '/notes' })).text).toBe('now in /notes (1 entries)')
    await call(client, tools, 'file_navigate', { path: '/' })
    const created = await call(client, tools, 'terminal_create', {})
    const id = String(created.structured?.terminal_id)
    expect(JSON.parse(created.text)).toEqual({ terminal_id: id, x: expect.any(Number), y: expect.any(Number) })
    const terminals = await call(client, tools, 'terminal_list', {})
    expect((terminals.structured as { terminals: unknown[] }).terminals).toHaveLength(2)
    const ran = await call(client, tools, 'run_in_new_terminal', { command: 'echo composite' })
    expect(ran.text).toMatch(/^term-\d+\ncomposite\n\[exit 0\]$/)
    for (const terminal of [id, String(ran.structured?.terminal_id)]) await call(client, tools, 'terminal_close', { terminal_id: terminal })

    const risky = await call(client, tools, 'terminal_execute', { command: 'rm -rf ./src' })
    // Not the tool's output, so not shaped like it: the envelope is the text and `_meta`.
    expect(risky.isError).toBe(true)
    expect(risky.structured).toBeUndefined()
    expect(risky.text).toMatch(/^awaiting_approval: term-1\/execute \(request req_/)
    expect(risky.text).toMatch(/tessera approvals approve/)
    expect(risky.meta).toMatchObject({ 'tessera/result': { status: 'awaiting_approval', approvalId: expect.any(String) } })
    const refused = await call(client, tools, 'file_read', { path: '../../etc/passwd' })
    expect(refused).toMatchObject({ isError: true, structured: undefined, meta: { 'tessera/result': { status: 'failed', error: { code: 'forbidden' } } } })
    const unknownTile = await call(client, tools, 'terminal_execute', { command: 'true', terminal_id: 'term-404' })
    expect(unknownTile).toMatchObject({ isError: true, structured: undefined, meta: { 'tessera/error': { code: 'not_found' } } })
    await client.close()
  })

  it('`exit 4` answers exit_code 4, and the terminal goes on in a new shell in the same directory', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const { tools } = await client.listTools()
    await call(client, tools, 'terminal_execute', { command: 'cd notes' })
    const exited = await call(client, tools, 'terminal_execute', { command: 'exit 4' })
    expect(exited.structured).toMatchObject({ exit_code: 4, shell_restarted: true, cwd: expect.stringMatching(/notes$/) })
    expect(exited.text).toMatch(/^\[exit 4 · new shell in .*notes\]$/)
    const next = await call(client, tools, 'terminal_execute', { command: 'pwd' })
    expect(next.structured).toMatchObject({ exit_code: 0, stdout: expect.stringMatching(/notes$/) })
    const script = await call(client, tools, 'terminal_execute', { command: "printf 'exit 9\\n' > /tmp/tessera-exit.sh && . /tmp/tessera-exit.sh" })
    expect(script.structured).toMatchObject({ exit_code: 9, shell_restarted: true })
    const history = (await client.callTool({ name: 'terminal_list', arguments: {}, _meta: { 'tessera/output': 'full' } }))._meta?.['tessera/output'] as { terminals: Array<{ id: string; command_history: string[] }> }
    expect(history.terminals.find((x) => x.id === 'term-1')?.command_history.slice(-3)).toEqual([
      'exit 4',
      'pwd',
      "printf 'exit 9\\n' > /tmp/tessera-exit.sh && . /tmp/tessera-exit.sh",
    ])
    await call(client, tools, 'terminal_execute', { command: 'cd ..' })
    await client.close()
  })
})

describe('a tool list that does not grow with the map', () => {
  const t = useTestHub()

  it('opening three terminals leaves tools/list unchanged, and no seed kind gets per-action tools', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const before = (await client.listTools()).tools
    expect(before.map((tool) => tool.name).filter((name) => name.includes('__') && !name.startsWith('claims__'))).toEqual([])
    const opened: string[] = []
    for (let i = 0; i < 3; i += 1) opened.push(String(toolAnswer<{ terminal_id: string }>(await client.callTool({ name: 'terminal_create', arguments: {} })).output.terminal_id))
    expect((await client.listTools()).tools).toEqual(before)
    for (const id of opened) await client.callTool({ name: 'terminal_close', arguments: { terminal_id: id } })
    await client.close()
  })

  it('is built once for the hub and shared by every session', async () => {
    const catalog = t.hub.ctx.tools
    const built = vi.spyOn(catalog, 'staticTools')
    const clients = await Promise.all(Array.from({ length: 5 }, () => connectHttpClient(t.hub.mcpUrl, t.agentToken)))
    const lists = await Promise.all(clients.map((client) => client.listTools()))
    for (const list of lists) expect(list.tools).toEqual(lists[0]?.tools)
    expect(built.mock.calls.length).toBeLessThanOrEqual(1)
    // A tile opening rebuilds it once, for everyone.
    const opened = toolAnswer<{ terminal_id: string }>(await clients[0]!.callTool({ name: 'terminal_create', arguments: {} })).output.terminal_id
    built.mockClear()
    await Promise.all(clients.map((client) => client.listTools()))
    expect(built.mock.calls.length).toBe(1)
    await clients[0]!.callTool({ name: 'terminal_close', arguments: { terminal_id: opened } })
    built.mockRestore()
    await Promise.all(clients.map((client) => client.close()))
  })
})

describe('tools.exclude', () => {
  it('switches a family off: not listed, not callable', async () => {
    const t = await startTestHub({ tools: { exclude: ['terminal', 'surface_act'] } })
    try {
      const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
      const names = (await client.listTools()).tools.map((tool) => tool.name)
      expect(names.filter((name) => name.startsWith('terminal_') || name === 'run_in_new_terminal' || name === 'surface_act')).toEqual([])
      expect(names).toContain('file_list')
      const refused = (await client.callTool({ name: 'terminal_execute', arguments: { command: 'true' } })) as { isError?: boolean; structuredContent?: { error?: { code: string } } }
      expect(refused.isError).toBe(true)
      expect(refused.structuredContent?.error?.code).toBe('not_found')
      await client.close()
    } finally {
      await t.stop()
    }
  })

  it('refuses an entry that names no kind and no tool, saying what it expected', async () => {
    await expect(startTestHub({ tools: { exclude: ['terminals'] } })).rejects.toMatchObject({ code: 'invalid_request', details: { found: 'terminals' } })
  })
})

describe('a session chooses its tools (?tools=)', () => {
  const t = useTestHub()
  const GENERIC = ['surfaces_list', 'surface_snapshot', 'action_request', 'surface_act', 'approval_status', 'trace_tail']

  it('lists the generic tools and the named kinds only, refuses the others, and leaves other sessions whole', async () => {
    const all = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const browsing = await connectHttpClient(`${t.hub.mcpUrl}?tools=browser`, t.agentToken)
    const mixed = await connectHttpClient(`${t.hub.mcpUrl}?tools=${encodeURIComponent(' files , app,navigate_map')}`, t.agentToken)
    try {
      const everything = (await all.listTools()).tools
      const browser = (await browsing.listTools()).tools
      expect(browser.map((tool) => tool.name).filter((name) => !name.startsWith('browser_'))).toEqual(GENERIC)
      expect(browser.filter((tool) => tool.name.startsWith('browser_')).length).toBe(everything.filter((tool) => tool.name.startsWith('browser_')).length)
      // What a browsing agent carries in every turn: well under half of the whole list.
      expect(tokens(JSON.stringify(browser))).toBeLessThan(0.5 * tokens(JSON.stringify(everything)))
      const names = (await mixed.listTools()).tools.map((tool) => tool.name)
      expect(names.filter((name) => !GENERIC.includes(name)).sort()).toEqual([...everything.map((tool) => tool.name).filter((name) => name.startsWith('file_') || name.startsWith('claims__')), 'navigate_map'].sort())

      // A tool left off the list cannot be called either; the generic ones reach every tile.
      // (file_list has an outputSchema, so its error travels in _meta.)
      const refused = (await browsing.callTool({ name: 'file_list', arguments: {} })) as { isError?: boolean; _meta?: Record<string, unknown> }
      expect(refused.isError).toBe(true)
      expect(refused._meta?.['tessera/error']).toMatchObject({ code: 'not_found', message: expect.stringContaining('tools=browser') })
      const app = (await browsing.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1004' } })) as { isError?: boolean; structuredContent?: { error?: { code: string } } }
      expect(app.structuredContent?.error?.code).toBe('not_found')
      const snapshot = await browsing.callTool({ name: 'surface_snapshot', arguments: { surface: 'files' } })
      expect(snapshot.isError).not.toBe(true)
      const listed = await mixed.callTool({ name: 'file_list', arguments: {} })
      expect(listed.isError).not.toBe(true)

      // The server instructions speak of the kinds the session reaches, each in its kind's own words.
      const told = (client: typeof all): string => client.getInstructions() ?? ''
      for (const prefix of ['terminal_*', 'file_*', 'browser_*', 'gui_*', '<tile>__<action>']) expect(told(all)).toContain(prefix)
      expect(told(browsing)).toContain('browser_*: tile argument tile')
      for (const prefix of ['terminal_*', 'file_*', 'gui_*', '<tile>__<action>']) expect(told(browsing)).not.toContain(prefix)
      expect(told(mixed)).toContain('file_*')
      expect(told(mixed)).toContain('<tile>__<action>')
      expect(told(mixed)).not.toContain('browser_*')
      for (const client of [all, browsing, mixed]) expect(told(client)).toContain('(untrusted)')
      expect(tokens(told(browsing))).toBeLessThan(tokens(told(all)))
    } finally {
      await Promise.all([all.close(), browsing.close(), mixed.close()])
    }
  })

  it('refuses a session whose choice names no kind and no tool, saying what it accepts', async () => {
    const response = await fetch(`${t.hub.mcpUrl}?tools=browser,terminals`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.agentToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } }),
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { error: { code: number; message: string; data: { code: string; details: { expected: string[]; found: string } } } }
    expect(body.error.message).toContain('"terminals"')
    expect(body.error.data).toMatchObject({ code: 'invalid_request', details: { found: 'terminals' } })
    expect(body.error.data.details.expected).toEqual(expect.arrayContaining(['browser', 'terminal', 'files', 'desktop', 'terminal_execute']))
    await expect(connectHttpClient(`${t.hub.mcpUrl}?tools=%00`, t.agentToken)).rejects.toThrow(/expected a kind or a tool name/)
    // The hub goes on serving.
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    expect((await client.listTools()).tools.length).toBeGreaterThan(40)
    await client.close()
  })
})
