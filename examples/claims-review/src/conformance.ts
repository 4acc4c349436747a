import type { JsonValue } from '@tessera/protocol'

/** A session that touches every action, for `tessera conform` and the replay tests. */
export const conformance: { script: Array<{ action: string; input?: JsonValue }> } = {
  script: [
    { action: 'open-claim', input: { claimId: 'c-1001' } },
    { action: 'approve-payout' },
    { action: 'close-claim' },
    { action: 'open-claim', input: { claimId: 'c-1002' } },
    { action: 'request-info', input: { question: 'Please send the police report.', channel: 'email' } },
    { action: 'reject-claim', input: { reason: 'Fraud score too high' } },
    { action: 'close-claim' },
    { action: 'export-claims', input: { format: 'csv' } },
    { action: 'open-claim', input: { claimId: 'c-1003' } },
    { action: 'delete-claim' },
  ],
}
