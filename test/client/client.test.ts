import { ActionNotCompleted, HubClient } from '@tessera/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir, startTestHub, type TestHub } from '../support/hub.js'

describe('the scripting client against a real hub', () => {
  let t: TestHub
  let hub: HubClient

  beforeAll(async () => {
    t = await startTestHub()
    hub = await HubClient.connect({ dataDir: t.dataDir })
  })
  afterAll(async () => {
    await hub.close()
    await t.stop()
    removeDir(t.dataDir)
  })

  it('runCommand returns a CommandResult from the focused terminal', async () => {
    const result = await hub.runCommand('echo hello; echo warn >&2')
    expect(result).toMatchObject({ stdout: 'hello\n', stderr: 'warn\n', exit_code: 0, success: true, truncated: false })
    expect(result.duration_ms).toBeGreaterThanOrEqual(0)
  })

  it('createTerminal gives a terminal whose shell keeps its state between executes', async () => {
    const terminal = await hub.createTerminal({ x: 3000, y: 0 })
    await terminal.execute('cd src && X=42')
    expect((await terminal.execute('echo "$PWD $X"')).stdout).toMatch(/demo-files\/src 42\n$/)
    await terminal.close()
  })

  it('listFiles, findFile and readFile speak FileInfo', async () => {
    const files = await hub.listFiles('/')
    expect(files.map((f) => f.name)).toContain('README.md')
    const found = await hub.findFile('payout.ts')
    expect(found).toMatchObject({ name: 'payout.ts', path: '/src/payout.ts', file_type: 'file' })
    expect(await hub.findFile('no-such-*.xyz')).toBeNull()
    const read = await hub.readFile('/claims.csv')
    expect(read).toMatchObject({ encoding: 'utf8', truncated: false, content: expect.stringContaining('Ada Brennan') })
  })

  it('an action that needs a human throws ActionNotCompleted with the approval id', async () => {
    const error = await hub.runCommand('rm -rf ./notes').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionNotCompleted)
    expect((error as ActionNotCompleted).result.status).toBe('awaiting_approval')
    expect((error as ActionNotCompleted).details?.approvalId).toMatch(/^apr_/)
  })
})
