import { randomUUID } from 'node:crypto'
import type { ApprovalExplanation } from './explain-approval.js'
import { type Approval, type JsonValue, type Principal, TesseraError } from '@tessera/protocol'

export interface ApprovalPersistence {
  putApproval(approval: Approval): Promise<void>
  transitionApproval(next: Approval, from: Approval['status']): Promise<boolean>
  getApproval(id: string): Promise<Approval | null>
  listApprovals(filter?: { status?: Approval['status']; session?: string }): Promise<Approval[]>
}

export interface OpenApproval {
  session: string
  requestId: string
  surface: string
  action: string
  frameId: string
  target?: string
  stateHash?: string
  seenHash?: string
  inputHash: string
  redactedInput: JsonValue
  requester: string
  reason: string
  explained?: ApprovalExplanation | undefined
  ttlMs: number
  now: number
}

/**
 * Pending approvals and the rules for resolving them. An approval is bound to one
 * (frame id, action id, input hash) and resolved only by a principal holding the
 * approver role who is not the requester; it expires. It is persisted with the trace so a
 * restarted hub still knows what is pending.
 */
export class ApprovalBook {
  readonly #store: ApprovalPersistence
  readonly #settledListeners = new Set<(approval: Approval) => void>()

  constructor(store: ApprovalPersistence) {
    this.#store = store
  }

  /**
   * Called once an approval reaches its end: denied, expired, or consumed with the result of
   * the action it let run. The agent that asked hears back this way (MCP sessions wait on it
   * and notify their client) instead of polling. Returns the function that stops listening.
   */
  onSettled(listener: (approval: Approval) => void): () => void {
    this.#settledListeners.add(listener)
    return () => this.#settledListeners.delete(listener)
  }

  /**
   * The pending approval for the same intent, if one is open: same requester, surface,
   * action, target, input and frame meaning. A retried request (a client timing out, an
   * agent asking again) then waits on the one approval a person already sees, instead of
   * opening a second that would leave the first to go stale.
   */
  async pendingFor(intent: { requester: string; surface: string; action: string; target?: string | undefined; inputHash: string; frameId: string }, now: number): Promise<Approval | null> {
    const pending = await this.#store.listApprovals({ status: 'pending' })
    return (
      pending.find(
        (a) =>
          a.requester === intent.requester &&
          a.surface === intent.surface &&
          a.action === intent.action &&
          a.target === intent.target &&
          a.inputHash === intent.inputHash &&
          a.frameId === intent.frameId &&
          Date.parse(a.expiresAt) > now,
      ) ?? null
    )
  }

  async open(request: OpenApproval): Promise<Approval> {
    const approval: Approval = {
      id: `apr_${randomUUID()}`,
      session: request.session,
      requestId: request.requestId,
      surface: request.surface,
      action: request.action,
      frameId: request.frameId,
      ...(request.target === undefined ? {} : { target: request.target }),
      ...(request.stateHash === undefined ? {} : { stateHash: request.stateHash }),
      ...(request.seenHash === undefined ? {} : { seenHash: request.seenHash }),
      inputHash: request.inputHash,
      input: request.redactedInput,
      requester: request.requester,
      reason: request.reason,
      ...(request.explained ?? {}),
      status: 'pending',
      createdAt: new Date(request.now).toISOString(),
      expiresAt: new Date(request.now + request.ttlMs).toISOString(),
    }
    await this.#store.putApproval(approval)
    return approval
  }

  async get(id: string): Promise<Approval> {
    const approval = await this.#store.getApproval(id)
    if (approval === null) throw new TesseraError('not_found', `no approval with id "${id}"`, { expected: 'an existing approval id', found: id })
    return approval
  }

  list(filter?: { status?: Approval['status']; session?: string }): Promise<Approval[]> {
    return this.#store.listApprovals(filter)
  }

  /** Throws unless `approver` may resolve `approval` now; expires it when its time is up. */
  async checkResolvable(approval: Approval, approver: Principal, now: number): Promise<void> {
    if (!approver.roles.includes('approver')) {
      throw new TesseraError('forbidden', `only a principal with the approver role can resolve approvals; "${approver.id}" has roles [${approver.roles.join(', ')}]`, {
        expected: 'role approver',
        found: approver.roles,
      })
    }
    if (approver.id === approval.requester) {
      throw new TesseraError('forbidden', `"${approver.id}" requested this action and cannot approve it: an approval needs a second principal`, {
        expected: 'an approver other than the requester',
        found: approver.id,
      })
    }
    if (approval.status !== 'pending') {
      throw new TesseraError('conflict', `approval ${approval.id} is ${approval.status}, not pending`, { expected: 'pending', found: approval.status })
    }
    if (Date.parse(approval.expiresAt) <= now) {
      await this.settle(approval, { status: 'expired' })
      throw new TesseraError('conflict', `approval ${approval.id} expired at ${approval.expiresAt}`, { expected: 'a pending approval', found: 'expired' })
    }
  }

  /**
   * Checks the caller's view of what it approves against the binding, so an approver
   * looking at one frame or input cannot approve another.
   */
  checkBinding(approval: Approval, expected: { frameId?: string; action?: string; inputHash?: string }): void {
    for (const key of ['frameId', 'action', 'inputHash'] as const) {
      const want = expected[key]
      if (want !== undefined && want !== approval[key]) {
        throw new TesseraError('conflict', `approval ${approval.id} is bound to ${key} ${approval[key]}, not ${want}`, {
          expected: approval[key],
          found: want,
        })
      }
    }
  }

  /**
   * Moves `approval` on from the status it was read in, atomically: when another approver,
   * a deny or the expiry sweep moved it first, nothing is written and this throws `conflict`
   * naming what it became, so an approval runs its action at most once.
   */
  async settle(approval: Approval, change: Partial<Pick<Approval, 'status' | 'resolvedBy' | 'resolvedAt' | 'note' | 'result'>>): Promise<Approval> {
    const next: Approval = { ...approval, ...change }
    if (!(await this.#store.transitionApproval(next, approval.status))) {
      const now = await this.#store.getApproval(approval.id)
      const became = now === null ? 'gone' : `${now.status}${now.resolvedBy ? ` by ${now.resolvedBy}` : ''}`
      throw new TesseraError('conflict', `approval ${approval.id} is no longer ${approval.status}: it is ${became}`, { expected: approval.status, found: now?.status ?? null })
    }
    if (next.status !== 'pending' && next.status !== 'approved') {
      for (const listener of this.#settledListeners) {
        try {
          listener(next)
        } catch (error) {
          // A listener's failure is its own: it must not undo the settled approval or stop the others.
          console.error(`tessera approvals: a listener failed on ${next.id}: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    }
    return next
  }
}
