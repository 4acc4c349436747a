import type { Approval } from '@tessera/protocol'
import { printable } from '@tessera/protocol/printable'

export interface ApprovalView {
  /** The sentence a person approves. */
  headline: string
  /** What runs where at what risk and who asked; why it needs a person; each precondition with the values it read; the input. */
  facts: string[]
}

/**
 * An approval as a person reads it before deciding in a terminal (`tessera approvals`).
 * Every value came from an agent or an app, so none keeps its control characters.
 */
export function approvalView(a: Approval): ApprovalView {
  const safe = printable
  const facts = [`${safe(`${a.surface}/${a.action}`)}${a.risk ? ` · risk ${a.risk}` : ''} · asked by ${safe(a.requester)}${a.status === 'pending' ? ` · expires ${a.expiresAt}` : ''}`, `why: ${safe(a.reason)}`]
  for (const check of a.preconditions ?? []) {
    const values = Object.entries(check.values).map(([path, value]) => `${path} = ${JSON.stringify(value)}`)
    facts.push(`held: ${safe(check.condition)}${values.length > 0 ? `   (${safe(values.join(', '))})` : ''}`)
  }
  facts.push(`input ${safe(JSON.stringify(a.input))}`)
  return { headline: safe(a.summary ?? `${a.surface}/${a.action}`), facts }
}
