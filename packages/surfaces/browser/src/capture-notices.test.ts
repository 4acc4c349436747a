import { mkdtempSync, rmSync } from 'node:fs'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserHost } from './browser-host.js'
import { BrowserTile } from './browser-tile.js'
import { alreadyRead, readChangeMark } from './change-mark.js'

/** Rows enough that a capture takes far longer than the change watch's 80 ms before it tells of a change. */
const ROWS = 20_000
const PAGE = `<!doctype html><html><head><title>Rows</title></head><body><main>${Array.from({ length: ROWS }, (_, i) => `<p>Row ${i} <a href="#r${i}">open ${i}</a></p>`).join('')}</main></body></html>`

describe('a notice of change heard while the page is captured', () => {
  let server: Server
  let url: string
  const host = new BrowserHost()
  const filesDir = mkdtempSync(join(tmpdir(), 'tessera-notices-'))
  let tile: BrowserTile
  beforeAll(async () => {
    server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE))
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rows`
    tile = await new BrowserTile({ id: 'notices', host, filesDir }).open()
    await tile.navigate(url)
  })
  afterAll(async () => {
    await tile.close()
    await new Promise((closed) => server.close(closed))
    rmSync(filesDir, { recursive: true, force: true })
  })

  /** The stale notices the tile tells its listeners of while `step` runs, and for a moment after (a notice comes 80 ms after its change). */
  const staleNotices = async (step: () => Promise<unknown>): Promise<number> => {
    let told = 0
    const stop = tile.subscribe((frame) => {
      if (frame === undefined) told++
    })
    try {
      await step()
      await new Promise((settled) => setTimeout(settled, 400))
      return told
    } finally {
      stop()
    }
  }
  const treeOf = async (): Promise<string> => JSON.stringify((await tile.snapshot()).tree)

  it('is no news when the capture read the change it tells of: the frame is not taken again', async () => {
    await new Promise((quiet) => setTimeout(quiet, 300))
    let tree = ''
    const told = await staleNotices(async () => {
      // Changed just before the capture begins: its notice comes while the capture runs.
      await tile.page.evaluate(() => document.querySelector('main')?.prepend(Object.assign(document.createElement('h1'), { textContent: 'Fresh heading' })))
      tree = await treeOf()
    })
    expect(tree).toContain('Fresh heading')
    expect(told).toBe(0)
  })

  it('is news when the page changed after the capture began to read it', async () => {
    await new Promise((quiet) => setTimeout(quiet, 300))
    const told = await staleNotices(async () => {
      // Changed a moment after the capture asked where the page stood: the frame it makes may miss it.
      await tile.page.evaluate(() => setTimeout(() => document.querySelector('main')?.prepend(Object.assign(document.createElement('h2'), { textContent: 'Later heading' })), 30))
      await treeOf()
    })
    expect(told).toBe(1)
    expect(await treeOf()).toContain('Later heading')
  })

  it('is news when it comes from another document than the one the capture read, or without a mark', () => {
    const read = readChangeMark(['doc-a', 7])
    expect(alreadyRead(read, readChangeMark(['doc-a', 7]))).toBe(true)
    expect(alreadyRead(read, readChangeMark(['doc-a', 8]))).toBe(false)
    expect(alreadyRead(read, readChangeMark(['doc-b', 1]))).toBe(false)
    expect(alreadyRead(read, readChangeMark([undefined, undefined]))).toBe(false)
    expect(alreadyRead(null, readChangeMark(['doc-a', 1]))).toBe(false)
  })
})
