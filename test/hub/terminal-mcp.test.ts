import { describe, expect, it } from 'vitest'
import { connectHttpClient, resultText, toolAnswer, useTestHub } from '../support/hub.js'

const result = toolAnswer
const text = resultText

describe('terminal tools over MCP, through the gateway', () => {
  const t = useTestHub()

  it('opens a terminal tile at start, and offers the terminal_* and composite tools', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    // A command can be raised to destructive (rm -rf): the hints say so, by MCP's defaults
    // (not read-only, destructive) left unsaid; reading output stays read-only.
    for (const name of ['terminal_execute', 'terminal_start', 'terminal_input']) expect(tools.find((tool) => tool.name === name)?.annotations, name).toEqual({ openWorldHint: false })
    expect(tools.find((tool) => tool.name === 'terminal_read')?.annotations).toMatchObject({ readOnlyHint: true })
    for (const name of ['terminal_create', 'terminal_list', 'terminal_focus', 'terminal_close', 'terminal_execute', 'terminal_start', 'terminal_read', 'terminal_input', 'terminal_wait_for', 'terminal_interrupt', 'run_in_new_terminal', 'find_and_edit']) {
      expect(names).toContain(name)
    }
    // A model reads the lean list; a program that asks gets the protocol's TerminalInfo, screen included.
    const list = result(await client.callTool({ name: 'terminal_list', arguments: {} }))
    expect(list.output).toEqual({ terminals: [{ id: 'term-1', working_dir: expect.stringMatching(/demo-files$/), status: expect.any(String), focused: true }] })
    const full = (await client.callTool({ name: 'terminal_list', arguments: {}, _meta: { 'tessera/output': 'full' } }))._meta?.['tessera/output'] as { terminals: Array<Record<string, unknown>> }
    expect(full.terminals).toEqual([expect.objectContaining({ id: 'term-1', focused: true, busy: false, width: 1024, height: 768, command_history: [] })])
    expect((full.terminals[0]?.lines as string[])[0]).toMatch(/demo-files #/)
    await client.close()
  })

  it('terminal_execute runs in the shell that persists cwd and env, with stderr apart; a destructive command waits for a human', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const first = result(await client.callTool({ name: 'terminal_execute', arguments: { command: 'cd notes && export GREETING=hi' } }))
    expect(first.status).toBe('completed')
    const second = result(await client.callTool({ name: 'terminal_execute', arguments: { command: 'pwd; echo "$GREETING"; echo oops >&2; (exit 3)' } }))
    expect(second.output).toMatchObject({ exit_code: 3, stderr: 'oops' })
    expect((second.output as { stdout: string }).stdout).toMatch(/demo-files\/notes\nhi$/)
    const risky = result(await client.callTool({ name: 'terminal_execute', arguments: { command: 'rm -rf ../src' } }))
    expect(risky.status).toBe('awaiting_approval')
    await client.close()
  })

  it('creates, focuses, runs in and closes terminal tiles; composites pass the gateway step by step', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const ran = await client.callTool({ name: 'run_in_new_terminal', arguments: { command: 'echo composite', x: 2200, y: 0 } })
    const { terminal_id: created, ...output } = ran.structuredContent as { terminal_id: string; stdout: string }
    expect(output).toEqual({ stdout: 'composite', exit_code: 0 })
    const tiles = (await client.callTool({ name: 'surfaces_list', arguments: {} })).structuredContent as { surfaces: Array<{ id: string; kind: string; x: number }> }
    expect(tiles.surfaces).toContainEqual(expect.objectContaining({ id: created, kind: 'terminal', x: 2200 }))
    expect(result(await client.callTool({ name: 'terminal_focus', arguments: { terminal_id: created } })).status).toBe('completed')

    const edit = await client.callTool({ name: 'find_and_edit', arguments: { pattern: '*.md', editor: 'nano' } })
    const { files_found, terminal_id: editorTerminal } = edit.structuredContent as { files_found: string[]; terminal_id: string }
    expect(files_found).toEqual(expect.arrayContaining(['/README.md', '/notes/todo.md']))
    const screen = result(await client.callTool({ name: 'terminal_wait_for', arguments: { terminal_id: editorTerminal, pattern: 'GNU nano', timeout_ms: 5000, screen: true } }))
    expect(screen.status).toBe('completed')

    for (const id of [created, editorTerminal]) expect(result(await client.callTool({ name: 'terminal_close', arguments: { terminal_id: id } })).status).toBe('completed')
    const after = result(await client.callTool({ name: 'terminal_list', arguments: {} }))
    expect((after.output as { terminals: Array<{ id: string }> }).terminals.map((x) => x.id)).toEqual(['term-1'])
    const tail = text(await client.callTool({ name: 'trace_tail', arguments: { limit: 60 } }))
    expect(tail).toContain('map/open')
    expect(tail).toContain('files/find')
    await client.close()
  })

  it('drives an interactive program with terminal_start, input, wait_for, read, interrupt and kill', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const id = (result(await client.callTool({ name: 'terminal_create', arguments: {} })).output as { terminal_id: string }).terminal_id
    expect(result(await client.callTool({ name: 'terminal_start', arguments: { terminal_id: id, command: 'bc -q' } })).status).toBe('completed')
    expect(result(await client.callTool({ name: 'terminal_input', arguments: { terminal_id: id, text: '6*7', enter: true } })).status).toBe('completed')
    const waited = result(await client.callTool({ name: 'terminal_wait_for', arguments: { terminal_id: id, pattern: '42', timeout_ms: 5000 } }))
    expect(waited.status).toBe('completed')
    const read = result(await client.callTool({ name: 'terminal_read', arguments: { terminal_id: id, since: 0 } }))
    expect((read.output as { text: string }).text).toContain('42')
    // bc survives Ctrl-C by design; it leaves on "quit".
    expect(result(await client.callTool({ name: 'terminal_input', arguments: { terminal_id: id, text: 'quit', enter: true } })).status).toBe('completed')
    expect(result(await client.callTool({ name: 'terminal_wait_for', arguments: { terminal_id: id, prompt: true, timeout_ms: 5000 } })).status).toBe('completed')
    expect(result(await client.callTool({ name: 'terminal_start', arguments: { terminal_id: id, command: 'sleep 300' } })).status).toBe('completed')
    expect(result(await client.callTool({ name: 'terminal_interrupt', arguments: { terminal_id: id } })).status).toBe('completed')
    expect(result(await client.callTool({ name: 'terminal_wait_for', arguments: { terminal_id: id, prompt: true, timeout_ms: 5000 } })).status).toBe('completed')
    expect(result(await client.callTool({ name: 'terminal_start', arguments: { terminal_id: id, command: 'sleep 300' } })).status).toBe('completed')
    expect(result(await client.callTool({ name: 'terminal_kill', arguments: { terminal_id: id } })).status).toBe('completed')
    const after = result(await client.callTool({ name: 'terminal_execute', arguments: { terminal_id: id, command: 'echo still-here' } }))
    expect(after, JSON.stringify(after.result ?? after.text)).toMatchObject({ status: 'completed', output: { stdout: 'still-here', exit_code: 0 } })
    const tail = text(await client.callTool({ name: 'trace_tail', arguments: { limit: 80 } }))
    for (const action of ['start', 'input', 'wait_for', 'read', 'interrupt', 'kill', 'execute']) expect(tail).toContain(`completed agent ${id}/${action}`)
    await client.callTool({ name: 'terminal_close', arguments: { terminal_id: id } })
    await client.close()
  })
})
