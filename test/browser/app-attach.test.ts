import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { chromiumPath } from '@tessera/surface-browser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttpClient, removeDir, resultText, startTestHub, type TestHub } from '../support/hub.js'
import { type FixtureSite, startFixtureSite } from './fixture-site.js'

/**
 * An Electron app is a Chromium with a DevTools port: the tile starts the app's command with
 * --remote-debugging-port=0 and drives its window through the same code as a web page. The
 * app here is Chromium itself, started as a separate program the way an Electron app would be.
 */
describe('an app driven through its DevTools port, as a browser tile', () => {
  let site: FixtureSite
  let t: TestHub
  let client: Client
  const profile = mkdtempSync(join(tmpdir(), 'tessera-app-profile-'))

  beforeAll(async () => {
    site = await startFixtureSite()
    const command = [chromiumPath(), '--headless', '--no-sandbox', '--no-first-run', '--no-default-browser-check', `--user-data-dir=${profile}`, `${site.origin}/wizard`]
    t = await startTestHub({ tiles: [{ kind: 'browser', id: 'app-1', title: 'Sign-up app', app: { command } }] })
    client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await client.close()
    await t.stop()
    removeDir(t.dataDir)
    await site.close()
    rmSync(profile, { recursive: true, force: true })
  })

  it('reads the app\'s window as a frame and acts on it through the gateway', async () => {
    const text = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { tile: 'app-1' } }))
    expect(text).toContain('heading "Step 1 of 3: who you are"')
    const ref = /textbox "Full name" @([n1-9][0-9a-z.]*)/.exec(text)?.[1]
    const typed = resultText(await client.callTool({ name: 'browser_type', arguments: { tile: 'app-1', target: ref, text: 'Grace Hopper' } }))
    expect(typed).toContain('~ textbox "Full name": "Grace Hopper"')
  })

  it('refuses a DevTools endpoint off this machine', async () => {
    const opened = await client.callTool({ name: 'action_request', arguments: { surface: 'map', action: 'open', input: { kind: 'browser', config: { app: { endpoint: 'http://192.0.2.1:9222' } } } } })
    // An agent cannot even name an app: only the hub's configuration can.
    expect(resultText(opened)).toMatch(/invalid_input/)
  })
})
