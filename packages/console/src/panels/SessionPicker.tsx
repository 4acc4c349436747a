import { useEffect, useState } from 'react'
import { hubApi } from '../api/hub-api'
import type { TraceSession } from '../api/hub-types'
import { useHubState } from '../HubProvider'

/** The trace's sessions, newest activity first, kept fresh as events arrive. */
export function useSessions(): TraceSession[] {
  const recent = useHubState((state) => state.recent)
  const [sessions, setSessions] = useState<TraceSession[]>([])
  const known = new Set(sessions.map((s) => s.session))
  const unseen = recent.some((event) => !known.has(event.session))
  useEffect(() => {
    void hubApi.sessions().then(({ sessions }) => setSessions([...sessions].sort((a, b) => b.lastTime.localeCompare(a.lastTime))), () => undefined)
  }, [unseen])
  return sessions
}

export function SessionPicker({ id, value, onChange, sessions }: { id: string; value: string | null; onChange: (session: string) => void; sessions: TraceSession[] }) {
  return (
    <label htmlFor={id} className="picker">
      Session{' '}
      <select id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
        {value === null && <option value="">choose…</option>}
        {sessions.map((s) => (
          <option key={s.session} value={s.session}>
            {s.session} ({s.events})
          </option>
        ))}
      </select>
    </label>
  )
}
