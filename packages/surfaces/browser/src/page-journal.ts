import type { ConsoleMessage, Page, Request } from 'playwright-core'
import type { AgentPattern } from '@tessera/kit'
import { cutWhole } from '@tessera/protocol'
import { shownAddress } from './web-address.js'
import { commitsNoDocument } from './no-document.js'

/** Console levels, most severe first: asking for one gives it and every more severe one (Playwright MCP's `level`). */
export const CONSOLE_LEVELS = ['error', 'warning', 'info', 'debug'] as const
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number]

/** Most messages and requests a page keeps: a page that logs in a loop holds its newest. */
const KEPT = 1000
/** Characters of one message kept: a page that logs a megabyte of JSON is said in part. */
export const MESSAGE_CHARS = 2000
/** Characters of a URL said: a data: URL or a long query is said by its start. */
export const URL_CHARS = 500

/** What a request brings that an agent rarely needs to see listed: the page's own parts, where they came. */
const STATIC_TYPES = new Set(['image', 'font', 'stylesheet', 'script', 'media', 'manifest', 'texttrack'])

export interface JournalMessage {
  level: ConsoleLevel
  text: string
  /** Where it was logged: `url:line`, where the page says. */
  where?: string
}

export interface JournalRequest {
  /** 1-based, in the order the page made them since its document loaded. */
  index: number
  method: string
  url: string
  type: string
  /** The answer's status, where one came; `failure` where none will. */
  status?: number
  statusText?: string
  failure?: string
  /** Where the answer went instead of the page: the file it was saved as, in the tile's folder (`downloads/report.csv`). */
  download?: string
}

interface Kept<T> {
  entry: T
  /** Which document of the page it belongs to: a navigation starts the next. */
  document: number
}

/** A message's level as the console shows it: `console.assert` that failed is an error, `console.count` and the like say at info. */
function levelOf(type: string): ConsoleLevel {
  if (type === 'error' || type === 'assert') return 'error'
  if (type === 'warning') return 'warning'
  if (type === 'debug') return 'debug'
  return 'info'
}

function whereOf(message: ConsoleMessage): string | undefined {
  const { url, lineNumber } = message.location()
  return url === '' ? undefined : `${url.slice(0, URL_CHARS)}:${lineNumber + 1}`
}

/** The frame a request is for; none for a service worker's. */
function frameOf(request: Request): unknown {
  try {
    return request.frame()
  } catch {
    return undefined
  }
}

/**
 * A message the browser logs of a request it made itself, not the page: the site's
 * `/favicon.ico` it asks for by default, whose 404 an agent would otherwise chase.
 */
function browsersOwn(message: ConsoleMessage): boolean {
  if (message.type() !== 'error' || !message.text().startsWith('Failed to load resource')) return false
  try {
    return new URL(message.location().url).pathname === '/favicon.ico'
  } catch {
    return false
  }
}

function keep<T>(list: Array<Kept<T>>, entry: T, document: number): void {
  list.push({ entry, document })
  if (list.length > KEPT) list.splice(0, list.length - KEPT)
}

/** A failure that commits no document: the navigation was called off (a download took it, a 204, a `window.stop()`), and the page stays. */
const CALLED_OFF = 'net::ERR_ABORTED'

/** The first request of a chain of redirects. */
function rootOf(request: Request): Request {
  let root = request
  for (let from = root.redirectedFrom(); from !== null; from = root.redirectedFrom()) root = from
  return root
}

/**
 * What a page said to its console (and the errors it did not catch) and the requests it made,
 * kept as they happen — the tools that read them cost the page nothing. Each belongs to the
 * document it came in: a navigation of the page's top frame starts the next once it commits,
 * so "since the page loaded" is what an agent asks for by default. A navigation that commits
 * nothing (a file to download, a 204) leaves the page as it was: its request joins the page's.
 */
