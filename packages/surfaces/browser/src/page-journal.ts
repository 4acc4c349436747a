import type { ConsoleMessage, Page, Request } from 'playwright-core'
import type { AgentPattern } from '@tessera/kit'
import { cutWhole } from '@tessera/protocol'
import { shownAddress } from './web-address.js'

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

/**
 * What a page said to its console (and the errors it did not catch) and the requests it made,
 * kept as they happen — the tools that read them cost the page nothing. Each belongs to the
 * document it came in: a navigation of the page's top frame starts the next, so "since the
 * page loaded" is what an agent asks for by default.
 */
export class PageJournal {
  #document = 0
  #nextIndex = 1
  readonly #messages: Array<Kept<JournalMessage>> = []
  readonly #requests: Array<Kept<JournalRequest>> = []
  readonly #byRequest = new WeakMap<Request, JournalRequest>()
  /** The requests of the current document by their index, for one's headers and bodies (request-detail.ts). */
  #byIndex = new Map<number, Request>()

  constructor(page: Page) {
    page.on('console', (message) => {
      if (browsersOwn(message)) return
      const where = whereOf(message)
      keep(this.#messages, { level: levelOf(message.type()), text: cutWhole(message.text(), MESSAGE_CHARS), ...(where === undefined ? {} : { where }) }, this.#document)
    })
    page.on('pageerror', (error) => keep(this.#messages, { level: 'error', text: cutWhole(`uncaught ${error.name}: ${error.message}`, MESSAGE_CHARS) }, this.#document))
    page.on('request', (request) => {
      // A new document of the top frame: what came before it belongs to the last one. A redirect is the same navigation going on (a form's POST, then the page it sends to).
      if (request.isNavigationRequest() && frameOf(request) === page.mainFrame() && request.redirectedFrom() === null) {
        this.#document += 1
        this.#nextIndex = 1
        this.#byIndex = new Map()
      }
      // As the tile says any address: without a user and password. A filter runs on it too, so it cannot guess a password a character at a time.
      const entry: JournalRequest = { index: this.#nextIndex++, method: request.method(), url: shownAddress(request.url()).slice(0, URL_CHARS), type: request.resourceType() }
      this.#byRequest.set(request, entry)
      this.#byIndex.set(entry.index, request)
      if (this.#byIndex.size > KEPT) this.#byIndex.delete(entry.index - KEPT)
      keep(this.#requests, entry, this.#document)
    })
    page.on('requestfinished', (request) => void this.#answered(request))
    page.on('requestfailed', (request) => {
      const entry = this.#byRequest.get(request)
      if (entry !== undefined) entry.failure = request.failure()?.errorText ?? 'failed'
    })
  }

  async #answered(request: Request): Promise<void> {
    const entry = this.#byRequest.get(request)
    const response = await request.response().catch(() => null)
    if (entry === undefined || response === null) return
    entry.status = response.status()
    entry.statusText = response.statusText()
  }

  /** Request `index` of this document with what the list says of it, while it is kept; and how many this document made. */
  request(index: number): { request: Request; entry: JournalRequest } | { count: number } {
    const request = this.#byIndex.get(index)
    const entry = request === undefined ? undefined : this.#byRequest.get(request)
    return request === undefined || entry === undefined ? { count: this.#nextIndex - 1 } : { request, entry: { ...entry } }
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
