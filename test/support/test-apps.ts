import type { JsonObject } from '@tessera/protocol'
import { agentAction, box, defineApp, text } from '@tessera/ui'

/**
 * Small real apps for the failure paths claims-review never takes: a handler that throws,
 * one that hangs, one that misses its postcondition, a precondition that cannot evaluate.
 */
export interface CounterState extends JsonObject {
  count: number
}

export function counterApp(options: { hangMs?: number } = {}) {
  return defineApp<CounterState>({
    id: 'counter',
    title: 'Counter',
    viewport: { width: 400, height: 300 },
    initialState: () => ({ count: 0 }),
    route: () => '/',
    render: (state) =>
      box({ key: 'app', style: { width: 400, height: 300, flexDirection: 'column', gap: 4 } }, [
        text({ key: 'count', text: `Count: ${state.count}` }),
        box({ key: 'inc', role: 'button', name: 'Increment', style: { height: 30 }, semantic: { agentAction: agentAction({ id: 'increment', kind: 'update', title: 'Increment', risk: 'write', postconditions: ['count === prev.count + 1'] }) } }),
        box({ key: 'broken', role: 'button', name: 'Broken', style: { height: 30 }, semantic: { agentAction: agentAction({ id: 'explode', kind: 'update', title: 'Explode', risk: 'write' }) } }),
        box({ key: 'slow', role: 'button', name: 'Slow', style: { height: 30 }, semantic: { agentAction: agentAction({ id: 'slow', kind: 'update', title: 'Slow', risk: 'write' }) } }),
        box({ key: 'lazy', role: 'button', name: 'Lazy', style: { height: 30 }, semantic: { agentAction: agentAction({ id: 'lazy', kind: 'update', title: 'Claims to increment', risk: 'write', postconditions: ['count === prev.count + 1'] }) } }),
        box({ key: 'odd', role: 'button', name: 'Odd', style: { height: 30 }, semantic: { agentAction: agentAction({ id: 'odd', kind: 'update', title: 'Reads a missing path', risk: 'read', preconditions: ['settings.limits.max > 1'] }) } }),
      ]),
    handlers: {
      increment: ({ state }) => ({ count: state.count + 1 }),
      explode: () => {
        throw new Error('the payment service refused the connection')
      },
      slow: async ({ state }) => {
        await new Promise((resolve) => setTimeout(resolve, options.hangMs ?? 5_000))
        return { count: state.count + 100 }
      },
      lazy: ({ state }) => state,
      odd: ({ state }) => state,
    },
  })
}

/** An app whose render fails: the surface cannot produce a frame at all. */
export const brokenRenderApp = defineApp<{ ok: boolean }>({
  id: 'broken-render',
  title: 'Broken render',
  initialState: () => ({ ok: false }),
  route: () => '/',
  render: () => {
    throw new Error('render crashed')
  },
  handlers: {},
})
