import type { ActionResult } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { connectHttpClient, resultText, useTestHub } from '../support/hub.js'

type Structured = { result: ActionResult }

describe('list rows that act: each claim row opens its own claim', () => {
  const t = useTestHub()

  it('shows a ref per row; a click on a row opens that claim; a contradicting input is refused; the list action still takes any id', async () => {
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
    const outline = resultText(await client.callTool({ name: 'surface_snapshot', arguments: { surface: 'claims' } }))
    const rowLine = outline.split('\n').find((line) => line.includes('c-1002 Tomás Ruiz'))
    expect(rowLine).toMatch(/row "c-1002 Tomás Ruiz".*\[open-claim read.*\] @\w+/)
    const ref = /@(\w+)/.exec(rowLine ?? '')?.[1] ?? ''

    const clicked = (await client.callTool({ name: 'surface_act', arguments: { surface: 'claims', ref, op: 'click' } })).structuredContent as Structured
    expect(clicked.result.status).toBe('completed')
    expect(clicked.result.diff).toContainEqual({ op: 'replace', path: '/claim', value: expect.objectContaining({ id: 'c-1002', claimant: 'Tomás Ruiz' }) })

    await client.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'close-claim' } })
    const contradicted = (await client.callTool({ name: 'action_request', arguments: { surface: 'claims', action: 'open-claim', target: `@${ref}`, input: { claimId: 'c-1003' } } })).structuredContent as Structured
    expect(contradicted.result.status).toBe('invalid_input')
    expect(contradicted.result.error?.message).toBe(`@${ref} runs "open-claim" with claimId "c-1002", but the request says "c-1003"; leave claimId out or name the element that has it`)

    const byId = (await client.callTool({ name: 'claims__open-claim', arguments: { claimId: 'c-1004' } })).structuredContent as Structured
    expect(byId.result.status).toBe('completed')
    await client.close()
  })
})
