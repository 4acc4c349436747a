import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callTool, connectHttpClient, useTestHub } from '../support/hub.js'
import { refOf } from '../support/outline-refs.js'

const call = callTool

/**
 * GNOME Calculator (GTK 4) in tiles of their own: a private Xvfb display, session bus and
 * AT-SPI bus each, started by the hub; its widgets read over AT-SPI and pressed through their
 * own actions, keys and text through XTEST.
 */
describe('a desktop app as a tile, over MCP', () => {
  const t = useTestHub({ tiles: [{ kind: 'desktop', id: 'calc', app: 'gnome-calculator' }] })
  let client: Client
  const snapshot = async (surface: string): Promise<string> => (await call(client, 'surface_snapshot', { surface })).text

  beforeAll(async () => {
    client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await client?.close()
  })

  it('computes by pressing the calculator\'s buttons through AT-SPI, and reads the result from the widget tree', async () => {
    const outline = await snapshot('calc')
    expect(outline).toContain('window "Calculator"')
    for (const key of ['2', '+', '3', '=']) {
      const pressed = await call(client, 'surface_act', { surface: 'calc', ref: refOf(outline, 'button', key), op: 'click' })
      expect(pressed.isError, pressed.text).toBe(false)
    }
    const after = await snapshot('calc')
    expect(after).toMatch(/textbox: "5" \[type/)
    expect(after).toContain('"2+3" "=" "5"')
  })

  it('types into the display and presses Return through XTEST; refuses chords that leave the app', async () => {
    const outline = await snapshot('calc')
    const display = /textbox[^\n]*\[type[^@\n]*@([n1-9][0-9a-z.]*)/.exec(outline)?.[1]
    const typed = await call(client, 'surface_act', { surface: 'calc', ref: display, op: 'type', text: '7×6' })
    expect(typed.isError, typed.text).toBe(false)
    expect(typed.text).toMatch(/textbox: "7×6"/)
    const keyed = await call(client, 'action_request', { surface: 'calc', action: 'key', input: { key: 'Return' } })
    expect(keyed.result?.status, keyed.text).toBe('completed')
    const answered = await snapshot('calc')
    expect(answered).toMatch(/textbox: "42" \[type/)
    // GTK 4 adds the history row without an event: the frame lists its rows again, and has it.
    expect(answered).toContain('"7×6" "=" "42"')
    for (const chord of ['Ctrl+Alt+F1', 'ctrl+alt+BackSpace', 'Alt+Sys_Req']) {
      const refused = await call(client, 'action_request', { surface: 'calc', action: 'key', input: { key: chord } })
      expect(refused.result?.error?.code, chord).toBe('forbidden')
    }
    const unknown = await call(client, 'action_request', { surface: 'calc', action: 'key', input: { key: 'Hyper+q' } })
    expect(unknown.result?.error?.code).toBe('invalid_input')
    expect(unknown.text).toMatch(/expected a modifier/)
  })

  it('answers bad requests with typed errors and goes on working', async () => {
    const outline = await snapshot('calc')
    const four = refOf(outline, 'button', '4')
    const typedOnButton = await call(client, 'surface_act', { surface: 'calc', ref: four, op: 'type', text: 'x' })
    expect(typedOnButton.isError).toBe(true)
    expect(typedOnButton.text).toMatch(/offers no "type" on @/)
    const outside = await call(client, 'action_request', { surface: 'calc', action: 'click_at', input: { x: 5000, y: 10 } })
    expect(outside.result?.error?.code).toBe('invalid_input')
    expect(outside.text).toMatch(/inside the tile/)
    const stale = await call(client, 'surface_act', { surface: 'calc', ref: 'nzzzz', op: 'click' })
    expect(stale.isError).toBe(true)
    expect(stale.text).toMatch(/not_found/)
    expect(await snapshot('calc')).toContain('button "4"')
  })

  it('opens another app tile when an agent asks the map for a known app, never for a command; each tile sees only its own app', async () => {
    const opened = await call(client, 'action_request', { surface: 'map', action: 'open', input: { kind: 'desktop', title: 'Second calculator', config: { app: 'gnome-calculator' } } })
    expect(opened.result?.status, opened.text).toBe('completed')
    const second = (opened.result?.output as { tile: string }).tile
    const command = await call(client, 'action_request', { surface: 'map', action: 'open', input: { kind: 'desktop', config: { command: ['/bin/sh', '-c', 'id'] } } })
    expect(command.result?.error?.code ?? command.result?.status).toBe('invalid_input')
    const one = await snapshot('calc')
    const two = await snapshot(second)
    expect(two).toContain('desktop "Second calculator"')
    expect(one.match(/application "/g)).toHaveLength(1)
    expect(two.match(/application "/g)).toHaveLength(1)
    const displayOf = (outline: string): string | undefined => /"display":"(:\d+)"/.exec(outline)?.[1]
    expect(displayOf(one)).toBeDefined()
    expect(displayOf(one)).not.toBe(displayOf(two))
    // What was computed in the first is nowhere in the second.
    expect(two).not.toContain('"42"')
  })

  it('shows the tile\'s pixels as PNG', async () => {
    const png = await fetch(`${t.hub.url}/api/surfaces/calc/capture`, { headers: { authorization: `Bearer ${t.adminToken}` } })
    expect(png.status).toBe(200)
    const bytes = new Uint8Array(await png.arrayBuffer())
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])
    expect(bytes.length).toBeGreaterThan(2000)
  })
})
