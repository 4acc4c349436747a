/**
 * The real-page corpus (test/browser/corpus): every page loads from loopback alone and
 * really has the features it is listed with, and the TodoMVC benchmark task can be done on
 * every TodoMVC app. One Chromium, one tab, pages in sequence; storage is cleared between
 * pages (TodoMVC apps keep their todos in localStorage).
 */
import { existsSync } from 'node:fs'
import { request } from 'node:http'
import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core'
import { CORPUS, CROSS_ORIGIN_FRAME_ROUTE, missingPages, serveCorpus, type CorpusPage, type CorpusServer } from './corpus/corpus.js'

const executablePath = process.env.TESSERA_CHROMIUM ?? '/usr/lib/chromium/chromium'
const ci = process.env.CI === 'true'

const missing = missingPages()
const why: string[] = []
if (!existsSync(executablePath)) why.push(`no Chromium at ${executablePath} (run scripts/bootstrap)`)
if (missing.length > 0) why.push(`corpus pages missing: ${missing.map((p) => `${p.name} (${p.source})`).join(', ')} (run scripts/bootstrap)`)
const runnable = why.length === 0

/** What the page did while the test drove it. */
interface Session {
  /** Requests to anything but 127.0.0.1: aborted, and a failure. */
  external: string[]
  /** Loopback responses with status >= 400, and loopback requests that failed. */
  broken: string[]
  errors: string[]
}

let browser: Browser
let context: BrowserContext
let page: Page
let corpus: CorpusServer
let session: Session = { external: [], broken: [], errors: [] }

/**
 * One context and one tab for the whole corpus (a new tab costs a renderer process, most
 * of a second on two cores); storage is cleared between pages.
 */
async function startBrowser(): Promise<void> {
  browser = await chromium.launch({ executablePath, headless: true })
  context = await browser.newContext()
  await context.route(/.*/, async (route) => {
    const target = new URL(route.request().url())
    if (target.hostname === '127.0.0.1') return route.continue()
    session.external.push(target.href)
    return route.abort('blockedbyclient')
  })
  page = await context.newPage()
  page.on('response', (response) => {
    if (response.status() >= 400) session.broken.push(`${response.status()} ${response.url()}`)
  })
  page.on('requestfailed', (req) => {
    if (new URL(req.url()).hostname === '127.0.0.1') session.broken.push(`${req.failure()?.errorText ?? 'failed'} ${req.url()}`)
  })
  page.on('pageerror', (error) => session.errors.push(error.message))
}

async function open(url: string): Promise<number | undefined> {
  session = { external: [], broken: [], errors: [] }
  const response = await page.goto(url, { waitUntil: 'load' })
  return response?.status()
}

async function leave(): Promise<void> {
  for (const frame of page.frames()) {
    await frame
      .evaluate(() => {
        localStorage.clear()
        sessionStorage.clear()
      })
      .catch(() => undefined)
  }
  await page.goto('about:blank')
}

/** Visible elements matching `selector` in every frame of the page. */
async function visibleCount(selector: string): Promise<number> {
  let total = 0
  for (const frame of page.frames()) total += await countIn(frame, selector)
  return total
}

