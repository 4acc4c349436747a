// Gateway round trip in process, allow path, SQLite trace — against the same action
// performed on the surface directly (the peer: what the gateway adds).
import { resolveTarget } from '@tessera/protocol'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Gateway, openSqliteStore } from '@tessera/gateway'
import { AppSurface } from '@tessera/surface-app'
import { agentAction, box, defineApp, text } from '@tessera/ui'
import { fmt, percentile, sample } from './stats.js'

// A toggle: two states, so frames alternate and the cost of building a new frame each
// time is part of both the gateway run and the direct run.
const toggle = defineApp({
  id: 'toggle',
  title: 'Toggle',
  viewport: { width: 400, height: 200 },
  initialState: () => ({ on: false, flips: 0 }),
  route: () => '/',
  view: (state) => ({ on: state.on }),
  render: (state) =>
    box({ key: 'root', style: { width: 400, height: 200 } }, [
      text({ key: 'label', text: state.on ? 'On' : 'Off' }),
      box({ key: 'flip', role: 'switch', name: 'Flip', style: { height: 30 }, semantic: { agentAction: agentAction({ id: 'flip', kind: 'toggle', title: 'Flip', risk: 'write', preconditions: ['on === true || on === false'], postconditions: ['on !== prev.on'] }) } }),
    ]),
  handlers: { flip: ({ state }) => ({ ...state, on: !state.on, flips: state.flips + 1 }) },
})

export async function benchGatewayRoundTrip(iterations = 5000) {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'))
  try {
    const store = await openSqliteStore(join(dir, 'trace.db'))
    const gateway = new Gateway({ store, session: 'bench' })
    const surface = new AppSurface(toggle)
    gateway.addSurface(surface)
    const actor = { id: 'bench-agent', roles: ['agent'] }
    const viaGateway = await sample(async () => {
      const result = await gateway.request({ surface: 'toggle', action: 'flip' }, actor)
      if (result.status !== 'completed') throw new Error(`unexpected ${result.status}`)
    }, { iterations })
    const direct = new AppSurface(toggle, { id: 'direct' })
    const signal = new AbortController().signal
    const directTimes = await sample(async () => {
      const frame = await direct.snapshot()
      await direct.perform({ frame, ...resolveTarget(frame, 'flip'), input: {} }, { actor: 'bench', session: 'bench', requestId: 'r', signal })
      await direct.snapshot()
    }, { iterations })
    await store.close()
    const p50 = percentile(viaGateway, 50)
    const p50Direct = percentile(directTimes, 50)
    return {
      name: 'Gateway round trip, in process, allow path, SQLite trace',
      budget: 'p50 ≤ 0.5 ms',
      ok: p50 <= 0.5,
      rows: [
        ['gateway p50 (ms)', fmt(p50)],
        ['gateway p99 (ms)', fmt(percentile(viaGateway, 99))],
        ['peer: direct perform + snapshots, p50 (ms)', fmt(p50Direct)],
        ['gateway overhead p50 (ms)', fmt(p50 - p50Direct)],
        ['ratio gateway / direct (p50)', fmt(p50 / p50Direct, 2)],
      ],
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
