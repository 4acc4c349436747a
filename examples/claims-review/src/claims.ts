import type { JsonObject } from '@tessera/protocol'

export type ClaimStatus = 'ready' | 'review' | 'pending_info' | 'approved' | 'rejected'

export interface Claim extends JsonObject {
  id: string
  claimant: string
  amount: number
  status: ClaimStatus
  fraudScore: number
  /** The payout account: a secret that must never reach an agent or a trace. */
  payoutIban: string
  notes: string[]
}

export interface ClaimsState extends JsonObject {
  claims: Claim[]
  selectedId: string | null
  exports: number
  notice: string | null
}

export const seedClaims: Claim[] = [
  { id: 'c-1001', claimant: 'Ada Brennan', amount: 1250, status: 'ready', fraudScore: 0.12, payoutIban: 'DE89370400440532013000', notes: [] },
  { id: 'c-1002', claimant: 'Tomás Ruiz', amount: 8400, status: 'review', fraudScore: 0.81, payoutIban: 'ES9121000418450200051332', notes: [] },
  { id: 'c-1003', claimant: 'Mei Tanaka', amount: 560, status: 'ready', fraudScore: 0.34, payoutIban: 'FR1420041010050500013M02606', notes: [] },
  { id: 'c-1004', claimant: 'Jonas Berg', amount: 3020, status: 'pending_info', fraudScore: 0.5, payoutIban: 'NL91ABNA0417164300', notes: ['Receipt missing'] },
]

export function initialClaimsState(): ClaimsState {
  return { claims: seedClaims.map((claim) => ({ ...claim, notes: [...claim.notes] })), selectedId: null, exports: 0, notice: null }
}

export function selectedClaim(state: ClaimsState): Claim | null {
  return state.claims.find((claim) => claim.id === state.selectedId) ?? null
}

export function updateClaim(state: ClaimsState, id: string, change: Partial<Claim>): ClaimsState {
  return { ...state, claims: state.claims.map((claim) => (claim.id === id ? ({ ...claim, ...change } as Claim) : claim)) }
}

/** What conditions read: the list without secrets, and the open claim as `claim`. */
export function claimsView(state: ClaimsState): JsonObject {
  const claim = selectedClaim(state)
  return {
    claims: state.claims.map(({ id, claimant, amount, status }) => ({ id, claimant, amount, status })),
    claim: claim === null ? null : { ...claim, notes: [...claim.notes] },
    exports: state.exports,
  }
}