export class PageJournal {
  #document = 0
  #nextIndex = 1
  readonly #messages: Array<Kept<JournalMessage>> = []
  readonly #requests: Array<Kept<JournalRequest>> = []
  readonly #byRequest = new WeakMap<Request, JournalRequest>()
  /** The requests of the current document by their index, for one's headers and bodies (request-detail.ts); none for a download the browser made itself. */
  #byIndex = new Map<number, Request | undefined>()
  /** The top frame's navigation under way: its requests (a redirect's too) are the next document's until it commits. */
  #navigation: { root: Request; byIndex: Map<number, Request> } | undefined
  /** Whether a navigation committed since the last document's DOMContentLoaded; else a document came with no request (a `data:` URL, `about:blank`). */
  #committed = false
  /** Navigation requests that committed no document (a file to save, a 204): a download's request is one of them, never the page's own. */
  readonly #calledOff = new WeakSet<JournalRequest>()

  /** `onDocument` hears each new document of the top frame, after the journal started it. */
  constructor(page: Page, onDocument: () => void = () => undefined) {
    page.on('console', (message) => {
      if (browsersOwn(message)) return
      const where = whereOf(message)
      keep(this.#messages, { level: levelOf(message.type()), text: cutWhole(message.text(), MESSAGE_CHARS), ...(where === undefined ? {} : { where }) }, this.#document)
    })
    page.on('pageerror', (error) => keep(this.#messages, { level: 'error', text: cutWhole(`uncaught ${error.name}: ${error.message}`, MESSAGE_CHARS) }, this.#document))
    page.on('request', (request) => {
      const top = request.isNavigationRequest() && frameOf(request) === page.mainFrame()
      // Another navigation before this one committed: this one was called off, and its requests stay the page's.
      if (top && request.redirectedFrom() === null) {
        this.#stay()
        this.#navigation = { root: request, byIndex: new Map() }
      }
      const next = top && this.#navigation?.root === rootOf(request) ? this.#navigation : undefined
      // As the tile says any address: without a user and password. A filter runs on it too, so it cannot guess a password a character at a time.
      const entry: JournalRequest = { index: next === undefined ? this.#nextIndex++ : next.byIndex.size + 1, method: request.method(), url: shownAddress(request.url()).slice(0, URL_CHARS), type: request.resourceType() }
      this.#byRequest.set(request, entry)
      if (next === undefined) this.#indexed(entry.index, request)
      else next.byIndex.set(entry.index, request)
      keep(this.#requests, entry, next === undefined ? this.#document : this.#document + 1)
    })
    page.on('requestfinished', (request) => void this.#answered(request))
    page.on('requestfailed', (request) => {
      const entry = this.#byRequest.get(request)
      const failure = request.failure()?.errorText ?? 'failed'
      // A navigation answered with no document (a 204, a file to save) was called off after its answer came: the answer is what it got.
      const answered = failure === CALLED_OFF && request.isNavigationRequest() && entry?.status !== undefined
      if (entry !== undefined && entry.download === undefined && !answered) entry.failure = failure
      if (failure === CALLED_OFF && this.#navigation?.root === rootOf(request)) this.#stay()
    })
    // An answer that commits no document: no content, or a file to download.
    page.on('response', (response) => {
      const request = response.request()
      const entry = this.#byRequest.get(request)
      if (entry !== undefined) {
        entry.status = response.status()
        entry.statusText = response.statusText()
      }
      if (this.#navigation?.root !== rootOf(request)) return
      if (commitsNoDocument(response)) this.#stay()
    })
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame() || this.#navigation === undefined) return
      // The navigation's document is up: what the page does from now on is the new document's. (A same-document navigation makes no request: the document stays.)
      this.#started(this.#navigation.byIndex)
      this.#navigation = undefined
      this.#committed = true
      onDocument()
    })
    // A document that came with no request of its own is known once it is parsed: what it logged meanwhile is said with the last one's.
    page.on('domcontentloaded', () => {
      const unseen = !this.#committed
      this.#committed = false
      if (!unseen) return
      this.#started(new Map())
      onDocument()
    })
  }

  #started(byIndex: Map<number, Request>): void {
    this.#document += 1
    this.#byIndex = byIndex
    this.#nextIndex = byIndex.size + 1
  }

  /** Which document of the page is up: it changes when a navigation of the top frame commits, not with a same-document one (a route of a single-page app, a fragment). */
  get document(): number {
    return this.#document
  }

  /**
   * A file the page's tab downloaded: said on the navigation request that brought it, or, where
   * the browser fetched it itself (a link with `download`), as a request of its own.
   */
  downloaded(url: string, file: string): void {
    const said = shownAddress(url).slice(0, URL_CHARS)
    const mine = (kept: Kept<JournalRequest>): boolean => (kept.document === this.#document + 1 || this.#calledOff.has(kept.entry)) && kept.entry.url === said && kept.entry.download === undefined
    const asked = this.#requests.findLast(mine)
    if (asked !== undefined) {
      asked.entry.download = file
      delete asked.entry.failure
      return
    }
    const entry: JournalRequest = { index: this.#nextIndex++, method: 'GET', url: said, type: 'download', download: file }
    this.#indexed(entry.index, undefined)
    keep(this.#requests, entry, this.#document)
  }

  /** The navigation under way commits no document: its requests are the page's, numbered after them. */
  #stay(): void {
    if (this.#navigation === undefined) return
    for (const kept of this.#requests) {
      if (kept.document !== this.#document + 1) continue
      const request = this.#navigation.byIndex.get(kept.entry.index)
      this.#calledOff.add(kept.entry)
      kept.document = this.#document
      kept.entry.index = this.#nextIndex++
      this.#indexed(kept.entry.index, request)
    }
    this.#navigation = undefined
  }

  #indexed(index: number, request: Request | undefined): void {
    this.#byIndex.set(index, request)
    if (this.#byIndex.size > KEPT) this.#byIndex.delete(index - KEPT)
  }

  async #answered(request: Request): Promise<void> {
    const entry = this.#byRequest.get(request)
    const response = await request.response().catch(() => null)
    if (entry === undefined || response === null) return
    entry.status = response.status()
    entry.statusText = response.statusText()
  }

  /** Request `index` of this document with what the list says of it, while it is kept (with no request where the browser fetched a download itself); and how many this document made. */
  request(index: number): { request: Request | undefined; entry: JournalRequest } | { count: number } {
    const request = this.#byIndex.get(index)
    const entry = request === undefined ? this.#requests.find((kept) => kept.document === this.#document && kept.entry.index === index && kept.entry.type === 'download')?.entry : this.#byRequest.get(request)
    return entry === undefined ? { count: this.#nextIndex - 1 } : { request, entry: { ...entry } }
  }

  /** The messages at `level` or more severe, of this document or (`all`) of every one kept. */
  messages(level: ConsoleLevel, all: boolean): JournalMessage[] {
    const most = CONSOLE_LEVELS.indexOf(level)
    return this.#messages.filter((kept) => (all || kept.document === this.#document) && CONSOLE_LEVELS.indexOf(kept.entry.level) <= most).map((kept) => kept.entry)
  }

  /**
   * The requests of this document: without `withStatic`, not the page's own parts that came
   * (images, fonts, styles, scripts) — one that failed is listed all the same; with `matching`,
   * only those whose URL it matches.
   */
  requests(withStatic: boolean, matching: AgentPattern | undefined): JournalRequest[] {
    return this.#requests
      .filter((kept) => kept.document === this.#document)
      .map((kept) => kept.entry)
      .filter((entry) => withStatic || !STATIC_TYPES.has(entry.type) || entry.failure !== undefined || (entry.status ?? 0) >= 400)
      .filter((entry) => matching === undefined || matching.test(entry.url))
      .map((entry) => ({ ...entry }))
  }
}
