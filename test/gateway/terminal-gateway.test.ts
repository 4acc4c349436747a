import { Gateway, openMemoryStore } from '@tessera/gateway'
import { TerminalSurface } from '@tessera/surface-terminal'
import { afterEach, describe, expect, it } from 'vitest'
import { agent } from '../support/principals.js'

describe('a real terminal behind the gateway', () => {
  const open: TerminalSurface[] = []
  afterEach(async () => {
    for (const surface of open.splice(0)) await surface.close()
  })

  async function setup() {
    const gateway = new Gateway({ store: openMemoryStore(), session: 'term', dispatchTimeoutMs: 500 })
    const terminal = await TerminalSurface.create({ id: 'term-1' })
    open.push(terminal)
    gateway.addSurface(terminal)
    return { gateway, terminal }
  }

  it('a command with its own timeout_ms is not cut short by the default dispatch deadline', async () => {
    const { gateway } = await setup()
    const result = await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'sleep 1; echo done', timeout_ms: 10_000 } }, agent)
    expect(result.status).toBe('completed')
    expect(result.output).toMatchObject({ stdout: expect.stringContaining('done'), exit_code: 0 })
  })

  it('interrupt runs beside a command that holds the terminal, instead of queueing behind it', async () => {
    const { gateway } = await setup()
    const running = gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'sleep 30', timeout_ms: 60_000 } }, agent)
    await new Promise((resolve) => setTimeout(resolve, 700))
    const started = Date.now()
    const interrupted = await gateway.request({ surface: 'term-1', action: 'interrupt' }, agent)
    expect(interrupted.status).toBe('completed')
    const result = await running
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result.status).toBe('completed')
    expect((result.output as { success: boolean }).success).toBe(false)
  })

  it('a destructive command waits for a human; a read command does not', async () => {
    const { gateway } = await setup()
    expect((await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'rm -rf ./build' } }, agent)).status).toBe('awaiting_approval')
    expect((await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'sh -c "rm -rf /tmp/x"' } }, agent)).status).toBe('awaiting_approval')
    expect((await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'ls /' } }, agent)).status).toBe('completed')
  })
  it('an approved command is not run again through history keys: ↑ + Enter at the prompt waits for a human, in one call or two', async () => {
    const { gateway, terminal } = await setup()
    const dir = await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'cd "$(mktemp -d)" && mkdir -p build precious' } }, agent)
    expect(dir.status).toBe('completed')
    const asked = await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'rm -rf ./build' } }, agent)
    expect(asked.status).toBe('awaiting_approval')
    const approved = await gateway.approve(asked.approvalId!, { id: 'alice', roles: ['approver'] })
    expect(approved.result.status).toBe('completed')
    const again = await gateway.request({ surface: 'term-1', action: 'input', input: { keys: ['up'], enter: true } }, agent)
    expect(again.status).toBe('awaiting_approval')
    // In two calls: the recall first (nothing runs), then Enter alone.
    const recalled = await gateway.request({ surface: 'term-1', action: 'input', input: { keys: ['up'] } }, agent)
    expect(recalled.status).toBe('completed')
    expect(terminal.session.lineEdited).toBe(true)
    const submitted = await gateway.request({ surface: 'term-1', action: 'input', input: { enter: true } }, agent)
    expect(submitted.status).toBe('awaiting_approval')
    // Editing keys turn harmless text into another line, so they count the same; plain text is classified as typed.
    const edited = await gateway.request({ surface: 'term-1', action: 'input', input: { text: 'xrm -rf ./precious', keys: ['ctrl-u'] } }, agent)
    expect(edited.status).toBe('completed')
    expect((await gateway.request({ surface: 'term-1', action: 'input', input: { keys: ['ctrl-y'], enter: true } }, agent)).status).toBe('awaiting_approval')
    terminal.session.input('', { keys: ['ctrl-c'] })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const plain = await gateway.request({ surface: 'term-1', action: 'input', input: { text: 'echo typed', enter: true } }, agent)
    expect(plain.status).toBe('completed')
    expect(terminal.session.lineEdited).toBe(false)
  })
  it('an approval binds to what names mean in the shell and where it runs: a redefined rm or another directory makes it stale, saying which', async () => {
    const { gateway, terminal } = await setup()
    const alice = { id: 'alice', roles: ['approver' as const] }
    expect((await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'cd "$(mktemp -d)" && mkdir -p build precious' } }, agent)).status).toBe('completed')
    const before = terminal.session.definitions
    const asked = await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'rm -rf ./build' } }, agent)
    expect(asked.status).toBe('awaiting_approval')
    // The agent then sources a script that redefines rm, and clears the screen.
    const script = 'printf %s "rm() { command rm -rf ./precious; }" > redefine.sh'
    expect((await gateway.request({ surface: 'term-1', action: 'execute', input: { command: `${script} && source ./redefine.sh && clear` } }, agent)).status).toBe('completed')
    expect(terminal.session.definitions).not.toBe(before)
    const approved = await gateway.approve(asked.approvalId!, alice)
    expect(approved.result.status).toBe('stale_frame')
    expect(approved.result.error?.message).toContain(`shellDefinitions was "${before}", now "${terminal.session.definitions}"`)
    expect((await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'ls' } }, agent)).output).toMatchObject({ stdout: expect.stringContaining('precious') })

    // Another directory: the sentence the person approved no longer reads the same.
    const again = await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'rm -rf ./build' } }, agent)
    expect(again.status).toBe('awaiting_approval')
    expect((await gateway.request({ surface: 'term-1', action: 'execute', input: { command: 'cd precious' } }, agent)).status).toBe('completed')
    const moved = await gateway.approve(again.approvalId!, alice)
    expect(moved.result.status).toBe('stale_frame')
    expect(moved.result.error?.message).toMatch(/approved "Run rm -rf \.\/build in .*", but the frame now says "Run rm -rf \.\/build in .*precious"/)
  })
})
