import type { JsonValue } from '@tessera/protocol'
import { defineApp } from '@tessera/ui'
import { type ClaimsState, claimsView, initialClaimsState, selectedClaim, updateClaim } from './claims.js'
import { renderClaims } from './render.js'

function inputString(input: JsonValue, key: string): string {
  return input !== null && typeof input === 'object' && !Array.isArray(input) && typeof input[key] === 'string' ? input[key] : ''
}

function openId(state: ClaimsState): string {
  const claim = selectedClaim(state)
  if (claim === null) throw new Error('no claim is open')
  return claim.id
}

/** The agent-native demo: review insurance claims, approve payouts. */
export const claimsReview = defineApp<ClaimsState>({
  id: 'claims',
  title: 'Claims review',
  viewport: { width: 1024, height: 768 },
  initialState: initialClaimsState,
  route: (state) => (state.selectedId === null ? '/claims' : `/claims/${state.selectedId}`),
  render: renderClaims,
  view: claimsView,
  handlers: {
    'open-claim': ({ state, input }) => ({ ...state, selectedId: inputString(input, 'claimId'), notice: null }),
    'close-claim': ({ state }) => ({ ...state, selectedId: null, notice: null }),
    'approve-payout': ({ state }) => {
      const id = openId(state)
      return { state: { ...updateClaim(state, id, { status: 'approved' }), notice: `Payout for ${id} approved` }, output: { claimId: id, status: 'approved' } }
    },
    'reject-claim': ({ state, input }) => {
      const id = openId(state)
      const claim = selectedClaim(state)
      const next = updateClaim(state, id, { status: 'rejected', notes: [...(claim?.notes ?? []), `Rejected: ${inputString(input, 'reason')}`] })
      return { state: { ...next, notice: `Claim ${id} rejected` }, output: { claimId: id, status: 'rejected' } }
    },
    'request-info': ({ state, input }) => {
      const id = openId(state)
      const claim = selectedClaim(state)
      const channel = inputString(input, 'channel') || 'email'
      const next = updateClaim(state, id, { status: 'pending_info', notes: [...(claim?.notes ?? []), `Asked by ${channel}: ${inputString(input, 'question')}`] })
      return { state: { ...next, notice: `Information requested for ${id}` }, output: { claimId: id, channel } }
    },
    'export-claims': ({ state, input }) => {
      const format = inputString(input, 'format')
      const rows = state.claims.map(({ id, claimant, amount, status }) => ({ id, claimant, amount, status }))
      const body = format === 'csv' ? ['id,claimant,amount,status', ...rows.map((r) => `${r.id},${r.claimant},${r.amount},${r.status}`)].join('\n') : JSON.stringify(rows)
      return { state: { ...state, exports: state.exports + 1, notice: `Exported ${rows.length} claims as ${format}` }, output: { format, count: rows.length, body } }
    },
    'delete-claim': ({ state }) => {
      const id = openId(state)
      return { state: { ...state, claims: state.claims.filter((c) => c.id !== id), selectedId: null, notice: `Claim ${id} deleted` }, output: { claimId: id, deleted: true } }
    },
  },
})

export default claimsReview
