import { type ActionResult, TesseraError } from '@tessera/protocol'

/**
 * An action that did not complete: denied, waiting for approval, invalid, failed. The
 * gateway's result is attached, so a script can read the approval id or the error details.
 */
export class ActionNotCompleted extends TesseraError {
  readonly result: ActionResult

  constructor(result: ActionResult) {
    const reason = result.status === 'awaiting_approval' ? `waits for a human approval (${result.approvalId})` : (result.error?.message ?? result.status)
    super(result.error?.code ?? (result.status === 'awaiting_approval' ? 'forbidden' : 'internal'), `${result.surface}/${result.action} ended ${result.status}: ${reason}`, {
      status: result.status,
      ...(result.approvalId ? { approvalId: result.approvalId } : {}),
    })
    this.name = 'ActionNotCompleted'
    this.result = result
  }
}
