import { fileURLToPath } from 'node:url'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Surface } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { actionResult, connectHttpClient, toolAnswer, useTestHub } from '../support/hub.js'
import { agent } from '../support/principals.js'

const TOY_KIND = fileURLToPath(new URL('../fixtures/toy-kind/index.js', import.meta.url))

/** Counts calls to a surface's snapshot from here on, whoever makes them. */
function countSnapshots(surface: Surface): { readonly count: number; reset(): void } {
  const original = surface.snapshot.bind(surface)
  let count = 0
  ;(surface as { snapshot: Surface['snapshot'] }).snapshot = (options) => {
    count++
    return original(options)
  }
  return {
    get count() {
      return count
    },
    reset() {
      count = 0
    },
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300))

describe('one frame cache: an action takes one snapshot, however many sessions watch', () => {
  const t = useTestHub({ terminals: { openAtStart: false } })

  it('file_write costs one snapshot of the file tile with 0, 1 and 10 MCP sessions attached', async () => {
    const files = t.hub.ctx.gateway.surfaces().find((surface) => surface.id === 'files') as Surface
    const counter = countSnapshots(files)
    const clients: Client[] = []
    const counts: Record<number, number> = {}
    for (const sessions of [0, 1, 10]) {
      while (clients.length < sessions) {
        const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
        await client.listTools()
        clients.push(client)
      }
      await t.hub.ctx.gateway.frames.current('files')
      await settle()
      counter.reset()
      const input = { path: `/written-with-${sessions}.txt`, content: `${sessions} sessions\n` }
      const result =
        clients[0] === undefined
          ? await t.hub.ctx.gateway.request({ surface: 'files', action: 'write', input }, agent)
          : toolAnswer(await clients[0].callTool({ name: 'file_write', arguments: input }))
      expect(result.status).toBe('completed')
      // Every session reads the tile after the write, as an agent looking at the result would.
      await Promise.all(clients.map((client) => client.readResource({ uri: 'tessera://surfaces/files/outline' })))
      await settle()
      counts[sessions] = counter.count
    }
    expect(counts).toEqual({ 0: 1, 1: 1, 10: 1 })
    await Promise.all(clients.map((client) => client.close()))
  })
})

describe('part of a surface', () => {
  const t = useTestHub({ terminals: { openAtStart: false } })

  it('surface_snapshot with scope or max_nodes shows part of the tile and names the whole frame', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const whole = await t.hub.ctx.gateway.frames.current('files')
    const cut = await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'files', max_nodes: 3 } })
    const text = (cut.content as Array<{ text: string }>)[0]?.text ?? ''
    expect(text.split('\n')[0]).toMatch(new RegExp(`frame ${whole.id.slice(0, 12)} \\(part; \\d+ nodes left out\\)$`))
    expect((cut.structuredContent as { frameId: string }).frameId).toBe(whole.id)
    expect(text).toContain('actions: [list read input]')
    await client.close()
  })
})

describe('a surface kind added as one module, with no hub edit', () => {
  const t = useTestHub({ terminals: { openAtStart: false }, kindModules: [TOY_KIND] })

  it('gets its façade tools and the map opens, focuses and closes its tiles through the gateway', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const before = (await client.listTools()).tools.map((tool) => tool.name)
    expect(before).toEqual(expect.arrayContaining(['toy_bump', 'toy_wipe', 'file_write', 'terminal_execute']))

    const opened = actionResult(await client.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'toy', config: { start: 3 } } } }))
    expect(opened).toMatchObject({ status: 'completed', output: { tile: 'toy-1', kind: 'toy' } })
    const bumped = toolAnswer(await client.callTool({ name: 'toy_bump', arguments: { by: 2 } }))
    expect(bumped).toMatchObject({ status: 'completed', output: { count: 5 } })
    expect(toolAnswer(await client.callTool({ name: 'toy_wipe', arguments: {} })).status).toBe('awaiting_approval')

    // An agent chooses only what the kind lets it: no configuration beyond the open schema.
    const tooBig = actionResult(await client.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'toy', config: { start: 99 } } } }))
    expect(tooBig).toMatchObject({ status: 'failed', error: { code: 'invalid_input', message: expect.stringContaining('start') } })
    const unknown = actionResult(await client.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'spaceship' } } }))
    expect(unknown).toMatchObject({ status: 'failed', error: { code: 'not_found', details: { expected: expect.arrayContaining(['app', 'files', 'terminal', 'toy']) } } })

    // More tiles of a kind add no tools.
    for (let i = 0; i < 3; i++) actionResult(await client.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'toy' } } }))
    const after = (await client.listTools()).tools.map((tool) => tool.name)
    expect(after).toEqual(before)

    expect(actionResult(await client.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'focus', input: { tile: 'toy-2' } } })).status).toBe('completed')
    expect(toolAnswer(await client.callTool({ name: 'toy_bump', arguments: {} })).output).toEqual({ count: 1 })
    // The focused tile is the one bumped (the answer is the output alone; the frame says where).
    expect((await t.hub.ctx.gateway.frames.current('toy-2')).state).toMatchObject({ count: 1 })
    expect(actionResult(await client.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'close', input: { tile: 'toy-1' } } })).status).toBe('completed')
    const tiles = t.hub.ctx.surfaces.list('toy').map((tile) => tile.id)
    expect(tiles).toEqual(['toy-2', 'toy-3', 'toy-4'])
    await client.close()
  })
})
