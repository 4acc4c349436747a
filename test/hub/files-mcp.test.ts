import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { connectHttpClient, toolAnswer, useTestHub } from '../support/hub.js'

const result = toolAnswer

describe('file tools over MCP, through the gateway', () => {
  const t = useTestHub()

  it('offers the file_* tools with the file surface action schemas', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    for (const name of ['file_list', 'file_navigate', 'file_find', 'file_read', 'file_write', 'file_edit']) expect(names).toContain(name)
    expect(tools.find((tool) => tool.name === 'file_read')?.inputSchema).toMatchObject({ required: ['path'], properties: { surface: { type: 'string' } } })
    // Only hints that differ from MCP's defaults (not read-only, destructive, open world) are sent.
    expect(tools.find((tool) => tool.name === 'file_write')?.annotations).toEqual({ destructiveHint: false, openWorldHint: false })
    expect(tools.find((tool) => tool.name === 'file_read')?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false })
    await client.close()
  })

  it('lists, finds, reads, writes and edits the demo folder; each effect is in the trace', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const listed = result(await client.callTool({ name: 'file_list', arguments: { path: '/' } }))
    expect(listed.status).toBe('completed')
    // What a model reads: directories, and files with their sizes.
    expect(listed.output).toEqual({ path: '/', dirs: ['notes', 'src'], files: { 'README.md': expect.any(Number), 'claims.csv': expect.any(Number) } })
    // What a program asks for: the protocol's FileInfo per entry, cell place and colour included.
    const full = (await client.callTool({ name: 'file_list', arguments: { path: '/' }, _meta: { 'tessera/output': 'full' } }))._meta?.['tessera/output'] as { files: Array<Record<string, unknown>> }
    expect(full.files.map((e) => e.name)).toEqual(['notes', 'src', 'README.md', 'claims.csv'])
    expect(full.files[0]).toMatchObject({ file_type: 'directory', permissions: expect.any(String), x: expect.any(Number), y: expect.any(Number), color: expect.any(Number) })

    const navigated = result(await client.callTool({ name: 'file_navigate', arguments: { path: '/notes' } }))
    expect(navigated.output).toEqual({ path: '/notes', files_count: 1 })
    const found = result(await client.callTool({ name: 'file_find', arguments: { pattern: '**/*.ts', path: '/' } }))
    expect(found.output).toEqual({ matches: ['/src/payout-check.ts', '/src/payout.ts'] })

    const read = result(await client.callTool({ name: 'file_read', arguments: { path: '/notes/todo.md' } }))
    expect(read.output).toEqual({ content: expect.stringContaining('c-1002') })
    const part = result(await client.callTool({ name: 'file_read', arguments: { path: '/notes/todo.md', max_bytes: 4 } }))
    expect(part.output).toMatchObject({ truncated: true, offset: 0, bytes_read: 4, next_offset: 4, size: expect.any(Number) })

    const written = result(await client.callTool({ name: 'file_write', arguments: { path: '/notes/new.md', content: 'hello from an agent\n' } }))
    expect(written.status).toBe('completed')
    expect(readFileSync(join(t.dataDir, 'demo-files', 'notes', 'new.md'), 'utf8')).toBe('hello from an agent\n')

    const edited = result(await client.callTool({ name: 'file_edit', arguments: { path: '/notes/new.md', old_text: 'agent', new_text: 'approved agent' } }))
    expect(edited.status).toBe('completed')
    expect(readFileSync(join(t.dataDir, 'demo-files', 'notes', 'new.md'), 'utf8')).toBe('hello from an approved agent\n')

    const tail = await client.callTool({ name: 'trace_tail', arguments: { limit: 100 } })
    const text = JSON.stringify(tail.content)
    for (const action of ['files/list', 'files/navigate', 'files/find', 'files/read', 'files/write', 'files/edit']) expect(text).toContain(`completed agent ${action}`)
    await client.close()
  })

  it('refuses escapes with typed errors and leaves the repository untouched', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    for (const path of ['../../etc/passwd', '/../../../etc/shadow', 'a\u0000b']) {
      const refused = result(await client.callTool({ name: 'file_read', arguments: { path } }))
      expect(refused.status).not.toBe('completed')
      expect(JSON.stringify(refused.result?.error)).toMatch(/forbidden|invalid_request|invalid_input|not_found/)
      expect(JSON.stringify(refused)).not.toContain('root:x:0:0')
    }
    const noTile = await client.callTool({ name: 'file_list', arguments: { surface: 'nope' } })
    expect(noTile.isError).toBe(true)
    expect((noTile.content as Array<{ text: string }>)[0]?.text).toContain('no files tile "nope"')
    await client.close()
  })
})
