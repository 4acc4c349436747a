import { join } from 'node:path'
import { claimsReview } from '@tessera/example-claims-review'
import { Gateway, openSqliteStore, toExecutionResult, verifyStore } from '@tessera/gateway'
import { AppSurface } from '@tessera/surface-app'
import { describe, expect, it } from 'vitest'
import { agent } from '../support/principals.js'
import { useTempDir } from '../support/temp-dir.js'

function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let i = 0; i < depth; i += 1) value = { next: value }
  return value
}

describe('hostile requests', () => {
  const tempDir = useTempDir()

  it('each gets a typed error or status; the gateway keeps serving and the chain stays intact', async () => {
    const store = await openSqliteStore(join(tempDir(), 'trace.db'))
    const gateway = new Gateway({ store, session: 'hostile' })
    gateway.addSurface(new AppSurface(claimsReview))
    const ok = await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, agent)
    expect(ok.status).toBe('completed')
    const before = (await store.head('hostile'))!.seq

    const envelopes: unknown[] = [
      null,
      42,
      [],
      { surface: 'claims', action: 'x'.repeat(10_000) },
      { surface: 'claims', action: '__proto__' },
      { surface: 'claims', action: 'close-claim', frameId: 'f'.repeat(10_000) },
      { surface: 'claims', action: 'close-claim', input: Number.NaN },
      { surface: 'claims', action: 'close-claim', input: () => 1 },
      { surface: 'claims', action: 'close-claim', requestId: '' },
      { surface: 'claims', action: 'reject-claim', input: deeplyNested(5_000) },
      { surface: 'claims', action: 'reject-claim', input: { reason: 'x'.repeat(2_000_000) } },
      { surface: 'claims', action: 'reject-claim', input: { many: Array.from({ length: 200_000 }, () => 1) } },
      { surface: 'claims', action: 'reject-claim', input: JSON.parse('{"__proto__": {"polluted": true}, "reason": "prototype"}') },
    ]
    for (const envelope of envelopes) {
      const error = await gateway.request(envelope, agent).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^(invalid action request: at |the action request )/) })
    }

    const statuses = []
    for (const input of [
      { reason: 12 },
      { reason: 'x'.repeat(600) },
      deeplyNested(20),
      { reason: 'constructor', constructor: { prototype: { polluted: true } } },
    ]) {
      statuses.push((await gateway.request({ surface: 'claims', action: 'reject-claim', input }, agent)).status)
    }
    expect(statuses).toEqual(['invalid_input', 'invalid_input', 'invalid_input', 'invalid_input'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()

    // Still serving, and what was recorded before is intact and still verifies.
    const after = await gateway.request({ surface: 'claims', action: 'reject-claim', input: { reason: 'Documents are forged' } }, agent)
    expect(after.status).toBe('completed')
    expect(toExecutionResult(after)).toMatchObject({ ok: true, message: 'Done.', actionId: 'reject-claim' })
    const [verified] = await verifyStore(store, 'hostile')
    expect(verified).toMatchObject({ ok: true })
    expect((await store.head('hostile'))!.seq).toBeGreaterThan(before)
    await store.close()
  })
})
