import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { claimsReview, seedClaims } from '@tessera/example-claims-review'
import { Gateway, openSqliteStore, redactJson, REDACTED } from '@tessera/gateway'
import { AppSurface } from '@tessera/surface-app'
import { describe, expect, it } from 'vitest'
import { agent, approver } from '../support/principals.js'
import { useTempDir } from '../support/temp-dir.js'

function rawBytes(dir: string): string {
  // Every file SQLite wrote: the database, its WAL and shared memory.
  return readdirSync(dir).map((file) => readFileSync(join(dir, file)).toString('latin1')).join('\n')
}

describe('redaction: secrets never reach the trace', () => {
  const tempDir = useTempDir()

  it('the payout IBAN an app marks sensitive, and secret-named input fields, are absent from the raw database files', async () => {
    const dir = tempDir()
    const store = await openSqliteStore(join(dir, 'trace.db'))
    const gateway = new Gateway({ store, session: 'secrets' })
    const surface = new AppSurface(claimsReview)
    gateway.addSurface(surface)
    const iban = seedClaims[0]!.payoutIban
    // The app itself holds the IBAN and renders it for the human…
    await surface.runtime.dispatch('open-claim', { claimId: 'c-1001' })
    expect(JSON.stringify(surface.runtime.frame())).toContain(iban)
    await surface.runtime.dispatch('close-claim')
    // …while an agent session through the gateway sees and records only the redacted form.
    await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, agent)
    const frame = await gateway.observe('claims')
    expect(JSON.stringify(frame)).not.toContain(iban)
    expect(JSON.stringify(frame)).toContain(REDACTED)
    const apiToken = 'sk-live-0123456789abcdef'
    const password = 'hunter2-correct-horse'
    await gateway.request({ surface: 'claims', action: 'close-claim', input: { apiToken, nested: { password } }, unknownEnvelopeField: { session_token: apiToken } }, agent)
    const pending = await gateway.request({ surface: 'claims', action: 'export-claims', input: { format: 'csv' }, authorization: `Bearer ${apiToken}` }, agent)
    await gateway.approve(pending.approvalId!, approver)
    await store.close()
    const bytes = rawBytes(dir)
    expect(bytes.length).toBeGreaterThan(10_000)
    for (const secret of [iban, apiToken, password]) expect(bytes).not.toContain(secret)
    expect(bytes).toContain('c-1001')
  })

  it('redactJson replaces values of secret-looking names at any depth and keeps the rest', () => {
    const out = redactJson({ user: 'ada', password: 'x', nested: [{ apiKey: 'k', ok: 1 }], authToken: null, cardNumber: '4111' })
    expect(out).toEqual({ user: 'ada', password: REDACTED, nested: [{ apiKey: REDACTED, ok: 1 }], authToken: null, cardNumber: REDACTED })
  })
})
