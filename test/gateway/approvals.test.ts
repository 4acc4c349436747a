import { claimsReview } from '@tessera/example-claims-review'
import { Gateway, openMemoryStore } from '@tessera/gateway'
import { contentHash, type TraceEvent } from '@tessera/protocol'
import { AppSurface } from '@tessera/surface-app'
import { describe, expect, it } from 'vitest'
import { admin, agent, agentWithApproverRole, approver, otherAgent } from '../support/principals.js'

function setup(now: () => number = Date.now) {
  const store = openMemoryStore()
  const gateway = new Gateway({ store, session: 'approvals', now, policy: { approvalTtlMs: 60_000 } })
  gateway.addSurface(new AppSurface(claimsReview))
  return { store, gateway }
}

async function pendingPayout(gateway: Gateway, actor = agent) {
  expect((await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, actor)).status).toBe('completed')
  const pending = await gateway.request({ surface: 'claims', action: 'approve-payout' }, actor)
  expect(pending.status).toBe('awaiting_approval')
  return pending
}

describe('approvals', () => {
  it('default policy: destructive and external actions wait for a human, read actions do not', async () => {
    const { gateway } = setup()
    expect((await gateway.request({ surface: 'claims', action: 'export-claims', input: { format: 'json' } }, agent)).status).toBe('awaiting_approval')
    expect((await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1003' } }, agent)).status).toBe('completed')
    expect((await gateway.request({ surface: 'claims', action: 'delete-claim' }, agent)).status).toBe('awaiting_approval')
  })

  it('an explicit policy override lets a destructive action run unconfirmed', async () => {
    const store = openMemoryStore()
    const gateway = new Gateway({ store, policy: { rules: [{ id: 'cleanup-bot', effect: 'allow_without_approval', actions: ['delete-claim'], actors: ['agent-1'] }] } })
    gateway.addSurface(new AppSurface(claimsReview))
    await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1003' } }, agent)
    expect((await gateway.request({ surface: 'claims', action: 'delete-claim' }, agent)).status).toBe('completed')
  })

  it('a require_approval rule adds approval to a plain write action', async () => {
    const store = openMemoryStore()
    const gateway = new Gateway({ store, policy: { rules: [{ id: 'big-rejections', effect: 'require_approval', actions: ['reject-claim'], when: 'state.claim.amount > 5000' }] } })
    gateway.addSurface(new AppSurface(claimsReview))
    await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1002' } }, agent)
    expect((await gateway.request({ surface: 'claims', action: 'reject-claim', input: { reason: 'Too risky' } }, agent)).status).toBe('awaiting_approval')
  })

  it('no request body can approve itself: approval fields in the body are kept in the trace and ignored', async () => {
    const { gateway, store } = setup()
    await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, agent)
    const forged = await gateway.request(
      { surface: 'claims', action: 'approve-payout', confirmed: true, approved: true, approvalId: 'apr_forged', approver: 'alice', input: { confirmed: true } },
      agent,
    )
    expect(forged.status).toBe('awaiting_approval')
    const requested: TraceEvent[] = []
    for await (const e of store.read('approvals')) if (e.type === 'requested' && e.requestId === forged.requestId) requested.push(e)
    expect(JSON.stringify(requested[0]?.data)).toContain('"approved":true')
  })

  it('the requester cannot approve, even holding the approver role', async () => {
    const { gateway } = setup()
    const pending = await pendingPayout(gateway, agentWithApproverRole)
    await expect(gateway.approve(pending.approvalId!, agentWithApproverRole)).rejects.toMatchObject({ code: 'forbidden' })
    await expect(gateway.deny(pending.approvalId!, agentWithApproverRole)).rejects.toMatchObject({ code: 'forbidden' })
  })

  it('a principal without the approver role cannot approve — another agent, or an admin', async () => {
    const { gateway } = setup()
    const pending = await pendingPayout(gateway)
    await expect(gateway.approve(pending.approvalId!, otherAgent)).rejects.toMatchObject({ code: 'forbidden' })
    await expect(gateway.approve(pending.approvalId!, admin)).rejects.toMatchObject({ code: 'forbidden' })
    expect((await gateway.approvals.get(pending.approvalId!)).status).toBe('pending')
  })

  it('is bound to (frame, action, input): a mismatching view is refused', async () => {
    const { gateway } = setup()
    const pending = await pendingPayout(gateway)
    await expect(gateway.approve(pending.approvalId!, approver, { inputHash: contentHash({ amount: 1 }) })).rejects.toMatchObject({ code: 'conflict' })
    await expect(gateway.approve(pending.approvalId!, approver, { action: 'delete-claim' })).rejects.toMatchObject({ code: 'conflict' })
    await expect(gateway.approve(pending.approvalId!, approver, { frameId: '0'.repeat(64) })).rejects.toMatchObject({ code: 'conflict' })
    const { result } = await gateway.approve(pending.approvalId!, approver, { inputHash: contentHash({}), action: 'approve-payout', frameId: pending.frameId! })
    expect(result.status).toBe('completed')
  })

  it('is bound to its frame: when the UI moved on, approving runs nothing and says stale_frame', async () => {
    const { gateway } = setup()
    const pending = await pendingPayout(gateway)
    await gateway.request({ surface: 'claims', action: 'close-claim' }, agent)
    const { result } = await gateway.approve(pending.approvalId!, approver)
    expect(result.status).toBe('stale_frame')
  })

  it('expires: after its time it cannot be approved, and a sweep marks the rest expired', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const { gateway, store } = setup(() => now)
    const first = await pendingPayout(gateway)
    now += 61_000
    await expect(gateway.approve(first.approvalId!, approver)).rejects.toMatchObject({ code: 'conflict' })
    expect((await gateway.approvals.get(first.approvalId!)).status).toBe('expired')
    const second = await gateway.request({ surface: 'claims', action: 'delete-claim' }, agent)
    now += 61_000
    expect(await gateway.expireApprovals()).toBe(1)
    expect((await gateway.approvals.get(second.approvalId!)).status).toBe('expired')
    const types: string[] = []
    for await (const e of store.read('approvals')) types.push(e.type)
    expect(types.filter((t) => t === 'expired')).toHaveLength(2)
  })

  it('can be used once; a denied approval runs nothing', async () => {
    const { gateway } = setup()
    const pending = await pendingPayout(gateway)
    await gateway.approve(pending.approvalId!, approver)
    await expect(gateway.approve(pending.approvalId!, approver)).rejects.toMatchObject({ code: 'conflict' })
    const del = await gateway.request({ surface: 'claims', action: 'delete-claim' }, agent)
    const denied = await gateway.deny(del.approvalId!, approver, 'keep it')
    expect(denied.status).toBe('denied')
    await expect(gateway.approve(del.approvalId!, approver)).rejects.toMatchObject({ code: 'conflict' })
    const snapshot = await gateway.observe('claims')
    expect((snapshot.state.claims as unknown[]).length).toBe(4)
  })

  it('an unknown approval id is not_found', async () => {
    const { gateway } = setup()
    await expect(gateway.approve('apr_nope', approver)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('one approval per intent: a retried request waits on the pending one, which then runs once', async () => {
    const { gateway, store } = setup()
    const first = await pendingPayout(gateway)
    const retried = await gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
    expect(retried).toMatchObject({ status: 'awaiting_approval', approvalId: first.approvalId })
    expect(await gateway.approvals.list({ status: 'pending' })).toHaveLength(1)
    // Another agent asking the same is another intent: it gets its own.
    const other = await gateway.request({ surface: 'claims', action: 'approve-payout' }, otherAgent)
    expect(other.approvalId).not.toBe(first.approvalId)
    const { result } = await gateway.approve(first.approvalId!, approver)
    expect(result.status).toBe('completed')
    // The retry's own trace says which approval it waits on.
    const events: TraceEvent[] = []
    for await (const event of store.read('approvals')) events.push(event)
    const waits = events.filter((e) => e.type === 'awaiting_approval' && (e.data as { approvalId?: string }).approvalId === first.approvalId)
    expect(waits).toHaveLength(2)
  })
})
