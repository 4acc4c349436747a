import { type ActionResult, type ActionStatus, type ExecutionResult, type Frame, type StateSnapshot, targetLabel } from '@tessera/protocol'

const SENTENCES: Record<ActionStatus, string> = {
  no_frame: 'The surface could not show its current state.',
  stale_frame: 'The screen changed since you looked; take a new snapshot.',
  not_found: 'That action is not available here.',
  disabled: 'That action is disabled right now.',
  invalid_input: 'The input does not match what the action expects.',
  precondition_failed: 'The action is not allowed in the current state.',
  condition_error: 'A condition could not be evaluated.',
  denied: 'Policy does not allow this action.',
  rate_limited: 'Too many requests; wait and try again.',
  awaiting_approval: 'A person must approve this action first.',
  failed: 'The action failed.',
  timed_out: 'The action did not finish in time.',
  completed: 'Done.',
  postcondition_failed: 'The action ran, but the result is not what it promised.',
}

/** The chat-control view of a gateway result (docs/protocol.md, "Chat control"). */
export function toExecutionResult(result: ActionResult): ExecutionResult {
  const out: ExecutionResult = {
    requestId: result.requestId,
    actionId: result.action,
    status: result.status,
    ok: result.status === 'completed',
    message: result.error ? `${SENTENCES[result.status]} ${result.error.message}` : SENTENCES[result.status],
    stateDiff: result.diff ?? [],
  }
  if (result.output !== undefined) out.output = result.output
  if (result.approvalId !== undefined) out.approvalId = result.approvalId
  if (result.error !== undefined) out.error = result.error
  return out
}

export function toStateSnapshot(frame: Frame, timestamp: string = new Date().toISOString()): StateSnapshot {
  return {
    surface: frame.surface,
    frameId: frame.id,
    route: frame.route,
    timestamp,
    state: frame.state,
    actions: frame.targets.filter((target) => target.enabled).map((target) => targetLabel(frame, target)),
  }
}
