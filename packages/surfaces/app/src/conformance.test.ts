import { checkConformance } from '@tessera/gateway'
import type { Frame } from '@tessera/protocol'
import { AppRuntime, agentAction, box, defineApp, text } from '@tessera/ui'
import { describe, expect, it } from 'vitest'
import { AppSurface } from './app-surface.js'

/** A small agent-native app: a note with a secret, an edit and a destructive clear. */
const notes = defineApp<{ text: string; token: string; cleared: number }>({
  id: 'notes',
  title: 'Notes',
  viewport: { width: 400, height: 200 },
  initialState: () => ({ text: 'hello', token: 'tok-5521-very-secret', cleared: 0 }),
  route: () => '/note',
  view: (state) => ({ text: state.text, cleared: state.cleared }),
  render: (state) =>
    box({ key: 'root', role: 'main', name: 'Notes', style: { width: 400, height: 200, flexDirection: 'column' } }, [
      text({ key: 'body', text: state.text, style: { height: 30 } }),
      text({ key: 'token', text: state.token, sensitive: true, style: { height: 30 } }),
      box({
        key: 'edit',
        role: 'button',
        name: 'Edit',
        style: { height: 30 },
        semantic: { agentAction: agentAction({ id: 'edit', kind: 'write', title: 'Edit the note', risk: 'write', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }) },
      }),
      box({ key: 'clear', role: 'button', name: 'Clear', style: { height: 30 }, semantic: { agentAction: agentAction({ id: 'clear', kind: 'delete', title: 'Clear the note', risk: 'destructive' }) } }),
    ]),
  handlers: {
    edit: ({ state, input }) => ({ ...state, text: String((input as { text: string }).text) }),
    clear: ({ state }) => ({ ...state, text: '', cleared: state.cleared + 1 }),
  },
})

describe('the gateway conformance checklist', () => {
  it('passes every line on an agent-native app', async () => {
    const report = await checkConformance({
      name: 'notes',
      createSurface: async () => new AppSurface(notes),
      script: [{ action: 'edit', input: { text: 'changed' } }, { action: 'clear' }],
      // The runtime's own frames, before the surface redacts them: the checker learns the secrets from them.
      runWithoutGateway: async (steps) => {
        const runtime = new AppRuntime(notes)
        const frames: Frame[] = [runtime.frame()]
        for (const step of steps) {
          await runtime.dispatch(step.action, step.input ?? {})
          frames.push(runtime.frame())
        }
        return frames
      },
    })
    expect(report.lines.find((line) => line.id === 'secrets')?.detail).toMatch(/^2 secrets/)
    expect(report.lines.map((line) => [line.id, line.ok, line.detail])).toEqual(report.lines.map((line) => [line.id, true, line.detail]))
  })
})
