import type { Frame } from '@tessera/protocol'
import { useEffect, useMemo, useState } from 'react'
import { hubApi } from '../api/hub-api'
import type { ReplayAction, ReplayStep } from '../api/hub-types'
import { StaticFrame } from '../tiles/StaticFrame'
import { SessionPicker, useSessions } from './SessionPicker'

/**
 * Steps through a recorded session rebuilt from its trace alone: per action the frame before
 * and after, the element it acted on outlined, and the state diff; a scrubber moves anywhere.
 */
export function ReplayPanel() {
  const sessions = useSessions()
  const [session, setSession] = useState<string | null>(null)
  const [steps, setSteps] = useState<ReplayStep[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [at, setAt] = useState(0)

  const load = (name: string): void => {
    setSession(name)
    setSteps(null)
    setProblem(null)
    hubApi.replay(name).then(
      ({ steps }) => {
        setSteps(steps)
        setAt(0)
      },
      (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
    )
  }
  const frames = useMemo(() => new Map((steps ?? []).flatMap((step) => (step.kind === 'frame' ? [[step.frame.id, step.frame] as const] : []))), [steps])
  const actions = useMemo(() => (steps ?? []).flatMap((step) => (step.kind === 'action' ? [step.action] : [])), [steps])
  const action = actions[at]

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!(event.target instanceof HTMLElement) || event.target.closest('.replay') === null || event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return
      if (event.key === 'ArrowRight') setAt((i) => Math.min(i + 1, Math.max(0, actions.length - 1)))
      if (event.key === 'ArrowLeft') setAt((i) => Math.max(i - 1, 0))
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [actions.length])

  return (
    <section className="panel replay" aria-label="Replay">
      <h2>Replay</h2>
      <div className="controls">
        <SessionPicker id="replay-session" value={session} onChange={load} sessions={sessions} />
        {session !== null && (
          <button type="button" onClick={() => load(session)}>
            Reload
          </button>
        )}
      </div>
      {problem !== null && <p role="alert">{problem}</p>}
      {steps !== null && actions.length === 0 && <p className="empty">No actions in this session.</p>}
      {action !== undefined && (
        <>
          <div className="stepper">
            <button type="button" onClick={() => setAt(Math.max(0, at - 1))} disabled={at === 0}>
              Previous
            </button>
            <label>
              <span className="visually-hidden">Step</span>
              <input type="range" min={0} max={actions.length - 1} value={at} onChange={(event) => setAt(Number(event.target.value))} aria-valuetext={`step ${at + 1} of ${actions.length}`} />
            </label>
            <button type="button" onClick={() => setAt(Math.min(actions.length - 1, at + 1))} disabled={at === actions.length - 1}>
              Next
            </button>
            <span className="position" role="status">
              Step {at + 1} of {actions.length}
            </span>
          </div>
          <ReplayStepView action={action} before={action.frameId === null ? undefined : frames.get(action.frameId)} after={action.nextFrameId === null ? undefined : frames.get(action.nextFrameId)} />
        </>
      )}
    </section>
  )
}

function ReplayStepView({ action, before, after }: { action: ReplayAction; before: Frame | undefined; after: Frame | undefined }) {
  return (
    <article className="replay-step" aria-label={`${action.surface}/${action.action} by ${action.actor}`}>
      <h3>
        {action.surface}/{action.action} <span className={`badge ${action.status}`}>{action.status}</span> <small>by {action.actor}</small>
      </h3>
      <p>
        Input <code>{JSON.stringify(action.input)}</code>
        {action.target !== null && (
          <>
            {' '}
            on <code>{action.target}</code>
          </>
        )}
      </p>
      <div className="before-after">
        <div>
          <h4>Before</h4>
          {before === undefined ? <p className="empty">not recorded</p> : <StaticFrame frame={before} outline={action.target} width={360} label="Frame before" />}
        </div>
        <div>
          <h4>After</h4>
          {after === undefined ? <p className="empty">{action.dispatched ? 'not recorded' : 'not run'}</p> : <StaticFrame frame={after} width={360} label="Frame after" />}
        </div>
      </div>
      <h4>Diff</h4>
      {action.diff === null || action.diff.length === 0 ? (
        <p className="empty">No state change.</p>
      ) : (
        <ul className="diff" aria-label="Diff">
          {action.diff.map((op, i) => (
            <li key={i}>
              <code>
                {op.op} {op.path}
                {'value' in op ? ` = ${JSON.stringify(op.value)}` : ''}
              </code>
            </li>
          ))}
        </ul>
      )}
      {action.output !== null && (
        <details>
          <summary>Output</summary>
          <pre>{JSON.stringify(action.output, null, 2)}</pre>
        </details>
      )}
    </article>
  )
}
