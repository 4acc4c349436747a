import { type Browser, type CDPSession, type Page, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumPath } from './browser-host.js'
import type { SnapshotNodes } from './dom-ranges.js'
import { LongTexts, type SnapshotTextBoxes } from './long-texts.js'
import { plainTextSnapshot, plainViewStart } from './plain-text-snapshot.js'

/** A log of 3,000 lines, every seventh long enough to wrap in a 1280-pixel view. */
const LOG = Array.from({ length: 3000 }, (_, i) => `${String(i + 1).padStart(4, '0')} ${i % 7 === 0 ? 'wrapped '.repeat(60) : 'short line'}`).join('\n')

interface DomSnapshot {
  documents: Array<{ nodes: SnapshotNodes; layout: { nodeIndex: number[]; bounds: number[][] }; textBoxes: SnapshotTextBoxes }>
  strings: string[]
}

describe('a text file read without a DOM snapshot', () => {
  let browser: Browser
  let page: Page
  let session: CDPSession
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--disable-smooth-scrolling'] })
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.route('http://tessera.test/**', (route) => {
      const html = route.request().url().endsWith('.html')
      return route.fulfill(html ? { body: `<!doctype html><pre>${LOG}</pre>`, contentType: 'text/html' } : { body: LOG, contentType: 'text/plain' })
    })
    page = await context.newPage()
    session = await context.newCDPSession(page)
  })
  afterAll(async () => {
    await browser.close()
  })

  /** The text's window in view, by the DOM snapshot's text boxes and without them. */
  const bothWays = async () => {
    const frameId = ((await session.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } }).frameTree.frame.id
    const plain = await plainTextSnapshot(session, frameId, page.url())
    const full = (await session.send('DOMSnapshot.captureSnapshot', { computedStyles: [] })) as unknown as DomSnapshot
    const doc = full.documents[0] as DomSnapshot['documents'][number]
    const boxed = LongTexts.of(doc.nodes, doc.layout, doc.textBoxes, full.strings)
    const view = { x: 0, y: await page.evaluate(() => scrollY), width: 1280, height: 800 }
    const pre = boxed.holders[0] as number
    const held = boxed.textIn(pre, pre + 2, { view })
    if (plain === null) return { plain, boxed, held }
    const measured = LongTexts.ofPlainText(plain.documents[0].nodes, plain.strings, plain.documents[0].plain)
    return { plain, boxed, held, measured, heldPlain: measured.textIn(plain.documents[0].plain.holder, plain.documents[0].plain.holder + 2, { view }) }
  }

  it('says what the text boxes say: its lines as laid out, wrapped ones counted, and the window in view, at the top and scrolled', async () => {
    await page.goto('http://tessera.test/build.log')
    for (const scrolled of [0, 31_000]) {
      await page.evaluate((y) => scrollTo(0, y), scrolled)
      const { plain, boxed, held, measured, heldPlain } = await bothWays()
      expect(plain).not.toBeNull()
      // The whole text, not the 10,000 characters DevTools sends of a text node.
      expect(heldPlain?.excerpt?.lines).toBe(3000)
      // Its lines as laid out (a wrapped one is several); DevTools' boxes are more (a line's break is one of its own).
      expect(measured?.boxes).toBeGreaterThanOrEqual(3000 + Math.ceil(3000 / 7))
      expect(measured?.boxes).toBeLessThanOrEqual(boxed.boxes)
      expect(measured?.holders.length).toBe(1)
      expect(measured?.needsParts).toBe(boxed.needsParts)
      expect(heldPlain).toEqual(held)
    }
  })

  it('says again where the view starts after a scroll, its layout otherwise kept', async () => {
    await page.goto('http://tessera.test/build.log')
    await page.evaluate(() => scrollTo(0, 12_000))
    const { held } = await bothWays()
    const start = await plainViewStart(session)
    expect(start).not.toBeNull()
    expect(LOG.slice(LOG.lastIndexOf('\n', (start as number) - 1) + 1).startsWith(held?.text.slice(0, 40) ?? '-')).toBe(true)
  })

  it('leaves a page that only looks like a text file to the DOM snapshot', async () => {
    await page.goto('http://tessera.test/build.html')
    const frameId = ((await session.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } }).frameTree.frame.id
    expect(await plainTextSnapshot(session, frameId, page.url())).toBeNull()
    expect(await plainViewStart(session)).toBeNull()
  })
})
