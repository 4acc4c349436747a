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
})
