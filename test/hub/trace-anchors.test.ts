import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir, startTestHub } from '../support/hub.js'
import { runCli } from '../support/run-cli.js'

const SESSION = 'anchored'
const agent = { id: 'agent', roles: ['agent' as const] }

describe('trace anchoring: heads signed outside the store', () => {
  let dataDir: string
  let lastSeq: number

  beforeAll(async () => {
    const t = await startTestHub()
    dataDir = t.dataDir
    const gateway = t.hub.ctx.gateway
    for (const claimId of ['c-1001', 'c-1002']) {
      expect((await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId } }, agent, { session: SESSION })).status).toBe('completed')
      expect((await gateway.request({ surface: 'claims', action: 'close-claim' }, agent, { session: SESSION })).status).toBe('completed')
    }
    lastSeq = (await t.hub.ctx.store.head(SESSION))!.seq
    await t.stop()
  }, 60_000)

  afterAll(() => removeDir(dataDir))

  it('keeps its key beside the tokens and a signed head per session in checkpoints.jsonl', () => {
    expect(readFileSync(join(dataDir, 'checkpoint.key'), 'utf8')).toContain('PRIVATE KEY')
    const lines = readFileSync(join(dataDir, 'checkpoints.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { session: string; seq: number })
    expect(lines.filter((l) => l.session === SESSION).at(-1)?.seq).toBe(lastSeq)
  })

  it('`trace verify` proves the chains and their anchors', async () => {
    const verified = await runCli(['trace', 'verify', '--data', dataDir])
    expect(verified.stderr).not.toContain('error')
    expect(verified.code).toBe(0)
    expect(verified.stdout).toMatch(/anchored {2}\d+ session head\(s\) match the hub's signed checkpoints/)
  })

  it('a tail cut from a session, with its head row rewritten to match, still chains but fails its anchor', async () => {
    const db = new Database(join(dataDir, 'trace.db'))
    try {
      db.prepare('DELETE FROM events WHERE session = ? AND seq > ?').run(SESSION, lastSeq - 2)
      const kept = db.prepare('SELECT seq, hash FROM events WHERE session = ? ORDER BY seq DESC LIMIT 1').get(SESSION) as { seq: number; hash: string }
      db.prepare('UPDATE heads SET seq = ?, hash = ? WHERE session = ?').run(kept.seq, kept.hash, SESSION)
    } finally {
      db.close()
    }
    const verified = await runCli(['trace', 'verify', '--data', dataDir])
    expect(verified.stdout).toMatch(new RegExp(`ok {6}${SESSION}: ${lastSeq - 1} events`))
    expect(verified.stdout).toContain(`TRUNCATED  ${SESSION}: signed at seq ${lastSeq}`)
    expect(verified.stdout).toContain(`the store ends at seq ${lastSeq - 2}: 2 event(s) cut from the tail`)
    expect(verified.code).toBe(2)
  })

  it('a checkpoint line written without the key is reported as forged and not believed', async () => {
    const path = join(dataDir, 'checkpoints.jsonl')
    const original = readFileSync(path, 'utf8')
    const last = JSON.parse(original.trim().split('\n').at(-1)!) as { session: string; seq: number; hash: string; time: string; sig: string }
    appendFileSync(path, `${JSON.stringify({ ...last, session: SESSION, seq: lastSeq - 2 })}\n`)
    try {
      const verified = await runCli(['trace', 'verify', '--data', dataDir])
      expect(verified.stdout).toMatch(/FORGED {2}checkpoints\.jsonl line \d+: not signed by this hub's key/)
      expect(verified.stdout).toContain(`TRUNCATED  ${SESSION}`)
      expect(verified.code).toBe(2)
    } finally {
      writeFileSync(path, original)
    }
  })
})
