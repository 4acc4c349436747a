import { agentAction } from '@tessera/ui'

const claimOpen = 'claim !== null'

export const openClaim = (claimIds: string[]) =>
  agentAction({
    id: 'open-claim',
    kind: 'navigate',
    title: 'Open a claim',
    risk: 'read',
    inputSchema: {
      type: 'object',
      properties: { claimId: { type: 'string', enum: claimIds } },
      required: ['claimId'],
      additionalProperties: false,
    },
    postconditions: ['claim.id === input.claimId'],
  })

export const closeClaim = agentAction({
  id: 'close-claim',
  kind: 'navigate',
  title: 'Back to the claim list',
  risk: 'read',
  preconditions: [claimOpen],
  postconditions: ['claim === null'],
})

export const approvePayout = agentAction({
  id: 'approve-payout',
  kind: 'approve',
  title: 'Approve payout',
  summary: 'Approve payout of {claim.amount | currency EUR} to {claim.claimant} for claim {claim.id}',
  risk: 'write',
  requiresConfirmation: true,
  preconditions: ['claim.status === "ready"', 'claim.fraudScore < 0.75'],
  postconditions: ['claim.status === "approved"'],
  audit: { workflow: 'claims-review' },
})

export const rejectClaim = agentAction({
  id: 'reject-claim',
  kind: 'reject',
  title: 'Reject claim',
  summary: 'Reject claim {claim.id} of {claim.claimant} ({claim.amount | currency EUR}): {input.reason}',
  risk: 'write',
  inputSchema: {
    type: 'object',
    properties: { reason: { type: 'string', minLength: 3, maxLength: 500 } },
    required: ['reason'],
    additionalProperties: false,
  },
  preconditions: [claimOpen, 'claim.status in ["ready", "review", "pending_info"]'],
  postconditions: ['claim.status === "rejected"'],
  audit: { workflow: 'claims-review' },
})

export const requestInfo = agentAction({
  id: 'request-info',
  kind: 'request',
  title: 'Request more information',
  risk: 'write',
  inputSchema: {
    type: 'object',
    properties: {
      question: { type: 'string', minLength: 5, maxLength: 1000 },
      channel: { type: 'string', enum: ['email', 'phone', 'letter'], default: 'email' },
    },
    required: ['question'],
    additionalProperties: false,
  },
  preconditions: [claimOpen, 'claim.status !== "approved"', 'claim.status !== "rejected"'],
  postconditions: ['claim.status === "pending_info"', 'len(claim.notes) === len(prev.claim.notes) + 1'],
  audit: { workflow: 'claims-review' },
})

export const exportClaims = agentAction({
  id: 'export-claims',
  kind: 'export',
  title: 'Export claims',
  summary: 'Export all {len(claims)} claims as {input.format}, out of the hub',
  risk: 'external',
  inputSchema: {
    type: 'object',
    properties: { format: { type: 'string', enum: ['csv', 'json'] } },
    required: ['format'],
    additionalProperties: false,
  },
  postconditions: ['exports === prev.exports + 1'],
  audit: { workflow: 'claims-review' },
})

export const deleteClaim = agentAction({
  id: 'delete-claim',
  kind: 'delete',
  title: 'Delete claim',
  summary: 'Delete claim {claim.id} of {claim.claimant} ({claim.amount | currency EUR}) for good',
  risk: 'destructive',
  preconditions: [claimOpen],
  postconditions: ['claim === null', 'len(claims) === len(prev.claims) - 1'],
  audit: { workflow: 'claims-review' },
})
