import { HubClient } from '@tessera/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir, startTestHub, type TestHub } from '../support/hub.js'

/** Past 1,500 requests on one transport, the SDK's shared abort signal makes Node warn once per request. */
const CALLS = 1_560

async function warningsDuring(work: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = []
  const onWarning = (warning: Error): void => {
    warnings.push(warning.name)
  }
  process.on('warning', onWarning)
  try {
    await work()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', onWarning)
  }
  return warnings
}

describe('a long-lived client session', () => {
  let t: TestHub

  beforeAll(async () => {
    t = await startTestHub({ terminals: { openAtStart: false }, limits: { requestsPerMinute: 1_000_000 } })
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
  })

  // The SDK's own fetch warns from call 1,501 when answers come as event streams; the hub
  // answers a quick call as plain JSON (quick-answer.ts), so whether a plain SDK client warns
  // depends on how fast each call is. The client's session fetch must never warn.
  it(`makes ${CALLS} calls without a MaxListenersExceededWarning`, { timeout: 120_000 }, async () => {
    const hub = await HubClient.connect({ dataDir: t.dataDir })
    const quiet = await warningsDuring(async () => {
      for (let i = 0; i < CALLS; i += 1) await hub.tool('surfaces_list', {})
    })
    await hub.close()
    expect(quiet).toEqual([])
  })
})
