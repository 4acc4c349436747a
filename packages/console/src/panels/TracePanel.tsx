import type { TraceEvent } from '@tessera/protocol'
import { useEffect, useMemo, useState } from 'react'
import { hubApi } from '../api/hub-api'
import type { VerifyResult } from '../api/hub-types'
import { useHubState } from '../HubProvider'
import { SessionPicker, useSessions } from './SessionPicker'

const STATUS_TYPES = ['requested', 'awaiting_approval', 'approved', 'denied', 'dispatched', 'completed', 'failed', 'rejected', 'expired', 'frame']

/**
 * A session's trace as it grows: filter by surface, actor and event type, open an event for
 * its input, output and diff. The badge says whether the hash chain verifies; it is checked
 * again on demand.
 */
export function TracePanel() {
  const recent = useHubState((state) => state.recent)
  const sessions = useSessions()
  const [session, setSession] = useState<string | null>(null)
  const [loaded, setLoaded] = useState<TraceEvent[]>([])
  const [verified, setVerified] = useState<VerifyResult | 'checking' | null>(null)
  const [filter, setFilter] = useState({ surface: '', actor: '', type: '' })
  const chosen = session ?? sessions[0]?.session ?? null

  const verify = (name: string): void => {
    setVerified('checking')
    void hubApi.verify(name).then(({ results }) => setVerified(results[0] ?? null), () => setVerified(null))
  }
  useEffect(() => {
    if (chosen === null) return
    setLoaded([])
    void hubApi.trace(chosen, 200).then(({ events }) => setLoaded(events), () => undefined)
    verify(chosen)
  }, [chosen])

  // Live events after the loaded page, without repeats.
  const events = useMemo(() => {
    const last = loaded.at(-1)?.seq ?? 0
    return [...loaded, ...recent.filter((event) => event.session === chosen && event.seq > last)]
  }, [loaded, recent, chosen])
  const shown = events.filter((e) => (filter.surface === '' || e.surface === filter.surface) && (filter.actor === '' || e.actor === filter.actor) && (filter.type === '' || e.type === filter.type))
  const surfaces = [...new Set(events.map((e) => e.surface).filter((s): s is string => s !== null))]
  const actors = [...new Set(events.map((e) => e.actor))]
  const newest = events.at(-1)?.seq ?? 0

  return (
    <section className="panel trace" aria-label="Trace">
      <h2>Trace</h2>
      <div className="controls">
        <SessionPicker id="trace-session" value={chosen} onChange={setSession} sessions={sessions} />
        {chosen !== null && <ChainBadge verified={verified} newest={newest} onVerify={() => verify(chosen)} />}
      </div>
      <div className="filters">
        <Filter label="Surface" value={filter.surface} options={surfaces} onChange={(surface) => setFilter({ ...filter, surface })} />
        <Filter label="Actor" value={filter.actor} options={actors} onChange={(actor) => setFilter({ ...filter, actor })} />
        <Filter label="Status" value={filter.type} options={STATUS_TYPES} onChange={(type) => setFilter({ ...filter, type })} />
      </div>
      <ol className="events" aria-label="Events">
        {shown
          .slice(-150)
          .reverse()
          .map((event) => (
            <li key={event.seq} data-seq={event.seq} data-type={event.type}>
              <details>
                <summary>
                  <span className="seq">#{event.seq}</span> <span className={`badge ${event.type}`}>{event.type}</span> {event.surface ?? ''}
                  {event.action === null ? '' : `/${event.action}`} <small>by {event.actor}</small>
                </summary>
                <pre>{JSON.stringify(event.data, null, 2)}</pre>
                <small className="hash">hash {event.hash.slice(0, 16)}… · prev {event.prevHash.slice(0, 16)}…</small>
              </details>
            </li>
          ))}
      </ol>
    </section>
  )
}

function ChainBadge({ verified, newest, onVerify }: { verified: VerifyResult | 'checking' | null; newest: number; onVerify: () => void }) {
  const text =
    verified === 'checking' ? 'verifying…' : verified === null ? 'not verified' : verified.ok ? `chain verified (${verified.count} events${newest + 1 > verified.count ? `; ${newest + 1 - verified.count} since` : ''})` : `chain broken at #${verified.firstBroken.seq} (${verified.firstBroken.reason})`
  const tone = verified !== null && verified !== 'checking' ? (verified.ok ? 'ok' : 'broken') : 'unknown'
  return (
    <span className="chain">
      <span className={`badge chain-${tone}`} role="status" aria-label="Chain verification">
        {text}
      </span>{' '}
      <button type="button" onClick={onVerify}>
        Verify again
      </button>
    </span>
  )
}

function Filter({ label, value, options, onChange }: { label: string; value: string; options: string[]; onChange: (value: string) => void }) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">all</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  )
}