async function countIn(frame: Frame, selector: string): Promise<number> {
  try {
    return await frame.evaluate(
      (sel) => Array.from(document.querySelectorAll(sel)).filter((el) => el.checkVisibility()).length,
      selector,
    )
  } catch {
    return 0 // a frame that went away meanwhile
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

/** TodoMVC markup: the 2014 apps use ids (`#new-todo`), later ones classes (`.new-todo`). */
const TODO = {
  input: 'input#new-todo, input.new-todo',
  items: '#todo-list > li, .todo-list > li',
  completed: '#todo-list > li.completed, .todo-list > li.completed',
  active: '#filters a[href="#/active"], .filters a[href="#/active"]',
  clear: '#clear-completed, .clear-completed',
} as const

/** Clicks a client-side route link: the location changes, the document stays. */
async function followRoute(selector: string): Promise<void> {
  await page.evaluate(() => {
    ;(window as unknown as { corpusMarker: string }).corpusMarker = 'same document'
  })
  const before = page.url()
  await page.locator(selector).first().click()
  await waitFor(async () => page.url() !== before, `location to change after clicking ${selector}`)
  const marker = await page.evaluate(() => (window as unknown as { corpusMarker?: string }).corpusMarker)
  expect(marker, 'clicking a route link loaded a new document').toBe('same document')
}

/** The TodoMVC benchmark task: add three todos, complete one, filter Active, clear completed. */
async function todoTask(route: string): Promise<void> {
  const input = page.locator(TODO.input)
  const items = page.locator(TODO.items)
  expect(await input.count(), 'the new-todo input').toBe(1)
  for (const text of ['buy milk', 'write report', 'call home']) {
    const before = await items.count()
    await input.fill(text)
    await input.press('Enter')
    await waitFor(async () => (await items.count()) === before + 1, `todo "${text}" to be listed`)
  }
  await items.filter({ hasText: 'write report' }).locator('input.toggle').check()
  await waitFor(async () => (await page.locator(TODO.completed).count()) === 1, 'one completed todo')
  await followRoute(route)
  await waitFor(async () => (await items.filter({ visible: true }).count()) === 2, 'two active todos shown')
  await page.locator(TODO.clear).click()
  await waitFor(async () => (await items.count()) === 2 && (await page.locator(TODO.completed).count()) === 0, 'the completed todo to be cleared')
}

async function checkFeatures(corpusPage: CorpusPage): Promise<void> {
  const features = new Set(corpusPage.features)
  const { interactions = {} } = corpusPage

  if (features.has('table')) {
    const tables = await page.evaluate(
      () => Array.from(document.querySelectorAll('table')).filter((t) => t.rows.length >= 2 && Array.from(t.rows).some((r) => r.cells.length >= 2 && r.querySelector('td'))).length,
    )
    expect(tables, 'a <table> with a data row of two or more cells').toBeGreaterThanOrEqual(1)
  }
  if (features.has('large')) {
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeGreaterThanOrEqual(5_000)
  }
  if (features.has('form')) {
    // Some forms build themselves from schemas they fetch after load (json-editor): wait for the controls, bounded.
    await page.waitForFunction(() => document.querySelectorAll('input:not([type=hidden]), select, textarea, button').length >= 8, undefined, { timeout: 10_000 }).catch(() => undefined)
    const controls = await page.evaluate(() => document.querySelectorAll('input:not([type=hidden]), select, textarea, button').length)
    expect(controls, 'a long form').toBeGreaterThanOrEqual(8)
  }
  if (features.has('shadow-dom')) {
    await waitFor(
      () => page.evaluate(() => Array.from(document.querySelectorAll('*')).some((el) => el.shadowRoot !== null && el.shadowRoot.childNodes.length > 0)),
      'an element with an open shadow root',
    )
  }
  if (features.has('iframe')) {
    await waitFor(async () => page.frames().length > 1, 'a child frame')
  }
  if (features.has('menu')) {
    await waitFor(async () => (await visibleCount('[role=menu]')) >= 1 && (await visibleCount('[role=menuitem]')) >= 3, 'a menu with items')
    if (interactions.menu) {
      const menus = await visibleCount('[role=menu]')
      await page.locator(interactions.menu).first().hover()
      await waitFor(async () => (await visibleCount('[role=menu]')) > menus, 'a submenu to open')
      await page.mouse.move(0, 0)
    }
  }
  if (features.has('dropdown')) {
    if (!interactions.dropdown) throw new Error(`${corpusPage.name}: a dropdown page needs interactions.dropdown`)
    const popups = '[role=listbox], [role=menu]'
    const before = await visibleCount(popups)
    await page.locator(interactions.dropdown).first().click()
    await waitFor(async () => (await visibleCount(popups)) > before, 'a listbox or menu to open')
    await page.keyboard.press('Escape')
  }
  if (features.has('dialog')) {
    if (!interactions.dialog) throw new Error(`${corpusPage.name}: a dialog page needs interactions.dialog`)
    const dialogs = '[role=dialog], [role=alertdialog], dialog[open]'
    expect(await visibleCount(dialogs), 'no dialog before the trigger').toBe(0)
    await page.locator(interactions.dialog).first().click()
    await waitFor(async () => (await visibleCount(dialogs)) > 0, 'a dialog to open')
    await page.keyboard.press('Escape')
  }
  if (features.has('todomvc')) {
    await todoTask(interactions.route ?? TODO.active)
  } else if (features.has('spa')) {
    if (!interactions.route) throw new Error(`${corpusPage.name}: an spa page needs interactions.route`)
    // As a person waits for the page to be ready: CKEditor's toolbar configurator, switched to
    // Advanced before its editor is, throws on its own ("reading 'refresh'" of null), seen once in a CI run.
    await waitFor(() => page.evaluate(() => {
      const editors = (window as unknown as { CKEDITOR?: { instances: Record<string, { status: string }> } }).CKEDITOR
      return editors === undefined || Object.values(editors.instances).every((editor) => editor.status === 'ready')
    }), 'the page\'s editors to be ready')
    await followRoute(interactions.route)
  }
}

function rawGet(origin: string, path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((done, fail) => {
    const req = request(`${origin}${path}`, { method: 'GET' }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }))
    })
    req.on('error', fail)
    req.end()
  })
}

