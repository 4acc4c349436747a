import { canonicalJson, resolveTarget, type ResolvedTarget, type Surface } from '@tessera/protocol'
import { stateDiff } from '../diff/state-diff.js'
import type { TraceStore } from '../trace/store.js'
import { type ReplayAction, reconstructSession } from './reconstruct.js'

export interface Divergence {
  step: number
  requestId: string
  action: string
  what: 'frame' | 'missing_action' | 'perform' | 'next_frame' | 'diff'
  expected: unknown
  found: unknown
}

export interface ReexecuteReport {
  ok: boolean
  /** Actions performed again before the first divergence (or all of them). */
  steps: number
  divergence: Divergence | null
}

/**
 * Drives fresh surfaces with the recorded requests, in order, and stops at the first step
 * whose frame, state diff or next frame differs from the recording. Only dispatched
 * actions are performed: the rest never reached a surface, so they changed nothing.
 */
export async function reexecuteSession(
  store: TraceStore,
  session: string,
  createSurface: (surfaceId: string) => Promise<Surface>,
): Promise<ReexecuteReport> {
  const surfaces = new Map<string, Surface>()
  const surfaceFor = async (id: string): Promise<Surface> => {
    let surface = surfaces.get(id)
    if (surface === undefined) {
      surface = await createSurface(id)
      surfaces.set(id, surface)
    }
    return surface
  }
  let steps = 0
  // `steps` counts the actions re-executed identically; a divergence is at step steps + 1.
  const diverge = (action: ReplayAction, what: Divergence['what'], expected: unknown, found: unknown): ReexecuteReport => ({
    ok: false,
    steps,
    divergence: { step: steps + 1, requestId: action.requestId, action: action.action, what, expected, found },
  })
  try {
    for await (const step of reconstructSession(store, session)) {
      if (step.kind !== 'action' || !step.action.dispatched) continue
      const recorded = step.action
      const surface = await surfaceFor(recorded.surface)
      const before = await surface.snapshot()
      if (recorded.frameId !== null && before.id !== recorded.frameId) return diverge(recorded, 'frame', recorded.frameId, before.id)
      let resolved: ResolvedTarget
      try {
        resolved = resolveTarget(before, recorded.action, recorded.target ?? undefined)
      } catch {
        return diverge(recorded, 'missing_action', recorded.action, before.contracts.map((c) => c.id))
      }
      try {
        await surface.perform({ frame: before, ...resolved, input: recorded.input }, { actor: recorded.actor, session, requestId: recorded.requestId, signal: new AbortController().signal })
      } catch (error) {
        if (recorded.status === 'failed') {
          steps += 1
          continue
        }
        return diverge(recorded, 'perform', recorded.status, error instanceof Error ? error.message : String(error))
      }
      const after = await surface.snapshot()
      if (recorded.diff !== null) {
        const diff = stateDiff(before.state, after.state)
        if (canonicalJson(diff) !== canonicalJson(recorded.diff)) return diverge(recorded, 'diff', recorded.diff, diff)
      }
      if (recorded.nextFrameId !== null && after.id !== recorded.nextFrameId) return diverge(recorded, 'next_frame', recorded.nextFrameId, after.id)
      steps += 1
    }
    return { ok: true, steps, divergence: null }
  } finally {
    await Promise.all([...surfaces.values()].map((surface) => surface.close()))
  }
}
