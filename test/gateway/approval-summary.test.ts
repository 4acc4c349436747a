import { claimsReview } from '@tessera/example-claims-review'
import { Gateway, openMemoryStore } from '@tessera/gateway'
import { AppSurface } from '@tessera/surface-app'
import { describe, expect, it } from 'vitest'
import { agent, approver } from '../support/principals.js'

function setup() {
  const gateway = new Gateway({ store: openMemoryStore(), session: 'summaries', policy: { approvalTtlMs: 60_000 } })
  gateway.addSurface(new AppSurface(claimsReview))
  return gateway
}

describe('an approval explains itself', () => {
  it('renders the contract summary from the frame, with risk, reason and the preconditions it read', async () => {
    const gateway = setup()
    await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, agent)
    const pending = await gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
    const approval = await gateway.approvals.get(pending.approvalId!)
    expect(approval.summary).toBe('Approve payout of €1,250 to Ada Brennan for claim c-1001')
    expect(approval.title).toBe('Approve payout')
    expect(approval.risk).toBe('write')
    expect(approval.reason).toMatch(/needs a human approval/)
    expect(approval.preconditions).toEqual([
      { condition: 'claim.status === "ready"', values: { 'claim.status': 'ready' } },
      { condition: 'claim.fraudScore < 0.75', values: { 'claim.fraudScore': 0.12 } },
    ])
  })

  it('fills other templates from the frame and the input', async () => {
    const gateway = setup()
    const exported = await gateway.request({ surface: 'claims', action: 'export-claims', input: { format: 'csv' } }, agent)
    expect((await gateway.approvals.get(exported.approvalId!)).summary).toBe('Export all 4 claims as csv, out of the hub')
    await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1003' } }, agent)
    const pending = await gateway.request({ surface: 'claims', action: 'delete-claim' }, agent)
    expect((await gateway.approvals.get(pending.approvalId!)).summary).toBe('Delete claim c-1003 of Mei Tanaka (€560) for good')
  })

  it('without a template: the title, the surface and the input, never a secret nor a control character', async () => {
    const gateway = setup()
    gateway.addSurface({
      kind: 'app',
      id: 'vault',
      title: 'Vault',
      async snapshot() {
        const { buildFrame, box } = await import('@tessera/ui')
        return buildFrame({
          surface: 'vault',
          route: '/',
          tree: box({ id: 'root', name: 'Vault' }),
          state: {},
          viewport: { width: 100, height: 100 },
          contracts: [{ id: 'rotate', kind: 'rotate', title: 'Rotate the key', risk: 'destructive', inputSchema: { type: 'object', properties: { name: { type: 'string' }, password: { type: 'string' } } } }],
        })
      },
      async close() {},
      async perform() {
        return null
      },
    })
    const pending = await gateway.request({ surface: 'vault', action: 'rotate', input: { name: 'prod\u001b[2J', password: 'hunter2' } }, agent)
    const approval = await gateway.approvals.get(pending.approvalId!)
    expect(approval.summary).toBe('Rotate the key on vault: name prod\\x1b[2J, password [REDACTED]')
    expect(JSON.stringify(approval)).not.toContain('hunter2')
  })

  it('holds while what the person read reads the same: unrelated state may move, a changed amount makes it stale', async () => {
    const gateway = setup()
    const { buildFrame, box } = await import('@tessera/ui')
    const state = { tick: 0, amount: 5 }
    const contracts = [
      { id: 'tick', kind: 'tick', title: 'Tick', risk: 'read' as const },
      { id: 'reprice', kind: 'reprice', title: 'Reprice', risk: 'read' as const },
      { id: 'pay', kind: 'pay', title: 'Pay', summary: 'Pay {amount | currency EUR}', risk: 'destructive' as const },
    ]
    let paid = 0
    gateway.addSurface({
      kind: 'app',
      id: 'till',
      title: 'Till',
      async snapshot() {
        return buildFrame({ surface: 'till', route: '/', tree: box({ id: 'root', name: 'Till' }), state: { ...state }, viewport: { width: 100, height: 100 }, contracts })
      },
      async close() {},
      async perform(call) {
        if (call.contract.id === 'tick') state.tick += 1
        if (call.contract.id === 'reprice') state.amount += 1
        if (call.contract.id === 'pay') paid += 1
        return null
      },
    })
    const first = await gateway.request({ surface: 'till', action: 'pay' }, agent)
    expect((await gateway.approvals.get(first.approvalId!)).summary).toBe('Pay €5')
    await gateway.request({ surface: 'till', action: 'tick' }, agent)
    expect((await gateway.approve(first.approvalId!, approver)).result.status).toBe('completed')
    expect(paid).toBe(1)

    const second = await gateway.request({ surface: 'till', action: 'pay' }, agent)
    await gateway.request({ surface: 'till', action: 'reprice' }, agent)
    const { result } = await gateway.approve(second.approvalId!, approver)
    expect(result.status).toBe('stale_frame')
    expect(result.error?.message).toBe('approved "Pay €5", but the frame now says "Pay €6"; ask again')
    expect(paid).toBe(1)
  })
})
