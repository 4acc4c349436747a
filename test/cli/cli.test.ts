import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { claimsReview, conformance } from '@tessera/example-claims-review'
import { Gateway, openSqliteStore } from '@tessera/gateway'
import { AppSurface } from '@tessera/surface-app'
import { describe, expect, it } from 'vitest'
import { agent, approver } from '../support/principals.js'
import { cliEnv, repoRoot, runCli } from '../support/run-cli.js'
import { useTempDir } from '../support/temp-dir.js'

async function recordSession(path: string): Promise<number> {
  const store = await openSqliteStore(path)
  const gateway = new Gateway({ store, session: 'cli-session' })
  gateway.addSurface(new AppSurface(claimsReview))
  for (const step of conformance.script) {
    const result = await gateway.request({ surface: 'claims', action: step.action, input: step.input ?? {} }, agent)
    if (result.status === 'awaiting_approval') await gateway.approve(result.approvalId!, approver)
  }
  const head = await store.head('cli-session')
  await store.close()
  return (head?.seq ?? -1) + 1
}

describe('tessera CLI', () => {
  const tempDir = useTempDir()

  it('runs as `npx tessera` in the checkout, from the bin npm links at install', async () => {
    const npx = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('npx', ['--offline', 'tessera', '--help'], { cwd: repoRoot, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })
    expect({ code: npx.code, stderr: npx.stderr.replace(/^npm warn .*\n/gm, '') }).toEqual({ code: 0, stderr: '' })
    expect(npx.stdout).toContain('Usage: tessera')
    expect(npx.stdout).toMatch(/approvals\s+list, approve or deny/)
  })

  it('trace verify proves a recorded chain intact', async () => {
    const db = join(tempDir(), 'trace.db')
    const count = await recordSession(db)
    const result = await runCli(['trace', 'verify', db])
    expect(result.stderr).not.toContain('error')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`cli-session: ${count} events`)
  })

  it('trace verify names the first broken link after one byte of the database changed', async () => {
    const db = join(tempDir(), 'trace.db')
    await recordSession(db)
    const raw = new Database(db)
    const row = raw.prepare("SELECT seq, body FROM events WHERE session = 'cli-session' AND type = 'completed' ORDER BY seq LIMIT 1").get() as { seq: number; body: string }
    const at = row.body.indexOf('"completed"')
    raw.prepare('UPDATE events SET body = ? WHERE session = ? AND seq = ?').run(`${row.body.slice(0, at + 1)}C${row.body.slice(at + 2)}`, 'cli-session', row.seq)
    raw.close()
    const result = await runCli(['trace', 'verify', db])
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(`first broken link at seq ${row.seq}`)
  })

  it('trace export writes the session as JSON Lines', async () => {
    const db = join(tempDir(), 'trace.db')
    const count = await recordSession(db)
    const result = await runCli(['trace', 'export', db, '--session', 'cli-session'])
    expect(result.code).toBe(0)
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { seq: number; hash: string })
    expect(lines).toHaveLength(count)
    expect(lines.map((e) => e.seq)).toEqual([...Array(count).keys()])
  })

  it('replay lists the session and --execute re-runs it identically on the app', async () => {
    const db = join(tempDir(), 'trace.db')
    await recordSession(db)
    const listed = await runCli(['replay', db, '--session', 'cli-session'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain('claims/approve-payout by agent-1 → completed')
    const executed = await runCli(['replay', db, '--session', 'cli-session', '--execute', '--app', 'examples/claims-review'])
    expect(executed.stderr).not.toContain('error')
    expect(executed.stdout).toContain(`identical: ${conformance.script.length} actions`)
    expect(executed.code).toBe(0)
  })

  it('conform passes claims-review and fails the broken fixture with a non-zero exit', async () => {
    const good = await runCli(['conform', 'examples/claims-review'])
    expect(good.stdout).toContain('6 passed, 0 failed')
    expect(good.code).toBe(0)
    const bad = await runCli(['conform', 'test/fixtures/broken-app.mjs'])
    expect(bad.stdout).toMatch(/FAIL {2}All automation-relevant operations have stable action ids/)
    expect(bad.code).toBe(2)
  })

  it('fails clearly on a missing store, an unknown session, a non-app module and a bad command', async () => {
    const dir = tempDir()
    const missing = await runCli(['trace', 'verify', join(dir, 'nope.db')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('[not_found]')
    const db = join(dir, 'trace.db')
    await recordSession(db)
    const unknown = await runCli(['trace', 'export', db, '--session', 'ghost'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no session "ghost"')
    const notApp = join(dir, 'not-app.mjs')
    writeFileSync(notApp, 'export const hello = 1\n')
    const conform = await runCli(['conform', notApp])
    expect(conform.code).toBe(1)
    expect(conform.stderr).toContain('does not export an agent app')
    const garbage = join(dir, 'garbage.db')
    writeFileSync(garbage, 'this is not a database'.repeat(100))
    const corrupt = await runCli(['trace', 'verify', garbage])
    expect(corrupt.code).toBe(1)
    expect(corrupt.stderr).toContain('[store_error]')
    const bad = await runCli(['trace', 'frobnicate'])
    expect(bad.code).not.toBe(0)
  })
})
