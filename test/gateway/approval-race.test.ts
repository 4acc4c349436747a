import { claimsReview } from '@tessera/example-claims-review'
import { Gateway, openMemoryStore, openStore, type TraceStore } from '@tessera/gateway'
import { TesseraError, type TraceEvent } from '@tessera/protocol'
import { AppSurface } from '@tessera/surface-app'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresAvailable, type RunningPostgres, startPostgres } from '../../packages/gateway/test-support/postgres.js'
import { makeTempDir, type TempDir } from '../../packages/gateway/test-support/tmp.js'
import { agent } from '../support/principals.js'

const approvers = Array.from({ length: 4 }, (_, n) => ({ id: `human:approver-${n}`, roles: ['approver' as const] }))

async function events(store: TraceStore, session: string): Promise<TraceEvent[]> {
  const all: TraceEvent[] = []
  for await (const event of store.read(session)) all.push(event)
  return all
}

/** The claims app's payout waiting for a person, on a gateway over `store`. */
async function pendingPayout(store: TraceStore, session: string) {
  const gateway = new Gateway({ store, session })
  gateway.addSurface(new AppSurface(claimsReview))
  expect((await gateway.request({ surface: 'claims', action: 'open-claim', input: { claimId: 'c-1001' } }, agent)).status).toBe('completed')
  const pending = await gateway.request({ surface: 'claims', action: 'approve-payout' }, agent)
  expect(pending.status).toBe('awaiting_approval')
  return { gateway, approvalId: pending.approvalId as string }
}

function outcomes(settled: PromiseSettledResult<unknown>[]) {
  const won = settled.filter((s) => s.status === 'fulfilled')
  const lost = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected')
  for (const loss of lost) {
    expect(loss.reason).toBeInstanceOf(TesseraError)
    expect((loss.reason as TesseraError).code).toBe('conflict')
  }
  return { won: won.length, lost: lost.length }
}

function describeRaces(name: string, open: () => Promise<{ store: TraceStore; close(): Promise<void> }>) {
  describe(`approval races: ${name}`, () => {
    it('concurrent approvals of one request run the action exactly once; the others are refused as conflict and traced', async () => {
      const { store, close } = await open()
      try {
        for (let round = 0; round < 3; round += 1) {
          const session = `race-approve-${round}`
          const { gateway, approvalId } = await pendingPayout(store, session)
          const settled = await Promise.allSettled(approvers.map((approver) => gateway.approve(approvalId, approver)))
          expect(outcomes(settled)).toEqual({ won: 1, lost: approvers.length - 1 })
          const trace = await events(store, session)
          expect(trace.filter((e) => e.type === 'dispatched' && e.action === 'approve-payout')).toHaveLength(1)
          expect(trace.filter((e) => e.type === 'approved')).toHaveLength(1)
          expect(trace.filter((e) => e.type === 'rejected' && (e.data as { status?: string }).status === 'approval_refused')).toHaveLength(approvers.length - 1)
          expect((await gateway.approvals.get(approvalId)).status).toBe('consumed')
        }
      } finally {
        await close()
      }
    })

    it('approve racing deny: one decision stands, and the action runs only if it was the approval', async () => {
      const { store, close } = await open()
      try {
        for (let round = 0; round < 4; round += 1) {
          const session = `race-deny-${round}`
          const { gateway, approvalId } = await pendingPayout(store, session)
          const [approver, denier] = [approvers[0]!, approvers[1]!]
          // Alternate who starts first, so both orders are tried.
          const calls = round % 2 === 0 ? [gateway.approve(approvalId, approver), gateway.deny(approvalId, denier, 'no')] : [gateway.deny(approvalId, denier, 'no'), gateway.approve(approvalId, approver)]
          const settled = await Promise.allSettled(calls)
          expect(outcomes(settled)).toEqual({ won: 1, lost: 1 })
          const final = await gateway.approvals.get(approvalId)
          const ran = (await events(store, session)).filter((e) => e.type === 'dispatched' && e.action === 'approve-payout').length
          if (final.status === 'denied') expect(ran).toBe(0)
          else {
            expect(final.status).toBe('consumed')
            expect(ran).toBe(1)
          }
        }
      } finally {
        await close()
      }
    })
  })
}

describeRaces('memory', async () => {
  const store = openMemoryStore()
  return { store, close: () => store.close() }
})

let dir: TempDir
beforeAll(async () => {
  dir = await makeTempDir('tessera-race-')
})
afterAll(async () => {
  await dir?.remove()
})

describeRaces('sqlite', async () => {
  const store = await openStore(`sqlite:${dir.path}/trace-${Math.random().toString(36).slice(2)}.db`)
  return { store, close: () => store.close() }
})

// Where the race was real: PostgreSQL answers concurrent queries on separate connections.
const postgres = postgresAvailable()
if (postgres.available) {
  let server: RunningPostgres
  beforeAll(async () => {
    server = await startPostgres()
  })
  afterAll(async () => {
    await server?.stop()
  })
  describeRaces('postgres', async () => {
    const store = await openStore(server.connectionString)
    const admin = new pg.Client({ connectionString: server.connectionString })
    await admin.connect()
    await admin.query('TRUNCATE tessera_events, tessera_heads, tessera_approvals')
    await admin.end()
    return { store, close: () => store.close() }
  })
} else {
  describe('approval races: postgres', () => {
    it.skip(`needs PostgreSQL: ${postgres.reason}`, () => undefined)
  })
}
