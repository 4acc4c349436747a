import { describe, expect, it } from 'vitest'
import { useScriptingClient } from '../support/client-hub.js'

describe('a long command through the scripting client', () => {
  const s = useScriptingClient()

  // The MCP SDK gives up on a request after 60 s unless progress arrives; the hub reports
  // progress while the command runs, so the call lasts as long as the command.
  it('runs a 120 s command to its end, past the MCP SDK default request timeout', { timeout: 200_000 }, async () => {
    const terminal = await s.hub.terminal()
    const started = Date.now()
    const result = await terminal.execute('sleep 120 && echo still here', { timeoutMs: 150_000 })
    expect(result).toEqual({ stdout: 'still here\n', stderr: '', exit_code: 0, success: true })
    expect(Date.now() - started).toBeGreaterThanOrEqual(120_000)
  })
})
