import { type AddressInfo, type Socket, connect, createServer } from 'node:net'
import { AtspiBus, DesktopSession, walkAccessibles } from '@tessera/surface-desktop'
import type { AccessibleNode } from '@tessera/surface-desktop'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { useTestHub, useAgentClient } from '../support/hub.js'

/** Reads one WebSocket's binary messages as a byte stream: `read(n)` waits for n bytes. */
function byteStream(ws: WebSocket): { read(n: number): Promise<Buffer> } {
  let buffered = Buffer.alloc(0)
  let waiting: (() => void) | undefined
  ws.on('message', (data: Buffer) => {
    buffered = Buffer.concat([buffered, data])
    waiting?.()
  })
  return {
    async read(n) {
      while (buffered.length < n) await new Promise<void>((resolve) => (waiting = resolve))
      const out = buffered.subarray(0, n)
      buffered = buffered.subarray(n)
      return out
    },
  }
}

const texts = (node: AccessibleNode): string[] => [...(node.text === undefined ? [] : [node.text]), ...node.children.flatMap(texts)]
const find = (node: AccessibleNode, match: (node: AccessibleNode) => boolean): AccessibleNode | undefined => (match(node) ? node : node.children.map((child) => find(child, match)).find((found) => found !== undefined))

/**
 * Pixels over VNC both ways: a native tile's view-only VNC server bridged to a viewer's
 * WebSocket (what the console's live tile plays), and the `vnc` backend — a tile attached to a
 * VNC server Tessera did not start (here Mousepad on a display of the test's own, with x11vnc
 * taking input), driven over RFB.
 */
