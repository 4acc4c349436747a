import type { ActionContract } from '@tessera/protocol'
import { box, type ElementNode, text } from '@tessera/ui'
import { approvePayout, closeClaim, deleteClaim, exportClaims, openClaim, rejectClaim, requestInfo } from './actions.js'
import { type Claim, type ClaimsState, selectedClaim } from './claims.js'

const money = (amount: number): string => `€${amount.toLocaleString('en-US')}`
const statusLabel: Record<Claim['status'], string> = {
  ready: 'Ready for payout',
  review: 'Under review',
  pending_info: 'Waiting for information',
  approved: 'Approved',
  rejected: 'Rejected',
}

function button(key: string, label: string, contract: ActionContract, disabled = false): ElementNode {
  return box(
    { key, role: 'button', name: label, states: disabled ? { disabled: true } : {}, semantic: { agentAction: contract }, style: { padding: 8, minWidth: 120 } },
    [text({ key: 'label', text: label })],
  )
}

function header(title: string, actions: ElementNode[]): ElementNode {
  return box({ key: 'header', role: 'banner', style: { flexDirection: 'row', justifyContent: 'space-between', alignItems: 'center', height: 56, paddingX: 16 } }, [
    text({ key: 'title', role: 'heading', text: title, style: { fontSize: 20 } }),
    box({ key: 'toolbar', role: 'toolbar', style: { flexDirection: 'row', gap: 8 } }, actions),
  ])
}

// A row opens its own claim: an agent can click it by its @ref, as a person would.
function claimRow(claim: Claim, open: ActionContract): ElementNode {
  return box(
    {
      key: claim.id,
      role: 'row',
      name: `${claim.id} ${claim.claimant}`,
      value: claim.status,
      semantic: { agentAction: open, agentActionInput: { claimId: claim.id } },
      style: { flexDirection: 'row', height: 36, paddingX: 16, gap: 16, alignItems: 'center' },
    },
    [
      text({ key: 'id', text: claim.id, style: { width: 80 } }),
      text({ key: 'claimant', text: claim.claimant, style: { width: 200 } }),
      text({ key: 'amount', text: money(claim.amount), style: { width: 100 } }),
      text({ key: 'status', text: statusLabel[claim.status], style: { width: 200 } }),
    ],
  )
}

function listView(state: ClaimsState): ElementNode {
  const open = openClaim(state.claims.map((c) => c.id))
  return box({ key: 'list', role: 'main', style: { flexDirection: 'column', flexGrow: 1 } }, [
    header('Claims', [button('export', 'Export claims', exportClaims, state.claims.length === 0)]),
    state.notice ? text({ key: 'notice', role: 'status', text: state.notice, style: { paddingX: 16 } }) : null,
    box(
      { key: 'claims', role: 'list', name: 'Open claims', semantic: { agentAction: open }, states: state.claims.length === 0 ? { disabled: true } : {}, style: { flexDirection: 'column' } },
      state.claims.map((claim) => claimRow(claim, open)),
    ),
  ])
}

function field(key: string, label: string, value: string, sensitive = false): ElementNode {
  return box({ key, role: 'group', name: label, style: { flexDirection: 'row', height: 28, paddingX: 16, gap: 16 } }, [
    text({ key: 'label', text: label, style: { width: 140 } }),
    text({ key: 'value', text: value, sensitive }),
  ])
}

function detailView(state: ClaimsState, claim: Claim): ElementNode {
  const open = claim.status !== 'approved' && claim.status !== 'rejected'
  return box({ key: 'detail', role: 'main', name: `Claim ${claim.id}`, style: { flexDirection: 'column', flexGrow: 1 } }, [
    header(`Claim ${claim.id}`, [button('back', 'Back', closeClaim)]),
    state.notice ? text({ key: 'notice', role: 'status', text: state.notice, style: { paddingX: 16 } }) : null,
    field('claimant', 'Claimant', claim.claimant),
    field('amount', 'Amount', money(claim.amount)),
    field('status', 'Status', statusLabel[claim.status]),
    field('fraud', 'Fraud score', claim.fraudScore.toFixed(2)),
    field('iban', 'Payout account', claim.payoutIban, true),
    claim.notes.length > 0 ? box({ key: 'notes', role: 'list', name: 'Notes', style: { paddingX: 16 } }, claim.notes.map((note, i) => text({ key: `note-${i}`, role: 'listitem', text: note }))) : null,
    box({ key: 'decision', role: 'toolbar', name: 'Decision', style: { flexDirection: 'row', gap: 8, padding: 16 } }, [
      button('approve', 'Approve payout', approvePayout, claim.status !== 'ready' && claim.status !== 'review'),
      button('reject', 'Reject claim', rejectClaim, !open),
      button('request-info', 'Request information', requestInfo, !open),
      button('delete', 'Delete claim', deleteClaim),
    ]),
  ])
}

export function renderClaims(state: ClaimsState): ElementNode {
  const claim = selectedClaim(state)
  return box({ key: 'claims-review', role: 'application', name: 'Claims review', style: { width: 1024, height: 768, flexDirection: 'column' } }, [
    claim === null ? listView(state) : detailView(state, claim),
  ])
}
