import { describe, expect, it } from 'vitest'
import { api, connectHttpClient, useTestHub } from '../support/hub.js'

async function scrape(url: string, token?: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${url}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() }
}

describe('readiness and Prometheus metrics', () => {
  const t = useTestHub()

  it('/api/ready answers without a token: the store answers, no tile is in error', async () => {
    const ready = await api(t.hub, '/api/ready')
    expect(ready).toEqual({ status: 200, json: { ready: true, store: 'ok', tilesInError: [] } })
  })

  it('/metrics needs a token, then counts requests, actions, approvals, sessions, queues and tiles', async () => {
    expect((await scrape(t.hub.url)).status).toBe(401)
    const { token } = await t.hub.tokens.store.create({ role: 'viewer', principal: 'prometheus' })

    await api(t.hub, '/api/actions', { token: t.agentToken, body: { surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } } })
    await api(t.hub, '/api/actions', { token: t.agentToken, body: { surface: 'claims', action: 'approve-payout' } })
    // Made-up names are counted, under one label, however many there are.
    for (let i = 0; i < 5; i += 1) await api(t.hub, '/api/actions', { token: t.agentToken, body: { surface: `nowhere-${i}`, action: `nothing-${i}` } })
    const client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)

    const metrics = await scrape(t.hub.url, token)
    expect(metrics.status).toBe(200)
    expect(metrics.type).toContain('text/plain')
    const text = metrics.text
    expect(text).toContain('tessera_http_requests_total{method="GET",route="/api/ready",status="200"} 1')
    expect(text).toContain('tessera_actions_total{surface="claims",action="open-claim",status="completed"} 1')
    expect(text).toContain('tessera_actions_total{surface="claims",action="approve-payout",status="awaiting_approval"} 1')
    expect(text).toContain('tessera_actions_total{surface="unknown",action="unknown",status="not_found"} 5')
    expect(text).not.toContain('nowhere-')
    expect(text).toMatch(/tessera_action_duration_seconds_count\{surface="claims"\} 2/)
    expect(text).toContain('tessera_approvals_pending 1')
    expect(text).toMatch(/tessera_mcp_sessions [1-9]/)
    expect(text).toContain('tessera_queue_depth{surface="claims"} 0')
    expect(text).toContain('tessera_tiles{state="running"} 3')
    expect(text).toContain('tessera_tiles{state="error"} 0')
    expect(text).toContain('tessera_process_cpu_user_seconds_total')
    await client.close()
  })
})