describe.skipIf(!runnable && !ci)(`the real-page corpus (${CORPUS.length} pages)`, () => {
  beforeAll(async () => {
    if (!runnable) throw new Error(why.join('; '))
    corpus = await serveCorpus()
    await startBrowser()
  })
  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await corpus?.close()
  })

  it('covers every feature the browser surface is tested against', () => {
    const covered = new Set(CORPUS.flatMap((p) => p.features))
    for (const feature of ['form', 'table', 'menu', 'dialog', 'iframe', 'shadow-dom', 'spa', 'large', 'dropdown', 'todomvc'] as const) {
      expect(covered, feature).toContain(feature)
    }
    expect(CORPUS.length).toBeGreaterThanOrEqual(12)
    expect(CORPUS.filter((p) => p.features.includes('todomvc')).length).toBeGreaterThanOrEqual(2)
  })

  it('serves files with their types and refuses to leave a mount', async () => {
    const page = await rawGet(corpus.origin, new URL(corpus.url('tablesort')).pathname)
    expect(page.status).toBe(200)
    expect(page.type).toMatch(/^text\/html/)
    expect((await rawGet(corpus.origin, '/tablesort/src/tablesort.js')).type).toMatch(/^text\/javascript/)
    expect((await rawGet(corpus.origin, '/tablesort/tablesort.css')).type).toMatch(/^text\/css/)
    expect((await rawGet(corpus.otherOrigin, '/tablesort/tablesort.css')).status).toBe(200)
    for (const attack of ['/tablesort/..%2f..%2f..%2f..%2fetc%2fpasswd', '/tablesort/%2e%2e/%2e%2e/package.json', '/usr/share/javascript/..%2f..%2f..%2fetc%2fpasswd', '/tablesort/..%5c..%5cpackage.json']) {
      const res = await rawGet(corpus.origin, attack)
      expect([403, 404], attack).toContain(res.status)
      expect(res.body, attack).not.toMatch(/root:|"name"/)
    }
    expect((await rawGet(corpus.origin, '/no-such-page/index.html')).status).toBe(404)
    expect((await rawGet(corpus.origin, `${CROSS_ORIGIN_FRAME_ROUTE}?src=//example.com/`)).status).toBe(400)
    expect((await rawGet(corpus.origin, `${CROSS_ORIGIN_FRAME_ROUTE}?src=${encodeURIComponent('http://example.com/')}`)).status).toBe(400)
  })

  for (const corpusPage of CORPUS) {
    it(`${corpusPage.name}: ${corpusPage.features.join(', ')}`, async () => {
      try {
        expect(await open(corpus.url(corpusPage))).toBe(200)
        const title = await page.title()
        if (title !== '') expect(title).toBe(corpusPage.title)
        await checkFeatures(corpusPage)
        expect(session.external, 'requests that left loopback').toEqual([])
        expect(session.broken, 'loopback requests that failed').toEqual([])
        expect(session.errors, 'uncaught page errors').toEqual([])
      } finally {
        await leave()
      }
    })
  }

  it('embeds a corpus page from the other origin (cross-origin-iframe harness)', async () => {
    const inner = new URL(corpus.url('todomvc-vanillajs')).pathname
    try {
      expect(await open(corpus.url(`${CROSS_ORIGIN_FRAME_ROUTE}?src=${encodeURIComponent(inner)}`))).toBe(200)
      const fromOther = () => page.frames().find((f) => f.url().startsWith(`${corpus.otherOrigin}/`))
      await waitFor(async () => fromOther() !== undefined, 'a frame from the other origin')
      const frame = fromOther()!
      expect(new URL(frame.url()).origin).not.toBe(new URL(page.url()).origin)
      // The parent cannot reach into it: it really is cross-origin.
      const reach = await page.evaluate(() => {
        try {
          return document.querySelector('iframe')?.contentWindow?.document.title ?? 'none'
        } catch {
          return 'blocked'
        }
      })
      expect(reach).toBe('blocked')
      // The page inside still works.
      const input = frame.locator(TODO.input)
      await input.fill('across origins')
      await input.press('Enter')
      await waitFor(async () => (await frame.locator(TODO.items).count()) === 1, 'the todo to be listed inside the frame')
      expect(session.external).toEqual([])
      expect(session.broken).toEqual([])
      expect(session.errors).toEqual([])
    } finally {
      await leave()
    }
  })
})
