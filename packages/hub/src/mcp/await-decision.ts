import type { ActionResult, Approval } from '@tessera/protocol'

export interface SettledApprovals {
  get(id: string): Promise<Approval>
  onSettled(listener: (approval: Approval) => void): () => void
}

/** An approval at its end: a person denied it, it expired, or the action it allowed ran. */
export function isSettled(approval: Approval): boolean {
  return approval.status === 'denied' || approval.status === 'expired' || approval.status === 'consumed'
}

/**
 * Waits up to `ms` for a person to decide `approvalId` (and, when they approve, for the
 * action to run). Resolves with the settled approval, or null when the time is up or the
 * client cancelled the call.
 */
export function awaitDecision(approvals: SettledApprovals, approvalId: string, ms: number, signal: AbortSignal): Promise<Approval | null> {
  return new Promise((resolve) => {
    let done = false
    const finish = (approval: Approval | null): void => {
      if (done) return
      done = true
      stopListening()
      clearTimeout(timer)
      signal.removeEventListener('abort', cancelled)
      resolve(approval)
    }
    const cancelled = (): void => finish(null)
    const stopListening = approvals.onSettled((approval) => {
      if (approval.id === approvalId) finish(approval)
    })
    const timer = setTimeout(() => finish(null), ms)
    signal.addEventListener('abort', cancelled, { once: true })
    if (signal.aborted) finish(null)
    // A person may have decided between the request and the listener.
    approvals.get(approvalId).then(
      (approval) => isSettled(approval) && finish(approval),
      () => finish(null),
    )
  })
}

/** What the waiting call answers once the approval settled. */
export function settledResult(waiting: ActionResult, approval: Approval): ActionResult {
  if (approval.status === 'consumed' && approval.result !== undefined) return approval.result
  const by = approval.resolvedBy === undefined ? '' : ` by ${approval.resolvedBy}`
  const note = approval.note === undefined ? '' : `: ${approval.note}`
  if (approval.status === 'denied') {
    return { ...waiting, status: 'denied', error: { code: 'forbidden', message: `denied${by}${note}`, details: { approvalId: approval.id } } }
  }
  return { ...waiting, status: 'denied', error: { code: 'conflict', message: `approval ${approval.id} ${approval.status}${note} before the action ran`, details: { approvalId: approval.id, found: approval.status } } }
}

/** One line for the agent's client when an approval it waits on settles. */
export function decisionMessage(approval: Approval): string {
  const what = `${approval.surface}/${approval.action}`
  const by = approval.resolvedBy === undefined ? '' : ` by ${approval.resolvedBy}`
  if (approval.status === 'consumed') return `approval ${approval.id} approved${by}; ${what} ended ${approval.result?.status ?? 'without a result'}`
  return `approval ${approval.id} ${approval.status}${by}; ${what} did not run${approval.note === undefined ? '' : ` (${approval.note})`}`
}
