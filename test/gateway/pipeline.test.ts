import { claimsReview, initialClaimsState, type ClaimsState } from '@tessera/example-claims-review'
import { Gateway, openMemoryStore, type PolicyConfigInput, type TraceStore } from '@tessera/gateway'
import type { ActionResult, TraceEvent } from '@tessera/protocol'
import { AppSurface } from '@tessera/surface-app'
import { describe, expect, it } from 'vitest'
import { agent, approver } from '../support/principals.js'
import { brokenRenderApp, counterApp } from '../support/test-apps.js'

async function setup(options: { policy?: PolicyConfigInput; state?: ClaimsState; timeoutMs?: number } = {}) {
  const store = openMemoryStore()
  const gateway = new Gateway({ store, session: 'test', ...(options.policy ? { policy: options.policy } : {}), dispatchTimeoutMs: options.timeoutMs ?? 2_000 })
  const claims = new AppSurface(claimsReview, options.state ? { state: options.state } : {})
  gateway.addSurface(claims)
  return { store, gateway, claims }
}

async function events(store: TraceStore, session = 'test'): Promise<TraceEvent[]> {
  const out: TraceEvent[] = []
  for await (const event of store.read(session)) out.push(event)
  return out
}

async function open(gateway: Gateway, claimId: string): Promise<ActionResult> {
  const result = await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId } }, agent)
  expect(result.status).toBe('completed')
  return result
}

