import { Gateway, openMemoryStore } from '@tessera/gateway'
import { type ActionCall, type Frame, type JsonValue, type PerformContext, type Principal, type UiNode, resolveTarget } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TerminalSurface } from './terminal-surface.js'

const ctx = (): PerformContext => ({ actor: 'agent-1', session: 'test', requestId: 'r1', signal: new AbortController().signal })

function call(frame: Frame, id: string, input: JsonValue): ActionCall {
  return { frame, ...resolveTarget(frame, id), input }
}

function screenLines(frame: Frame): string[] {
  const screen = frame.tree.children?.find((node) => node.id === 'screen') as UiNode
  return (screen.children ?? []).filter((node) => node.id.startsWith('line-')).map((node) => node.text as string)
}

describe('TerminalSurface', () => {
  let terminal: TerminalSurface

  beforeAll(async () => {
    terminal = await TerminalSurface.create({ id: 'term-test', cwd: '/tmp' })
  })

  afterAll(async () => {
    await terminal.close()
  })

  it('publishes the screen, cursor, status, state and the terminal actions', async () => {
    const frame = await terminal.snapshot()
    expect(frame.surface).toBe('term-test')
    expect(frame.state).toMatchObject({ cwd: '/tmp', busy: false, promptReady: true, cols: 120, rows: 32, lastExitCode: null, status: 'ready' })
    expect(frame.contracts.map((contract) => [contract.id, contract.risk])).toEqual([
      ['execute', 'write'], ['start', 'write'], ['read', 'read'], ['input', 'write'], ['wait_for', 'read'], ['describe', 'read'], ['interrupt', 'write'], ['kill', 'write'],
    ])
    // Actions of the whole terminal: no invented toolbar nodes.
    expect(frame.targets.every((target) => target.nodeId === undefined && target.ref === target.contract)).toBe(true)
    expect(screenLines(frame)[0]).toBe('/tmp #')
    expect(frame.layout.cursor).toBeDefined()
    const status = frame.tree.children?.find((node) => node.id === 'status')
    expect(status?.text).toContain('/tmp · ready')
  })

  it('runs actions through perform and renders ANSI-heavy output as plain text', async () => {
    const first = await terminal.snapshot()
    const result = (await terminal.perform(call(first, 'execute', { command: "clear; printf '\\e[1;31mred\\e[0m \\e[42mon green\\e[0m\\n'; ls --color=always /" }), ctx())) as Record<string, JsonValue>
    expect(result.exit_code).toBe(0)
    const frame = await terminal.snapshot()
    const lines = screenLines(frame)
    expect(lines).toContain('red on green')
    expect(lines.join('\n')).toMatch(/\busr\b/)
    expect(lines.join('\n')).not.toContain('\x1b')
    expect(frame.state).toMatchObject({ lastExitCode: 0, busy: false })
  })

  it('renders top -b -n1 into the screen model', async () => {
    const frame0 = await terminal.snapshot()
    await terminal.perform(call(frame0, 'execute', { command: 'clear; top -b -n1 | head -20' }), ctx())
    const text = screenLines(await terminal.snapshot()).join('\n')
    expect(text).toMatch(/PID\s+USER/)
    expect(text).toMatch(/COMMAND/)
    expect(text).not.toContain('\x1b')
  })

  it('is deterministic: the same screen gives the same frame id', async () => {
    const a = await terminal.snapshot()
    const b = await terminal.snapshot()
    expect(b.id).toBe(a.id)
    expect(JSON.stringify(b)).toBe(JSON.stringify(a))
    const twin = await TerminalSurface.create({ id: 'term-test', cwd: '/tmp' })
    try {
      const run = async (surface: TerminalSurface): Promise<Frame> => {
        const frame = await surface.snapshot()
        await surface.perform(call(frame, 'execute', { command: 'clear; echo same screen' }), ctx())
        return surface.snapshot()
      }
      const mine = await run(terminal)
      const theirs = await run(twin)
      expect(screenLines(mine)).toEqual(['same screen', '/tmp #'])
      expect(theirs.id).toBe(mine.id)
    } finally {
      await twin.close()
    }
  })

  it('raises risk from the classified command, for execute, start and input', async () => {
    const frame = await terminal.snapshot()
    expect((await terminal.assess(call(frame, 'execute', { command: 'ls -la' })))).toMatchObject({ risk: 'read' })
    expect((await terminal.assess(call(frame, 'execute', { command: 'make build' })))).toMatchObject({ risk: 'write' })
    const destructive = await terminal.assess(call(frame, 'start', { command: "bash -c 'rm -rf /'" }))
    expect(destructive?.risk).toBe('destructive')
    expect(destructive?.reason).toMatch(/deletes recursively/)
    expect((await terminal.assess(call(frame, 'input', { text: 'rm -rf ~', enter: true })))).toMatchObject({ risk: 'destructive' })
    expect((await terminal.assess(call(frame, 'read', {})))).toBeNull()
  })

  it('reads, waits and interrupts through perform', async () => {
    let frame = await terminal.snapshot()
    const started = (await terminal.perform(call(frame, 'start', { command: 'for i in 1 2 3; do echo step-$i; done; sleep 30' }), ctx())) as Record<string, JsonValue>
    expect(started.running).toBe(true)
    frame = await terminal.snapshot()
    expect(frame.state).toMatchObject({ busy: true, promptReady: false, status: 'running' })
    const waited = (await terminal.perform(call(frame, 'wait_for', { pattern: '/step-3/', timeout_ms: 5000 }), ctx())) as Record<string, JsonValue>
    expect(waited).toMatchObject({ matched: true, match: 'step-3' })
    const read = (await terminal.perform(call(frame, 'read', { since: started.offset as number }), ctx())) as Record<string, JsonValue>
    expect(read.text).toMatch(/step-1\nstep-2\nstep-3\n/)
    await terminal.perform(call(frame, 'interrupt', {}), ctx())
    const back = (await terminal.perform(call(frame, 'wait_for', { prompt: true, timeout_ms: 5000 }), ctx())) as Record<string, JsonValue>
    expect(back).toMatchObject({ matched: true, exit_code: 130 })
  })
})

describe('through the gateway', () => {
  it('runs a read command, and holds a destructive one for approval', async () => {
    const agent: Principal = { id: 'agent-1', roles: ['agent'] }
    const gateway = new Gateway({ store: openMemoryStore(), session: 'terminal' })
    const terminal = await TerminalSurface.create({ id: 'term-gw', cwd: '/tmp' })
    try {
      gateway.addSurface(terminal)
      const ran = await gateway.request({ surface: 'term-gw', action: 'execute', input: { command: 'echo via gateway' } }, agent)
      expect(ran).toMatchObject({ status: 'completed', output: { stdout: 'via gateway\n', exit_code: 0 } })
      const held = await gateway.request({ surface: 'term-gw', action: 'execute', input: { command: 'rm -rf /tmp/tessera-never-created' } }, agent)
      expect(held.status).toBe('awaiting_approval')
      const bad = await gateway.request({ surface: 'term-gw', action: 'execute', input: { command: 'ls', timeout_ms: -1 } }, agent)
      expect(bad.status).toBe('invalid_input')
    } finally {
      await gateway.close()
      await terminal.close()
    }
  })
})