describe('VNC: the live-pixels bridge and the vnc backend', () => {
  const tiles: Array<Record<string, unknown>> = [{ kind: 'desktop', id: 'calc', app: 'gnome-calculator' }]
  let remote: DesktopSession
  beforeAll(async () => {
    // "A virtual machine's console": a display with an app, and a VNC server that takes input.
    remote = await DesktopSession.start({})
    remote.launch(['mousepad', '--disable-server'])
    // A free loopback port, then x11vnc on it; ready once it takes a connection.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo
        probe.close(() => resolve(free))
      })
    })
    remote.launch(['x11vnc', '-display', remote.display, '-localhost', '-shared', '-forever', '-nopw', '-rfbport', String(port), '-nolookup'])
    for (let tries = 0; ; tries++) {
      const up = await new Promise<boolean>((resolve) => connect({ host: '127.0.0.1', port }).once('connect', function (this: Socket) {
        this.destroy()
        resolve(true)
      }).once('error', () => resolve(false)))
      if (up) break
      if (tries > 100) throw new Error('x11vnc did not listen')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    tiles.push({ kind: 'desktop', id: 'vm', title: 'A VM', vnc: { port } })
  }, 30_000)
  const t = useTestHub({ tiles: tiles as never })
  const { call } = useAgentClient(t)

  afterAll(async () => {
    await remote?.close()
  })

  it('bridges a tile\'s view-only VNC server to a viewer\'s WebSocket: the RFB handshake, the screen\'s size, and no input reaching the app', async () => {
    const url = `${t.hub.url.replace(/^http/, 'ws')}/api/surfaces/calc/vnc`
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url)
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
      ws.on('open', () => resolve(101))
    })
    expect(refused).toBe(401)
    const ws = new WebSocket(url, ['binary'], { headers: { authorization: `Bearer ${t.adminToken}` } })
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const rfb = byteStream(ws)
    expect((await rfb.read(12)).toString('latin1')).toMatch(/^RFB 003\.00\d\n$/)
    ws.send(Buffer.from('RFB 003.008\n'))
    const types = [...(await rfb.read((await rfb.read(1))[0] as number))]
    expect(types).toContain(1)
    ws.send(Buffer.from([1]))
    expect((await rfb.read(4)).readUInt32BE(0)).toBe(0)
    ws.send(Buffer.from([1]))
    const init = await rfb.read(24)
    expect([init.readUInt16BE(0), init.readUInt16BE(2)]).toEqual([1280, 800])
    await rfb.read(init.readUInt32BE(20))
    // A viewer's key: "9" down and up. The server is view-only: the calculator never sees it.
    for (const down of [1, 0]) ws.send(Buffer.from([4, down, 0, 0, 0, 0, 0, 0x39]))
    await new Promise((resolve) => setTimeout(resolve, 500))
    ws.close()
    expect((await call('surface_snapshot', { surface: 'calc' })).text).not.toMatch(/textbox: "9"/)
    const none = await new Promise<number>((resolve) => {
      const other = new WebSocket(`${t.hub.url.replace(/^http/, 'ws')}/api/surfaces/nope/vnc`, { headers: { authorization: `Bearer ${t.adminToken}` } })
      other.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
      other.on('open', () => resolve(101))
    })
    expect(none).toBe(404)
  })

  it('attaches a tile to a VNC server it did not start, and drives it over RFB: pixels, text and keys', async () => {
    expect((await call('gui_app_list', {})).json?.apps).toContainEqual(expect.objectContaining({ tile_id: 'vm', app: 'A VM', backend: 'vnc' }))
    const tree = await call('gui_get_widget_tree', { tile_id: 'vm' })
    expect(tree.text).toContain('no widget tree reaches Tessera')
    const shot = await call('gui_screenshot', { tile_id: 'vm' })
    expect(shot.text).toMatch(/"width":1280,"height":800/)
    // Into the editor's text first, as a person would: the keys go where the pointer put the focus.
    expect((await call('gui_click', { tile_id: 'vm', x: 300, y: 200 })).json).toMatchObject({ success: true })
    const typed = await call('gui_send_text', { tile_id: 'vm', text: 'typed over VNC' })
    expect(typed.json, typed.text).toMatchObject({ success: true })
    await call('gui_send_keys', { tile_id: 'vm', keys: 'Return' })
    await call('gui_send_text', { tile_id: 'vm', text: 'Über' })
    // The test reads the remote app's text over its own AT-SPI bus: Tessera had none.
    const bus = AtspiBus.connect(remote.a11yBusAddress)
    let seen = ''
    for (let i = 0; i < 30 && !seen.includes('Über'); i++) {
      seen = texts({ children: (await walkAccessibles(bus)).apps } as AccessibleNode).join('\n')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(seen, seen).toContain('typed over VNC\nÜber')
    // A drag over RFB (the button held while the pointer moves) selects the first line; typed text takes its place.
    const view = find({ children: (await walkAccessibles(bus)).apps } as AccessibleNode, (node) => node.role === 'text' && (node.text ?? '').includes('Über'))
    const box = view?.extents
    expect(box, 'the editor\'s text view and its place').toBeDefined()
    if (box !== undefined) {
      const y = box.y + 9
      const dragged = await call('action_request', { surface: 'vm', action: 'drag_at', input: { from: { x: box.x + 1, y }, to: { x: box.x + box.width - 20, y } } })
      expect(dragged.json?.result?.status, dragged.text).toBe('completed')
      await call('gui_send_text', { tile_id: 'vm', text: 'Replaced' })
      for (let i = 0; i < 30 && !seen.includes('Replaced'); i++) {
        seen = texts({ children: (await walkAccessibles(bus)).apps } as AccessibleNode).join('\n')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(seen, seen).toContain('Replaced\nÜber')
      expect(seen).not.toContain('typed over VNC')
    }
    const scrolled = await call('action_request', { surface: 'vm', action: 'scroll_at', input: { x: 300, y: 200, dy: 3 } })
    expect(scrolled.json?.result?.status, scrolled.text).toBe('completed')
    bus.disconnect()
    const outside = await call('gui_click', { tile_id: 'vm', x: 5000, y: 1 })
    expect(outside.isError).toBe(true)
    expect(outside.text).toMatch(/inside the screen/)
    // The widget-level tools say plainly there is nothing to find.
    expect((await call('gui_find_widget', { tile_id: 'vm', role: 'button' })).text).toBe('no widget matches')
  })
})
