import { type ClaimsState, claimsReview, conformance } from '@tessera/example-claims-review'
import { collectReplay, Gateway, openMemoryStore, reexecuteSession, type TraceStore } from '@tessera/gateway'
import { defineApp } from '@tessera/ui'
import { AppSurface } from '@tessera/surface-app'
import { describe, expect, it } from 'vitest'
import { agent, approver } from '../support/principals.js'

async function recordSession(store: TraceStore): Promise<{ frames: string[]; statuses: string[] }> {
  const gateway = new Gateway({ store, session: 'replay' })
  const surface = new AppSurface(claimsReview)
  gateway.addSurface(surface)
  const frames = [(await gateway.observe('claims')).id]
  const statuses: string[] = []
  for (const step of conformance.script) {
    let result = await gateway.request({ surface: 'claims', action: step.action, input: step.input ?? {} }, agent)
    if (result.status === 'awaiting_approval') result = (await gateway.approve(result.approvalId!, approver)).result
    statuses.push(result.status)
    frames.push((await surface.snapshot()).id)
  }
  // A refused request is part of the session too, and must not disturb re-execution.
  await gateway.request({ surface: 'claims', action: 'delete-claim' }, agent)
  return { frames, statuses }
}

describe('replay', () => {
  it('reconstructs every frame and action, in order, from the trace alone', async () => {
    const store = openMemoryStore()
    const recorded = await recordSession(store)
    expect(recorded.statuses.every((s) => s === 'completed')).toBe(true)
    const steps = await collectReplay(store, 'replay')
    const frameIds = steps.flatMap((s) => (s.kind === 'frame' ? [s.frame.id] : []))
    expect(frameIds).toEqual([...new Set(recorded.frames)])
    const actions = steps.flatMap((s) => (s.kind === 'action' ? [s.action] : []))
    expect(actions.map((a) => a.action)).toEqual([...conformance.script.map((s) => s.action), 'delete-claim'])
    expect(actions.map((a) => a.status)).toEqual([...recorded.statuses, 'not_found'])
    const payout = actions[1]!
    expect(payout.approvalId).toMatch(/^apr_/)
    expect(payout.diff).toContainEqual({ op: 'replace', path: '/claim/status', value: 'approved' })
    // Each action's next frame is the frame the next action was evaluated against.
    for (let i = 0; i + 1 < conformance.script.length; i += 1) expect(actions[i]!.nextFrameId).toBe(actions[i + 1]!.frameId)
  })

  it('re-executes on a fresh app and finds every step identical', async () => {
    const store = openMemoryStore()
    await recordSession(store)
    const report = await reexecuteSession(store, 'replay', async () => new AppSurface(claimsReview))
    expect(report).toEqual({ ok: true, steps: conformance.script.length, divergence: null })
  })

  it('names the first step whose diff differs when the app changed', async () => {
    const store = openMemoryStore()
    await recordSession(store)
    const changed = defineApp<ClaimsState>({
      ...claimsReview,
      handlers: {
        ...claimsReview.handlers,
        'request-info': ({ state }) => ({ ...state, notice: 'ignored' }),
      },
    })
    const report = await reexecuteSession(store, 'replay', async () => new AppSurface(changed))
    expect(report.ok).toBe(false)
    expect(report.divergence).toMatchObject({ step: 5, action: 'request-info', what: 'diff' })
  })
})
