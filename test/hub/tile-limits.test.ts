import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttpClient, removeDir, startTestHub, type TestHub } from '../support/hub.js'

const LIMIT = 3

function output(result: Awaited<ReturnType<Client['callTool']>>): { terminal_id: string } {
  return result.structuredContent as { terminal_id: string }
}

function failure(result: Awaited<ReturnType<Client['callTool']>>): { status: string; error?: { code: string; message: string } } | undefined {
  return (result._meta as Record<string, { status: string; error?: { code: string; message: string } }> | undefined)?.['tessera/result']
}

describe('tiles per principal', () => {
  let t: TestHub
  let agent: Client
  let admin: Client

  beforeAll(async () => {
    t = await startTestHub({ limits: { tilesPerPrincipal: LIMIT } })
    agent = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    admin = await connectHttpClient(t.hub.mcpUrl, t.adminToken)
  })

  afterAll(async () => {
    await agent?.close()
    await admin?.close()
    await t?.stop()
    removeDir(t?.dataDir ?? '')
  })

  it('an agent opens terminals up to its limit; the next is refused as rate_limited, others are not affected, a close makes room', async () => {
    const opened: string[] = []
    for (let i = 0; i < LIMIT; i += 1) opened.push(output(await agent.callTool({ name: 'terminal_create', arguments: {} })).terminal_id)
    const refused = await agent.callTool({ name: 'terminal_create', arguments: {} })
    expect(refused.isError).toBe(true)
    expect(failure(refused)?.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('limits.tilesPerPrincipal') })
    // The demo tiles the hub opened, and another principal's, count apart.
    expect(output(await admin.callTool({ name: 'terminal_create', arguments: {} })).terminal_id).toMatch(/^term-/)
    expect((await agent.callTool({ name: 'terminal_close', arguments: { terminal_id: opened[0]! } })).isError).toBeFalsy()
    expect(output(await agent.callTool({ name: 'terminal_create', arguments: {} })).terminal_id).toMatch(/^term-/)
  })

  it('the tiles the configuration names open however many there are; no token can take the hub\'s name', async () => {
    const tiles = Array.from({ length: LIMIT + 2 }, (_, i) => ({ kind: 'terminal', id: `conf-${i}` }))
    const configured = await startTestHub({ limits: { tilesPerPrincipal: LIMIT }, tiles })
    try {
      expect(configured.hub.ctx.surfaces.list().map((tile) => tile.id)).toEqual(tiles.map((tile) => tile.id))
      await expect(configured.hub.tokens.store.create({ role: 'agent', principal: 'hub' })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('reserved for the hub') })
    } finally {
      await configured.stop()
      removeDir(configured.dataDir)
    }
  })
})
