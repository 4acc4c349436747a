import { HubClient } from '@tessera/client'
import { afterAll, beforeAll } from 'vitest'
import { removeDir, startTestHub, type TestHub } from './hub.js'

/**
 * A real hub and the scripting client connected to it through its data folder, for a whole
 * describe block; the returned object is filled in by beforeAll (`s.hub`, `s.t`).
 */
export function useScriptingClient(): { t: TestHub; hub: HubClient } {
  const s = {} as { t: TestHub; hub: HubClient }
  beforeAll(async () => {
    s.t = await startTestHub()
    s.hub = await HubClient.connect({ dataDir: s.t.dataDir })
  })
  afterAll(async () => {
    await s.hub.close()
    await s.t.stop()
    removeDir(s.t.dataDir)
  })
  return s
}
