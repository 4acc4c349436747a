import { pageFence } from '@tessera/kit'
import { cutWhole, outlineDelta, pageWordsOf } from '@tessera/protocol'
import type { ActionResult, ErrorShape, Frame } from '@tessera/protocol'

/** What a result's text may say beyond the result itself. */
export interface ResultContext {
  consoleUrl: string
  /** The frame after a completed action, so the delta shows its lines in context. */
  after?: Frame
  /** Why the action waits for a person, as the approval records it. */
  approvalReason?: string
}

/** A result as a model reads it: the status first, then what changed, then the output. */
export function resultText(result: ActionResult, { consoleUrl, after, approvalReason }: ResultContext): string {
  // The request id is what a later question (approval_status, the trace) names: only a call
  // that did not simply complete needs it.
  const lines = [result.status === 'completed' ? `completed: ${result.surface}/${result.action}` : `${result.status}: ${result.surface}/${result.action} (request ${result.requestId})`]
  if (result.status === 'awaiting_approval') {
    lines.push(
      // The reason lets the agent tell its user what the person is asked, and why, without a second call.
      `A person must approve this first${approvalReason === undefined ? '' : `: ${approvalReason}`}. Approval ${result.approvalId} is pending; it can be resolved in the console (${consoleUrl}), with \`tessera approvals approve ${result.approvalId}\`, or over the HTTP API by an approver. This session gets a log message when it is decided, and approval_status tells; do not retry the action.`,
    )
  }
  if (result.error) lines.push(...errorLines(result.error))
  // What changed and what the action gave back are the interface's words (a page's text, what its tool returned): fenced, as an outline is.
  const said = [...(result.delta ? [outlineDelta(result.delta, after ? { after } : {})] : []), ...(result.output !== undefined ? [`output: ${cutWhole(JSON.stringify(result.output), 4000)}`] : [])]
  if (said.length > 0 && result.surface !== HUB_SURFACE) {
    const fence = pageFence()
    lines.push(fence.open, ...said, fence.close)
  } else lines.push(...said)
  if (result.nextFrameId) lines.push(`frame ${result.nextFrameId.slice(0, 12)}`)
  return lines.join('\n')
}

/** The hub's own surface (the map of tiles): its output is the hub's words. */
const HUB_SURFACE = 'map'

/**
 * An error as a model reads it: `error [code]: message`, then the page's words it is about
 * (PAGE_WORDS: the options a list offers, a banner's words), one quoted string a line inside
 * a page fence, as any words of a page are.
 */
export function errorLines(error: ErrorShape): string[] {
  const words = pageWordsOf(error.details)
  const head = `error [${error.code}]: ${error.message}`
  if (words === undefined) return [head]
  const fence = pageFence()
  return [head, fence.open, ...words.map((word) => JSON.stringify(word)), fence.close]
}

/** Statuses where the agent did nothing wrong: not reported as tool errors. */
export function isToolError(result: ActionResult): boolean {
  return result.status !== 'completed' && result.status !== 'awaiting_approval'
}
