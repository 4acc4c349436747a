import { randomUUID } from 'node:crypto'
import type { ApprovalExplanation } from './explain-approval.js'
import { type Approval, type JsonValue, type Principal, TesseraError } from '@tessera/protocol'

export interface ApprovalPersistence {
  putApproval(approval: Approval): Promise<void>
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

  constructor(store: ApprovalPersistence) {
    this.#store = store
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

  async settle(approval: Approval, change: Partial<Pick<Approval, 'status' | 'resolvedBy' | 'resolvedAt' | 'note'>>): Promise<Approval> {
    const next: Approval = { ...approval, ...change }
    await this.#store.putApproval(next)
    return next
  }
}
