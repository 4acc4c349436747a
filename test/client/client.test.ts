import { ActionNotCompleted } from '@tessera/client'
import { describe, expect, it, vi } from 'vitest'
import { useScriptingClient } from '../support/client-hub.js'

describe('the scripting client against a real hub', () => {
  const s = useScriptingClient()

  it('runCommand returns a CommandResult from the focused terminal', async () => {
    const result = await s.hub.runCommand('echo hello; echo warn >&2')
    expect(result).toEqual({ stdout: 'hello\n', stderr: 'warn\n', exit_code: 0, success: true })
  })

  it('createTerminal gives a terminal whose shell keeps its state, with its place, history and screen', async () => {
    const terminal = await s.hub.createTerminal({ x: 3000, y: 0 })
    expect(terminal).toMatchObject({ x: 3000, y: 0, width: 1024, height: 768, command_history: [], status: 'ready' })
    await terminal.execute('cd src && X=42')
    expect((await terminal.execute('echo "$PWD $X"')).stdout).toMatch(/demo-files\/src 42\n$/)
    expect(terminal.command_history).toEqual(['cd src && X=42', 'echo "$PWD $X"'])
    expect(terminal.working_dir).toMatch(/demo-files\/src$/)
    expect(terminal.lines.some((line) => line.includes('src 42'))).toBe(true)
    await terminal.clear()
    await vi.waitFor(async () => expect((await terminal.refresh()).lines.some((line) => line.includes('src 42'))).toBe(false))
    await terminal.input('echo typed', { enter: true })
    await vi.waitFor(async () => expect((await terminal.refresh()).lines.some((line) => line === 'typed')).toBe(true))
    expect((await s.hub.terminal(terminal.id)).id).toBe(terminal.id)
    await terminal.close()
    await expect(terminal.refresh()).rejects.toMatchObject({ code: 'not_found' })
  })

  it('listFiles, findFile and readFile speak FileInfo', async () => {
    const files = await s.hub.listFiles('/')
    expect(files.map((f) => f.name)).toContain('README.md')
    const found = await s.hub.findFile('payout.ts')
    expect(found).toMatchObject({ name: 'payout.ts', path: '/src/payout.ts', file_type: 'file' })
    expect(await s.hub.findFile('no-such-*.xyz')).toBeNull()
    const read = await s.hub.readFile('/claims.csv')
    expect(read).toMatchObject({ encoding: 'utf8', truncated: false, content: expect.stringContaining('Ada Brennan') })
  })

  it('an action that needs a human throws ActionNotCompleted with the approval id', async () => {
    const error = await s.hub.runCommand('rm -rf ./notes').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionNotCompleted)
    expect((error as ActionNotCompleted).result.status).toBe('awaiting_approval')
    expect((error as ActionNotCompleted).details?.approvalId).toMatch(/^apr_/)
  })
})
