import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ScriptStep, checkConformance } from '@tessera/gateway'
import { afterAll, describe, expect, it } from 'vitest'
import { TerminalSurface } from './terminal-surface.js'

const home = mkdtempSync(join(tmpdir(), 'tessera-terminal-conformance-'))

afterAll(() => {
  rmSync(home, { recursive: true, force: true })
})

const script: ScriptStep[] = [
  { action: 'execute', input: { command: 'clear; echo conformance' } },
  { action: 'read', input: { tail: 2 } },
  { action: 'execute', input: { command: 'clear; printf "%s\\n" one two' } },
]

describe('the gateway conformance checklist', () => {
  it('passes every line on a real terminal: stable ids, confirmation, secrets, replay, no gateway', async () => {
    const report = await checkConformance({
      name: 'terminal',
      // Each instance a real shell in the same folder, as a replay on a fresh machine would have.
      createSurface: async () => TerminalSurface.create({ id: 'term-c', cwd: home }),
      script,
    })
    expect(report.lines.map((line) => [line.id, line.ok, line.detail])).toEqual(report.lines.map((line) => [line.id, true, line.detail]))
  }, 60_000)
})