describe('gateway pipeline: every status', () => {
  it('completed: runs the action, returns the state diff, the delta and the trace events', async () => {
    const { gateway, store } = await setup()
    const before = await gateway.observe('claims')
    const result = await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1003' }, frameId: before.id }, agent)
    expect(result.status).toBe('completed')
    expect(result.frameId).toBe(before.id)
    expect(result.nextFrameId).not.toBe(before.id)
    expect(result.diff).toContainEqual(expect.objectContaining({ op: 'replace', path: '/claim' }))
    expect(result.delta?.route).toEqual({ from: '/claims', to: '/claims/c-1003' })
    expect(result.delta?.actionsAdded).toContain('approve-payout')
    const trace = await events(store)
    expect(result.events.every((seq) => trace.some((e) => e.seq === seq))).toBe(true)
    expect(trace.map((e) => e.type)).toEqual(['frame', 'requested', 'dispatched', 'frame', 'completed'])
  })

  it('no_frame: a surface that cannot render ends the request before anything runs', async () => {
    const { gateway, store } = await setup()
    gateway.addSurface(new AppSurface(brokenRenderApp))
    const result = await gateway.request({ surface: 'broken-render', action: 'anything' }, agent)
    expect(result.status).toBe('no_frame')
    expect(result.error?.message).toContain('render crashed')
    expect((await events(store)).at(-1)?.type).toBe('rejected')
  })

  it('stale_frame: a request naming an older frame is refused and told the current one', async () => {
    const { gateway } = await setup()
    const first = await gateway.observe('claims')
    await open(gateway, 'c-1001')
    const result = await gateway.request({ surface: 'claims', action: 'close-claim', frameId: first.id }, agent)
    expect(result.status).toBe('stale_frame')
    expect(result.error?.details?.found).toBe(first.id)
    expect(result.error?.details?.expected).toBe(result.frameId)
  })

  it('not_found: unknown action and unknown surface, each naming what exists', async () => {
    const { gateway } = await setup()
    const action = await gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
    expect(action.status).toBe('not_found')
    expect(action.error?.details?.expected).toEqual(['export-claims', 'open-claim'])
    const surface = await gateway.request({ surface: 'nope', action: 'x' }, agent)
    expect(surface.status).toBe('not_found')
    expect(surface.error?.details?.expected).toEqual(['claims'])
  })

  it('disabled: an action the frame shows disabled does not run', async () => {
    const { gateway } = await setup()
    await open(gateway, 'c-1004')
    const result = await gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
    expect(result.status).toBe('disabled')
    // Which element, and what to do: not only that the action is disabled.
    expect(result.error?.message).toMatch(/^action "approve-payout" on @\S+ (\(\w+\) )?is disabled in frame \w+: the element is disabled now; read the frame again once something enables it$/)
  })

  it('invalid_input: the contract schema rejects the input and says where', async () => {
    const { gateway } = await setup()
    await open(gateway, 'c-1001')
    const short = await gateway.request({ surface: 'claims', action: 'reject-claim', input: { reason: 'no' } }, agent)
    expect(short.status).toBe('invalid_input')
    expect(short.error?.message).toContain('input.reason')
    const extra = await gateway.request({ surface: 'claims', action: 'reject-claim', input: { reason: 'fine reason', wire: 'all' } }, agent)
    expect(extra.status).toBe('invalid_input')
    const wrongType = await gateway.request({ surface: 'claims', action: 'reject-claim', input: [1, 2] }, agent)
    expect(wrongType.status).toBe('invalid_input')
  })

  it('precondition_failed: the claims contract refuses a claim that is not ready, or too risky', async () => {
    const { gateway } = await setup()
    await open(gateway, 'c-1002')
    const review = await gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
    expect(review.status).toBe('precondition_failed')
    expect(review.error?.message).toContain('claim.status === "ready"')

    const risky = initialClaimsState()
    risky.claims[0] = { ...risky.claims[0]!, fraudScore: 0.9 }
    const second = await setup({ state: risky })
    await open(second.gateway, 'c-1001')
    const fraud = await second.gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
    expect(fraud.status).toBe('precondition_failed')
    expect(fraud.error?.message).toContain('claim.fraudScore < 0.75')
  })

  it('condition_error: a precondition that reads through a missing object is an error, not false', async () => {
    const { gateway } = await setup()
    gateway.addSurface(new AppSurface(counterApp()))
    const result = await gateway.request({ surface: 'counter', action: 'odd' }, agent)
    expect(result.status).toBe('condition_error')
    expect(result.error?.code).toBe('condition_error')
  })

  it('denied: a policy rule denies by action, and one written as a condition denies by input', async () => {
    const { gateway } = await setup({
      policy: {
        rules: [
          { id: 'no-exports-by-agents', effect: 'deny', actions: ['export-claims'], roles: ['agent'] },
          { id: 'polite-reasons', effect: 'deny', actions: ['reject-claim'], when: 'includes(lower(input.reason), "stupid")' },
        ],
      },
    })
    const exported = await gateway.request({ surface: 'claims', action: 'export-claims', input: { format: 'csv' } }, agent)
    expect(exported.status).toBe('denied')
    expect(exported.error?.details?.rule).toBe('no-exports-by-agents')
    await open(gateway, 'c-1003')
    const rude = await gateway.request({ surface: 'claims', action: 'reject-claim', input: { reason: 'Stupid claim' } }, agent)
    expect(rude.status).toBe('denied')
    const polite = await gateway.request({ surface: 'claims', action: 'reject-claim', input: { reason: 'Duplicate claim' } }, agent)
    expect(polite.status).toBe('completed')
  })

  it('denied: a budget caps the actions of one risk per session', async () => {
    const { gateway } = await setup({ policy: { budget: { perSessionByRisk: { read: 2 } } } })
    await open(gateway, 'c-1001')
    expect((await gateway.request({ surface: 'claims', action: 'close-claim' }, agent)).status).toBe('completed')
    const third = await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1002' } }, agent)
    expect(third.status).toBe('denied')
    expect(third.error?.message).toContain('budget')
  })

  it('rate_limited: per principal, others unaffected', async () => {
    const { gateway } = await setup({ policy: { rateLimit: { requests: 2, windowMs: 60_000 } } })
    await open(gateway, 'c-1001')
    expect((await gateway.request({ surface: 'claims', action: 'close-claim' }, agent)).status).toBe('completed')
    const third = await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, agent)
    expect(third.status).toBe('rate_limited')
    expect(third.error?.details?.retryAfterMs).toBeGreaterThan(0)
    const other = await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, { id: 'agent-9', roles: ['agent'] })
    expect(other.status).toBe('completed')
  })

  it('awaiting_approval → approved by a human → completed with the postcondition verified', async () => {
    const { gateway, store } = await setup()
    await open(gateway, 'c-1001')
    const pending = await gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
    expect(pending.status).toBe('awaiting_approval')
    expect(pending.approvalId).toMatch(/^apr_/)
    const { approval, result } = await gateway.approve(pending.approvalId!, approver)
    expect(result.status).toBe('completed')
    expect(result.requestId).toBe(pending.requestId)
    expect(approval.status).toBe('consumed')
    expect(approval.resolvedBy).toBe('alice')
    expect(result.diff).toContainEqual({ op: 'replace', path: '/claim/status', value: 'approved' })
    const types = (await events(store)).filter((e) => e.requestId === pending.requestId).map((e) => e.type)
    expect(types).toEqual(['requested', 'awaiting_approval', 'approved', 'dispatched', 'frame', 'completed'])
  })

  it('failed: a handler that throws is reported with its message, and the surface keeps working', async () => {
    const { gateway } = await setup()
    gateway.addSurface(new AppSurface(counterApp()))
    const result = await gateway.request({ surface: 'counter', action: 'explode' }, agent)
    expect(result.status).toBe('failed')
    expect(result.error?.message).toContain('payment service refused')
    expect((await gateway.request({ surface: 'counter', action: 'increment' }, agent)).status).toBe('completed')
  })

  it('timed_out: a hanging action times out, and the next action waits for it to settle', async () => {
    const { gateway } = await setup({ timeoutMs: 100 })
    const counter = new AppSurface(counterApp({ hangMs: 400 }))
    gateway.addSurface(counter)
    const started = Date.now()
    const result = await gateway.request({ surface: 'counter', action: 'slow' }, agent)
    expect(result.status).toBe('timed_out')
    expect(Date.now() - started).toBeLessThan(390)
    // The serial queue holds the surface until the slow action really ends: no overlap.
    const next = await gateway.request({ surface: 'counter', action: 'increment' }, agent)
    expect(next.status).toBe('completed')
    expect(counter.runtime.state.count).toBe(101)
  })

  it('postcondition_failed: the action ran but the next frame does not show what it promised', async () => {
    const { gateway } = await setup()
    gateway.addSurface(new AppSurface(counterApp()))
    const result = await gateway.request({ surface: 'counter', action: 'lazy' }, agent)
    expect(result.status).toBe('postcondition_failed')
    expect(result.error?.message).toContain('count === prev.count + 1')
  })

  it('a malformed request envelope is a typed error, and nothing reaches a surface', async () => {
    const { gateway, store } = await setup()
    await expect(gateway.request({ surface: 'claims' }, agent)).rejects.toMatchObject({ code: 'invalid_request' })
    await expect(gateway.request('open everything', agent)).rejects.toMatchObject({ code: 'invalid_request' })
    await expect(gateway.request({ surface: 'claims', action: 'Open Claim!' }, agent)).rejects.toMatchObject({ code: 'invalid_request' })
    expect(await events(store)).toEqual([])
  })
})
