import { type Frame, type ResolvedTarget, contentHash, resolveTarget, targetDrift } from '@tessera/protocol'
import type { StepEnd } from './step-end.js'

export interface StalenessQuestion {
  action: string
  /** The ref the request named, if any; filled in from the older frame when it named none. */
  target: string | undefined
  /** The frame the request names, if any (full id or a 12+ digit prefix). */
  frameId: string | undefined
  /** Set when a human approved: the hash of the state the approved frame showed. */
  approvedState?: string | undefined
}

export type StalenessAnswer = { fresh: true; target: string | undefined } | { fresh: false; end: StepEnd }

/**
 * Whether a request still means, on the current frame, what it meant on the frame it names.
 * A request on an older frame runs when its target kept its contract, role, name and enabled
 * state, so a clock ticking elsewhere does not make it stale; a target that went away or
 * changed meaning does, and so does a frame this hub no longer remembers (`recall` finds
 * none) — the safe answer. An approved request also needs the state the human saw.
 */
export function judgeStaleness(question: StalenessQuestion, frame: Frame, recall: (frameId: string) => Frame | undefined): StalenessAnswer {
  const named = question.frameId
  const stale = (message: string, details: Record<string, unknown> = {}): StalenessAnswer => ({
    fresh: false,
    end: { status: 'stale_frame', error: { code: 'conflict', message, details: { expected: frame.id, found: named ?? null, ...details } }, extra: { frameId: frame.id } },
  })
  if (question.approvedState !== undefined && contentHash(frame.state) !== question.approvedState) {
    return stale('the state changed since the action was approved; ask again on the current frame')
  }
  // A 12+ digit prefix names a frame as well as the full id (outlines print 12 digits).
  if (named === undefined || (named.length >= 12 && frame.id.startsWith(named.toLowerCase()))) return { fresh: true, target: question.target }
  const short = named.slice(0, 12)
  const seen = recall(named)
  if (seen === undefined) return stale(`the request names frame ${short}…, which this hub no longer knows; the surface now shows ${frame.id.slice(0, 12)}…`)
  let before: ResolvedTarget
  try {
    before = resolveTarget(seen, question.action, question.target)
  } catch {
    // Not offered in the frame the agent named: if it is now, the agent acted on a view it
    // never had; if it is not, the lookup step reports it against the current frame.
    const offeredNow = frame.targets.some((t) => t.contract === question.action)
    return offeredNow ? stale(`"${question.action}" was not offered in frame ${short}…; the surface now shows ${frame.id.slice(0, 12)}…`) : { fresh: true, target: question.target }
  }
  let now: ResolvedTarget
  try {
    now = resolveTarget(frame, question.action, question.target ?? before.target.ref)
  } catch {
    return stale(`"${question.action}" on ${before.target.ref} is gone since frame ${short}…`, { ref: before.target.ref })
  }
  const drift = targetDrift(before, now)
  if (drift !== null) return stale(`${drift} since frame ${short}…`, { ref: before.target.ref })
  return { fresh: true, target: question.target ?? before.target.ref }
}
