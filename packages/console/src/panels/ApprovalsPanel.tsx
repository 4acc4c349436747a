import type { Approval, Frame } from '@tessera/protocol'
import { useEffect, useRef, useState } from 'react'
import { printable } from '@tessera/protocol/printable'
import { hubApi } from '../api/hub-api'
import { useHub, useHubState } from '../HubProvider'
import { StaticFrame } from '../tiles/StaticFrame'
import { notify } from './Notices'

/**
 * What waits for a person: each pending approval with its action, risk, redacted input,
 * preconditions and the frame it was asked on; Approve / Deny for an approver. A new one
 * while the tab is in the background raises a browser notification.
 */
export function ApprovalsPanel() {
  const { can } = useHub()
  const approvals = useHubState((state) => state.approvals)
  const pending = approvals.filter((a) => a.status === 'pending')
  const settled = approvals.filter((a) => a.status !== 'pending').slice(-5).reverse()
  useBackgroundNotifications(pending)
  return (
    <section className="panel approvals" aria-label="Approvals">
      <h2>
        Approvals <span className="count">{pending.length}</span>
      </h2>
      <NotificationSwitch />
      {pending.length === 0 && <p className="empty">Nothing waits for a person.</p>}
      <ul>
        {pending.map((approval) => (
          <ApprovalCard key={approval.id} approval={approval} canDecide={can.approve} />
        ))}
      </ul>
      {settled.length > 0 && (
        <details>
          <summary>Recently settled</summary>
          <ul className="settled">
            {settled.map((approval) => (
              <li key={approval.id} data-approval={approval.id} data-status={approval.status}>
                <span className={`badge ${approval.status}`}>{approval.status}</span> {headline(approval)}
                {approval.resolvedBy !== undefined && <small> — by {approval.resolvedBy}</small>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  )
}

function ApprovalCard({ approval, canDecide }: { approval: Approval; canDecide: boolean }) {
  const [busy, setBusy] = useState(false)
  const [frame, setFrame] = useState<Frame | null>(null)
  const expired = Date.parse(approval.expiresAt) <= Date.now()
  useEffect(() => {
    void hubApi.recallFrame(approval.surface, approval.frameId).then(({ frame }) => setFrame(frame), () => setFrame(null))
  }, [approval.surface, approval.frameId])
  const decide = async (how: 'approve' | 'deny'): Promise<void> => {
    setBusy(true)
    try {
      if (how === 'deny') {
        await hubApi.deny(approval)
        notify(`Denied: ${headline(approval)}`)
      } else {
        const answer = await hubApi.approve(approval)
        notify(`Approved: the action ended ${answer.result.status}${answer.result.error === undefined ? '' : ` (${answer.result.error.message})`}`, answer.result.status === 'completed' ? 'info' : 'error')
      }
    } catch (error) {
      notify(`Not ${how === 'approve' ? 'approved' : 'denied'}: ${error instanceof Error ? error.message : String(error)}`, 'error')
      setBusy(false)
    }
  }
  const headingId = `approval-${approval.id}`
  return (
    <li className="approval" data-approval={approval.id} aria-labelledby={headingId}>
      <h3 id={headingId}>{headline(approval)}</h3>
      <dl>
        <dt>Action</dt>
        <dd>
          {approval.surface}/{approval.action} <span className={`badge risk-${approval.risk ?? 'write'}`}>{approval.risk ?? 'write'}</span>
        </dd>
        <dt>Asked by</dt>
        <dd>{printable(approval.requester)}</dd>
        <dt>Why</dt>
        <dd>{printable(approval.reason)}</dd>
        {(approval.preconditions ?? []).map((check) => (
          <div key={check.condition} className="held">
            <dt>Held</dt>
            <dd>
              <code>{printable(check.condition)}</code> <small>({printable(Object.entries(check.values).map(([path, value]) => `${path} = ${JSON.stringify(value)}`).join(', '))})</small>
            </dd>
          </div>
        ))}
        <dt>Input</dt>
        <dd>
          <code className="input">{printable(JSON.stringify(approval.input))}</code>
        </dd>
        <dt>Expires</dt>
        <dd>{expired ? <strong className="badge expired">expired</strong> : new Date(approval.expiresAt).toLocaleTimeString()}</dd>
      </dl>
      {frame !== null && <StaticFrame frame={frame} outline={approval.target ?? null} width={300} label={`The frame ${approval.requester} asked on`} />}
      {canDecide ? (
        <div className="decide">
          <button type="button" onClick={() => void decide('approve')} disabled={busy || expired}>
            Approve
          </button>
          <button type="button" onClick={() => void decide('deny')} disabled={busy}>
            Deny
          </button>
        </div>
      ) : (
        <p className="note">An approver decides this one; your role can only watch.</p>
      )}
    </li>
  )
}

/**
 * What the person reads, as the CLI shows it: every value came from an agent or an app, so
 * control characters and bidirectional overrides are written out, never obeyed (markup is
 * already text: React never parses it).
 */
function headline(approval: Approval): string {
  return printable(approval.summary ?? `${approval.surface}/${approval.action}`)
}

/** Browsers let a page notify only after the person agrees, from a click. */
function NotificationSwitch() {
  const [permission, setPermission] = useState(typeof Notification === 'undefined' ? 'denied' : Notification.permission)
  if (permission !== 'default') return null
  return (
    <button type="button" className="link" onClick={() => void Notification.requestPermission().then(setPermission)}>
      Notify me when an approval waits
    </button>
  )
}

/** A browser notification when an approval arrives while the tab is hidden, if the person allowed them. */
function useBackgroundNotifications(pending: Approval[]): void {
  const seen = useRef(new Set<string>())
  useEffect(() => {
    for (const approval of pending) {
      if (seen.current.has(approval.id)) continue
      seen.current.add(approval.id)
      if (document.visibilityState === 'hidden' && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
        new Notification('Tessera: an action waits for you', { body: headline(approval), tag: approval.id })
      }
    }
  }, [pending])
}
