import { mkdirSync, statSync } from 'node:fs'
import { STATUS_CODES } from 'node:http'
import { basename, isAbsolute, join, relative, resolve } from 'node:path'
import {
  type ActionCall,
  type CaptureOptions,
  type Shot,
  type Frame,
  type HeldAsk,
  type JsonObject,
  type JsonValue,
  type PerformContext,
  type Risk,
  type RiskAssessment,
  type Surface,
  type TargetSpec,
  type UiNode,
  type UnreadRequest,
  RefTable,
  TesseraError,
  cutWhole,
  ledgerIdOf,
  type FrameParts,
  sealFrame,
  maxRisk,
  riskAtLeast,
} from '@tessera/protocol'
import type { BrowserContext, Dialog, Download, FileChooser, Page, Frame as PlaywrightFrame, Request } from 'playwright-core'
import { NodeLedger, aDialog, agentPattern, consequentialWord } from '@tessera/kit'
import { ARIA_ROLES, type WaitRequest, elementByRole } from './page-waits.js'
import { BROWSER_ACTIONS, ELEMENT_ACTIONS } from './browser-actions.js'
import type { BrowserHost } from './browser-host.js'
import { CHOSEN_LABELS, FOCUS_FOR_TEXT, HAS_DATALIST, INPUT_TIMERS_RUN, IS_CHECKED, SCROLL_INTO_VIEW, SELECT_OPTIONS, SET_INPUT_FORMATS, boxOf, callOn, centerOf, refuseIfCovered } from './element-ops.js'
import { type TextFocus, foundAt } from './long-texts.js'
import { type CapturedDocument, type PageCapture, PageSessions, type WantedParts, capturePage } from './page-capture.js'
import { PartsToRead } from './parts-to-read.js'
import { type ElementPlace, buildPageTree } from './page-tree.js'
import { type SiteRule, originAllowed, siteRiskOf } from './site-rules.js'
import { CHANGE_WATCH_SCRIPT, INPUT_TIMER_MAX_MS } from './change-watch.js'
import { readChangeMark } from './change-mark.js'
import { CaptureNotices } from './capture-notices.js'
import { fieldsHoldingForm, focusedPlace } from './form-held.js'
import { wheelAt } from './wheel.js'
import { type ClassesAround, classNewsBetween, readClassesAround } from './class-change.js'
import { keyChord } from './key-names.js'
import { type ClassChange, type MediaInput, SHOT_MAX_HEIGHT } from './browser-schemas.js'
import { backendNodeOf } from './selector-target.js'
import { chooseFromList, unmatchedOptions } from './list-choice.js'
import { classesSinceInput } from './classes-since-input.js'
import { type AppTarget, type AttachedApp, attachApp, endApp } from './app-attach.js'
import { type PageTool, callPageTool, discoverPageTools, pageToolContract } from './webmcp-bridge.js'
import { type ConsoleLevel, type JournalMessage, type JournalRequest, PageJournal } from './page-journal.js'
import { freeFileName } from './free-file-name.js'
import { commitsNoDocument } from './no-document.js'
import { RESULT_CHARS, runElementScript, runPageScript } from './page-script.js'
import { PageStuck, QUICK_ANSWER_MS, answeredWithin, answersWithin, askingSession, stuckPage, whileAnswering } from './page-answers.js'
import { MAX_POPUPS, PopupBudget } from './popup-budget.js'
import { ContextDialogs, type DialogElsewhere } from './context-dialogs.js'
import { CRASHED, STUCK, brokenFrame, pagelessFrame } from './broken-frames.js'
import { DROP_ON_ELEMENT, droppedFiles } from './page-drop.js'
import { type DetailPart, type RequestDetail, detailOf, requestNotFound } from './request-detail.js'
import { shownAddress } from './web-address.js'

export interface BrowserTileOptions {
  id: string
  title?: string
  host: BrowserHost
  /** Opened first; its origin is the tile's own (navigation there is a read). */
  url?: string
  /** More origins the tile may move within without a person (`http://127.0.0.1:*`, `https://*.example.org`). */
  origins?: readonly string[]
  sites?: readonly SiteRule[]
  viewport?: { width: number; height: number }
  /** A named persistent profile folder (cookies kept between runs); without it the tile's context is fresh and private. */
  profileDir?: string
  /** Where downloads are kept and the only folder uploads are taken from. */
  filesDir: string
  /** Makes a tile of its own from a tab a page opened; without it such tabs stay tabs of this tile. */
  openBeside?: (make: (id: string) => Promise<BrowserTile>) => Promise<string>
  /** An Electron (or other Chromium) app to drive instead of a page of the hub's Chromium. */
  app?: AppTarget
  /** A page another tile's context opened: this tile shows it and closes only it. */
  adopted?: { context: BrowserContext; page: Page }
  /** The tile whose page opened this one's, said in its title. */
  openedBy?: string
}

/** A tile's title from its page's address: `Browser · example.org`, or `Browser` where there is no site (a blank page, a `data:` URL). */
function siteTitle(url: string | undefined): string {
  try {
    const { protocol, host } = new URL(url ?? '')
    return (protocol === 'http:' || protocol === 'https:') && host !== '' ? `Browser · ${host}` : 'Browser'
  } catch {
    return 'Browser'
  }
}

/** What every page action answers: where the page is, and anything it did besides. */
export interface PageAnswer {
  url: string
  note?: string
  /** The kind of dialog the action made the page open (PageOutput.dialogOpened). */
  dialogOpened?: string
  /** The fields that held back the form the action tried to send: each a node of the frame and the browser's words. */
  held?: Array<{ node: string; message: string }>
  /** The tab shows another document than before the action. */
  newDocument?: true
}

/**
 * How long an action waits for the page to go quiet before answering. 60 ms answered sooner,
 * but under load a wheel's scroll event, or what a reply's own timers draw, came later than
 * that: the answer then showed the page as it was.
 */
const QUIET_MS = 120
/** The most pointer moves a drag makes on its way: 600 px at one per 10 px. */
const DRAG_MOST_STEPS = 60
const SETTLE_MAX_MS = 3000
const NAVIGATION_TIMEOUT_MS = 30_000
/** How long an action waits for a document's subresources before it looks at the page anyway. */
const LOAD_WAIT_MS = 5000
/** A request older than this (a long poll) no longer holds up settling. */
const REQUEST_PATIENCE_MS = 2000
/** Streams that never finish. */
const LONG_LIVED = new Set(['eventsource', 'websocket', 'media'])
/** How long an action waits for a window its page announced to appear. */
const POPUP_WAIT_MS = 5000

/** A download the page started, kept in the tile's folder and listed in its frame. */
interface KeptDownload {
  file: string
  url: string
  state: 'saving' | 'saved' | 'failed'
  /** The document of its tab it came from (PageJournal.document): it is listed while that one is up. */
  document: number
}

/**
 * One browser tile: a context of its own in the hub's Chromium, its pages (tabs), and the
 * frame of the current one built from the DevTools protocol. Dialogs, downloads and file
 * choosers are held and shown in the frame until the agent (through the gateway) answers them.
 */
export class BrowserTile implements Surface {
  readonly id: string
  readonly kind = 'browser' as const
  readonly #options: BrowserTileOptions
  #context: BrowserContext | null = null
  readonly #pages: Page[] = []
  #current = 0
  readonly #sessions = new WeakMap<Page, PageSessions>()
  readonly #ledger = new NodeLedger()
  #places = new Map<string, ElementPlace>()
  /** The documents of the last capture, by key: where an element without actions lives (see #anyElement). */
  #documents = new Map<string, CapturedDocument>()
  readonly #partsToRead = new PartsToRead()
  /** Notices of change heard while the page is captured, held until the capture says whether it read them. */
  readonly #captureNotices = new CaptureNotices()
  /** What a find looks for in a long text, for the next capture only: it keeps the lines of the first match instead of those in view. */
  #textFocus: TextFocus | undefined
  /** Blocks of text the last frame holds a window of, read from the tree (see buildPageTree). */
  #cutTexts: readonly string[] = []
  /** The key of the top document of the last capture. */
  #topDocument: string | undefined
  /** Elements an agent named by a selector to click, hover or drag, by document: targets while their document lives. */
  readonly #named = new Map<string, Set<number>>()
  /** The WebMCP tools of the last capture, by action id. */
  #pageTools = new Map<string, PageTool>()
  #dialog: Dialog | null = null
  /** The page that last stopped answering, while it has not answered since. */
  #stuck: Page | null = null
  /** Pages whose renderer ended. */
  readonly #crashed = new WeakSet<Page>()
  /** What became of the tile's last page, when it went by itself (`window.close()` in a window a page opened), and where it was. */
  #gone: { said: string; url: string } | undefined
  readonly #popups = new PopupBudget()
  readonly #dialogWaiters = new Set<() => void>()
  #chooser: FileChooser | null = null
  /** The document of its tab the file chooser came with (PageJournal.document). */
  #chooserDocument = 0
  /** Files being saved now: a second download of the same name is never written over one still coming. */
  readonly #saving = new Set<string>()
  /** Per tab, until when its current document's load is waited for (see #settle); a new document waits anew. */
  readonly #loadBy = new WeakMap<Page, number>()
  /** The downloads of each tab's current document: they go with it, as its file chooser does, and stay through its same-document navigations. */
  readonly #downloads: Array<KeptDownload & { on: Page }> = []
  #note: string | undefined
  #openingNote: string | undefined
  /** Tiles being made of pages the site opened: an action answers once they are on the map. */
  readonly #opening = new Set<Promise<void>>()
  /** Resolvers of the waits for windows the page announced (Page.windowOpen), oldest first. */
  readonly #popupArrivals: Array<() => void> = []
  readonly #listeners = new Set<(frame?: Frame) => void>()
  readonly #viewers = new Set<(jpeg: Uint8Array) => void>()
  #attached: AttachedApp | undefined
  readonly #requests = new WeakMap<Page, Map<Request, number>>()
  /** The requests of a navigation of a page's top frame that has begun and not yet committed (a form's POST, then its redirect), with when each began. */
  readonly #navigating = new WeakMap<Page, Map<Request, number>>()
  /** Each page's console and requests, kept as they happen. */
  readonly #journals = new WeakMap<Page, PageJournal>()
  /** The tiles made of windows the page opened since the last answer. */
  #tilesOpened: string[] = []
  /** The note that names them, while it is the one the next answer gives. */
  #tilesNote: string | undefined
  /** Tells the tile whose page opened this one's that it closed (see #opened). */
  #onClosed: (() => void) | undefined
  /** What each page's last capture made of it: what a dialog opened over it covers. */
  readonly #lastFrames = new WeakMap<Page, FrameParts>()
  #stopScreencast: (() => Promise<void>) | undefined
  #stopHearingDialogs: () => void = () => undefined
  /** The dialog in another tile each page was found waiting on. */
  readonly #heldBy = new WeakMap<Page, Dialog>()
  #homeOrigins: string[]
  /**
   * Per tab, the site besides the tile's own that its current visit was allowed: where a
   * person approved going (or acting), or the policy let such an action run. It holds while
   * the tab stays on that site; going elsewhere and back asks again, as a link there would. A
   * page that goes to another site by itself (a script sets `location`, a server redirects)
   * is on none: every action there is external until one is approved.
   */
  readonly #allowedHere = new WeakMap<Page, string>()
  /** While an action runs that may take the tile to another site (see #allowRunning). */
  #mayLeave = false

  constructor(options: BrowserTileOptions) {
    this.id = options.id
    this.#options = options
    this.#homeOrigins = [...(options.origins ?? [])]
    if (options.url !== undefined) {
      const origin = safeOrigin(options.url)
      if (origin !== null) this.#homeOrigins.push(origin)
    }
  }

  async open(): Promise<this> {
    if (this.#options.adopted !== undefined) {
      this.#context = this.#options.adopted.context
      this.#hearDialogs(this.#context)
      this.#adopt(this.#options.adopted.page, false)
      // Ready once loaded, or once it shows a dialog as it loads: that holds the load until answered, and the page that opened it waits to say so.
      const dialogShown = this.#nextDialog()
      await Promise.race([this.#options.adopted.page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => undefined), dialogShown.promise])
      dialogShown.stop()
      return this
    }
    if (this.#options.app !== undefined) {
      const attached = await attachApp(this.#options.app)
      this.#attached = attached
      const context = attached.browser.contexts()[0]
      if (context === undefined) throw new TesseraError('not_found', 'the app has no browser context to drive', { found: null })
      this.#context = context
      this.#hearDialogs(context)
      await context.addInitScript(CHANGE_WATCH_SCRIPT)
      await context.exposeBinding('__tesseraChanged', (source: { frame: PlaywrightFrame }, document: unknown, changes: unknown) => this.#heard(source.frame, [document, changes]))
      const first = context.pages()[0] ?? (await context.waitForEvent('page', { timeout: NAVIGATION_TIMEOUT_MS }))
      // The app's own site is where its first window is, as a tile's is where it was opened.
      const home = safeOrigin(first.url())
      if (home !== null) this.#homeOrigins.push(home)
      // The app's documents were already there: an init script reaches only the next ones, so
      // they are told to watch for changes now, or a frame read while the app still loads would never go stale.
      for (const page of context.pages()) for (const frame of page.frames()) await frame.evaluate(CHANGE_WATCH_SCRIPT).catch(() => undefined)
      this.#adopt(first, false)
      context.on('page', (page) => this.#adopt(page, true))
      // Ready when its page is, as after a navigation.
      await this.#settle(first)
      return this
    }
    const contextOptions = { viewport: this.#options.viewport ?? { width: 1280, height: 800 }, acceptDownloads: true }
    let context: BrowserContext
    let first: Page
    if (this.#options.profileDir === undefined) ({ context, page: first } = await this.#options.host.readyContext(contextOptions, watchChanges))
    else {
      context = await this.#options.host.persistentContext(this.#options.profileDir, contextOptions)
      await watchChanges(context)
      first = context.pages()[0] ?? (await context.newPage())
    }
    CHANGES_HEARD.set(context, (frame, mark) => this.#heard(frame, mark))
    this.#context = context
    this.#hearDialogs(context)
    this.#adopt(first, false)
    context.on('page', (page) => {
      const opening = this.#opened(page)
      this.#opening.add(opening)
      void opening.finally(() => this.#opening.delete(opening))
    })
    if (this.#options.url !== undefined) await this.#goto(first, this.#options.url)
    if (this.#options.profileDir === undefined) this.#options.host.prepareNext(contextOptions, watchChanges)
    // What the opening navigation noted (a 404, a load that never ended) belongs to the answer that opened the tile: left, the next action's would say it of itself.
    this.#openingNote = this.#note
    this.#note = undefined
    return this
  }

  takeOpeningNote(): string | undefined {
    const note = this.#openingNote
    this.#openingNote = undefined
    return note
  }

  // ── Surface ────────────────────────────────────────────────────────────────────

  /** What the map calls the tile: its configured title, else the site of its page (from the address, never the page's own words). */
  get title(): string {
    const url = this.#pages[this.#current]?.url()
    const base = this.#options.title ?? siteTitle(url)
    return this.#options.openedBy === undefined ? base : `${base} (opened by ${this.#options.openedBy})`
  }

  async snapshot(): Promise<Frame> {
    if (this.#context !== null && this.#pages.length === 0) {
      const { url, note } = this.#pageless()
      return pagelessFrame(this.id, url, note ?? '')
    }
    const page = this.#page()
    const dialog = this.#dialog
    const state = this.#state(page)
    if (dialog !== null) {
      // A page with a dialog open runs no script, so it cannot be read: it stands as its last
      // frame showed it, the dialog over it (an action on it is refused until the dialog is
      // answered). So the answer that opened the dialog says only that, and the one that
      // answers it says only what changed since.
      const shown: UiNode = { id: 'dialog', kind: 'box', role: 'alertdialog', name: `${dialog.type()}: ${cutWhole(dialog.message(), 2000)}` }
      const last = this.#lastFrames.get(page)
      const under = last?.route === this.#address(page) ? last : undefined
      const tree: UiNode = under === undefined ? { id: 'page', kind: 'box', role: 'document', children: [shown] } : { ...under.tree, children: [shown, ...(under.tree.children ?? [])] }
      // Over no frame of the page (a dialog it opened as it loaded), the page's own actions stand still: a navigation then says a dialog is open, not that there is no such action.
      const pageActions = BROWSER_ACTIONS.contracts.filter((contract) => !ELEMENT_ACTIONS.has(contract.id) && contract.id !== 'handle_dialog')
      return sealFrame({ ...under, surface: this.id, route: this.#address(page), tree, state, contracts: [...(under?.contracts ?? pageActions), BROWSER_ACTIONS.contract('handle_dialog')] })
    }
    if (this.#crashed.has(page)) return brokenFrame(this.id, this.#address(page), state, `${CRASHED}; browser_navigate opens a new tab in its place`)
    // A page known to have stopped answering is asked again, briefly, before a capture waits on it.
    if (await this.#stillStuck(page)) return brokenFrame(this.id, this.#address(page), state, STUCK)
    const waitedOn = await this.#waitingOn(page)
    if (waitedOn !== undefined) return brokenFrame(this.id, this.#address(page), state, `the page waits on ${aDialog(waitedOn.dialog.type())} in ${waitedOn.tile}, a window of its site that shares its thread; answer it with handle_dialog {tile: "${waitedOn.tile}"}`)
    this.#stuck = null
    const plan = this.#partsToRead.plan()
    const focus = this.#textFocus
    this.#textFocus = undefined
    const wanted: WantedParts = focus === undefined ? plan.of : (documentKey) => ({ ...plan.of(documentKey), focus })
    let capture: PageCapture
    let tools: PageTool[]
    try {
      const capturing = (): Promise<[PageCapture, PageTool[]]> => whileAnswering(Promise.all([capturePage(page, this.#sessionsOf(page), wanted), discoverPageTools(page)]), this.#asking(page), () => this.#address(page))
      ;[capture, tools] = await this.#captureNotices.around(page, capturing, ([captured]) => captured.mark, () => this.#changed())
    } catch (error) {
      this.#sessionsOf(page).forget()
      if (this.#crashed.has(page)) return brokenFrame(this.id, this.#address(page), state, `${CRASHED}; browser_navigate opens a new tab in its place`)
      if (!(error instanceof PageStuck)) throw error
      this.#stuck = page
      return brokenFrame(this.id, this.#address(page), state, STUCK)
    }
    this.#pageTools = new Map(tools.map((tool) => [tool.id, tool]))
    if (tools.length > 0) state.pageTools = tools.map((tool) => ({ id: tool.id, description: tool.description, input: Object.keys((tool.inputSchema.properties ?? {}) as JsonObject), ...(tool.consequential ? { consequential: true } : {}) }))
    const built = buildPageTree(capture, this.#ledger, this.#named, focus)
    this.#ledger.keepScopes(built.liveDocuments)
    for (const key of this.#named.keys()) if (!built.liveDocuments.has(key)) this.#named.delete(key)
    this.#places = built.places
    this.#cutTexts = built.cutTexts
    this.#partsToRead.update(plan, built.unread, built.liveDocuments)
    this.#topDocument = capture.documents[0]?.key
    this.#documents = new Map(capture.documents.map((doc) => [doc.key, doc]))
    const used = new Set(built.targets.map((target) => target.contract))
    const contracts = BROWSER_ACTIONS.contracts.filter((contract) => (ELEMENT_ACTIONS.has(contract.id) ? used.has(contract.id) || (contract.id === 'upload' && this.#chooser !== null) : contract.id !== 'handle_dialog'))
    const targets: TargetSpec[] = [...built.targets]
    if (this.#chooser !== null && used.has('upload')) targets.push({ contract: 'upload' })
    // The texts this find looked through whole and holds a window of at its match (see outlinePage's find), said with the find they answer.
    const asked = (focus?.words ?? focus?.pattern?.given)?.trim()
    if (built.found.length > 0 && asked !== undefined) state.found = { find: asked, texts: built.found }
    const parts: FrameParts = { surface: this.id, route: shownAddress(capture.url), tree: built.tree, layout: built.layout, state, contracts: [...contracts, ...tools.map(pageToolContract)], targets, capabilities: { screenshot: true } as JsonObject }
    this.#lastFrames.set(page, parts)
    return sealFrame(parts)
  }

  /** Reads parts of a huge page the last frame left unread (see PartsToRead). */
  readUnread(request: UnreadRequest): boolean {
    let added = this.#partsToRead.read(request)
    // A long text keeps a window of its lines: one that says what a find looks for shows the lines of the match.
    const words = request.text?.trim()
    const focus: TextFocus | undefined = words !== undefined && words !== '' ? { words } : request.pattern === undefined ? undefined : { pattern: agentPattern(request.pattern, 'regex') }
    const long = this.#topDocument === undefined ? undefined : this.#documents.get(this.#topDocument)?.long
    if (focus !== undefined && (long?.says(focus) === true || this.#cutTexts.some((text) => foundAt(text, focus) !== undefined))) {
      this.#textFocus = focus
      added = true
    }
    // A ref the frame does not show may name an element alive in a part unread now (scrolled
    // out of view, read once by a find): read that part again. Refs are the ledger's ids.
    for (const ref of request.refs ?? []) {
      // An element's id (`12`), or a long text's (`t7`), which an agent expands to read it whole.
      const id = ledgerIdOf(ref)
      const place = id === undefined ? undefined : this.#ledger.locate(id)
      if (place === undefined || typeof place.key !== 'number') continue
      if (this.#partsToRead.readHolding(place.scope, place.key)) added = true
      // A long text read from a line of the agent's choice: the next capture keeps its window from there.
      if (request.line !== undefined) {
        this.#textFocus = { line: { at: request.line, of: place.key } }
        added = true
      }
    }
    return added
  }

  /** The refs whose elements live on, and the texts the page still says: in the frame, or in a part of a huge page left unread. */
  holds(ask: HeldAsk): HeldAsk {
    const refs = (ask.refs ?? []).filter((ref) => {
      const id = ledgerIdOf(ref)
      const place = id === undefined ? undefined : this.#ledger.locate(id)
      return id !== undefined && place !== undefined && typeof place.key === 'number' && (this.#places.has(id) || this.#partsToRead.holds(place.scope, place.key))
    })
    const texts = (ask.texts ?? []).filter((text) => this.#partsToRead.saysStartOf(text))
    return { refs, texts }
  }

  async perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    this.#mayLeave = this.#allowRunning(call)
    try {
      return await this.#performAllowed(call, ctx)
    } finally {
      if (this.#mayLeave && this.#pages.length > 0) this.#arrived(this.#page())
      this.#mayLeave = false
    }
  }

  async #performAllowed(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    if (call.contract.kind !== 'webmcp') return BROWSER_ACTIONS.perform(this, call, ctx)
    const tool = this.#pageTools.get(call.contract.id)
    if (tool === undefined) throw new TesseraError('not_found', `the page no longer offers "${call.contract.id}"; take a new snapshot`, { found: call.contract.id })
    // As any input: bounded by the action's time (a tool whose promise never settles is left to the page, and the tile answers on), then settled.
    let result: JsonValue = null
    await this.#acting(async () => {
      result = await callPageTool(tool, call.input)
    }, ctx.signal)
    return { result }
  }

  /**
   * What an action that runs (it passed the gateway: assessed, approved where it had to be)
   * makes a site of the tile: where it acts, and where it goes. Whether it may also take the
   * tile to a site it does not name: a navigation, or an element a person approves acting on
   * (a link to another site, a payment's button whose page then goes to the payment's).
   */
  #allowRunning(call: ActionCall): boolean {
    if (this.#pages.length === 0 || ON_NO_SITE.has(call.contract.id)) return false
    const page = this.#page()
    const origin = safeOrigin(page.url())
    if (origin !== null && !this.#onItsSites(origin, page)) this.#allowedHere.set(page, origin)
    const url = (call.input as JsonObject | undefined)?.url
    const spec = call.target.nodeId === undefined ? undefined : call.frame.targets.find((target) => target.nodeId === call.target.nodeId && target.contract === call.contract.id)
    return NAVIGATIONS.has(call.contract.id) || (call.contract.id === 'tabs' && typeof url === 'string') || (spec?.risk !== undefined && riskAtLeast(spec.risk, 'external'))
  }

  /** Whether a tab may be on a site without a person: one of the tile's own, the one its visit was allowed, or no site at all (a blank page). */
  #onItsSites(origin: string | null, page?: Page): boolean {
    return origin === null || originAllowed(origin, this.#homeOrigins) || (page !== undefined && this.#allowedHere.get(page) === origin)
  }

  /** Where an action allowed to leave (see #allowRunning) took a tab: its visit there is allowed. */
  #arrived(page: Page): void {
    const origin = safeOrigin(page.url())
    if (origin !== null && !this.#onItsSites(origin, page)) this.#allowedHere.set(page, origin)
  }

  /** Files to upload or drop from outside the tile's folder: refused before anyone is asked to approve sending them. */
  refuses(call: ActionCall): void {
    if (call.contract.id !== 'upload' && call.contract.id !== 'drop') return
    for (const path of ((call.input as JsonObject).paths ?? []) as string[]) this.#uploadable(path)
  }

  /** Raises what the element says: leaving the tile's origins is external; site rules raise anything on their sites. */
  async assess(call: ActionCall): Promise<RiskAssessment | null> {
    const own = await BROWSER_ACTIONS.assess(this, call)
    let risk: Risk | undefined = own?.risk
    let reason = own?.reason
    const raise = (next: Risk | undefined, why: string): void => {
      if (next === undefined) return
      const higher = risk === undefined ? next : maxRisk(risk, next)
      if (higher !== risk) {
        risk = higher
        reason = why
      }
    }
    // Where the tile is: its page's address, or where its last page was when it closed its window.
    const here = this.#pages.length === 0 ? (this.#gone?.url ?? 'about:blank') : this.#page().url()
    if (call.contract.id === 'navigate' || (call.contract.id === 'tabs' && typeof (call.input as JsonObject).url === 'string')) {
      const url = String((call.input as JsonObject).url)
      const target = safeOrigin(url, here)
      // A blank page loads nothing and sends nothing: no one need approve going there.
      if (url === 'about:blank') return own
      if (target === null) raise('external', `"${url}" is not a web address this tile knows`)
      else if (target !== safeOrigin(here) && !this.#onItsSites(target)) raise('external', `it leaves for ${target}`)
      raise(siteRiskOf(url, this.#options.sites), `a site rule covers ${url}`)
    }
    if (call.contract.id === 'back' || call.contract.id === 'forward') {
      // Back and forward are navigations too: where they lead decides, as a link's URL does.
      const page = this.#page()
      const url = await this.#historyStep(page, call.contract.id).catch(() => null)
      const target = url === null ? null : safeOrigin(url)
      if (url !== null && target !== safeOrigin(page.url()) && (target === null || !this.#onItsSites(target))) raise('external', `going ${call.contract.id} leaves for ${target ?? url}`)
      if (url !== null) raise(siteRiskOf(url, this.#options.sites), `a site rule covers ${url}`)
    }
    if (call.contract.id === 'drop' && ((call.input as JsonObject).paths as JsonValue[] | undefined)?.length) raise('external', 'dropping files of this machine onto the page sends them to the site')
    if (call.contract.id === 'press' && /(^|\+)Enter$/.test(String((call.input as JsonObject).key))) {
      const focused = focusedNode(call.frame.tree)
      const formRisk = focused === undefined ? undefined : this.#places.get(focused)?.formRisk
      raise(formRisk, 'Enter submits a form that posts to another origin')
    }
    if (call.contract.id === 'select' && call.target.nodeId !== undefined) {
      // An option is chosen for what it says: "Delete selected" in a select that sends its form as it changes deletes.
      const values = ((call.input as JsonObject).values ?? []) as string[]
      const place = this.#places.get(call.target.nodeId)
      const labels = place === undefined ? [] : await callOn<string[]>(place, CHOSEN_LABELS, values)
      // Said by the agent's value alone: the label is the page's words, which the reason (in the agent's answer) never quotes.
      values.forEach((value, i) => {
        const named = consequentialWord(value)
        const labelled = consequentialWord(labels[i])
        if (named !== null) raise('destructive', `the option ${JSON.stringify(value)} says "${named}"`)
        else if (labelled !== null) raise('destructive', `the label of the option ${JSON.stringify(value)} says "${labelled}"`)
      })
    }
    if (call.contract.id === 'fill' && (call.input as JsonObject).submit === true) {
      const formRisk = call.target.nodeId === undefined ? undefined : this.#places.get(call.target.nodeId)?.formRisk
      raise(formRisk, 'submitting the form posts to another origin')
    }
    // Waiting, switching tabs and reading what the page logged and fetched do nothing on the site.
    if (!ON_NO_SITE.has(call.contract.id)) raise(siteRiskOf(here, this.#options.sites), `a site rule covers ${safeOrigin(here) ?? here}`)
    // A site the page went to by itself: no one approved the tile being there.
    const site = safeOrigin(here)
    if (!ON_NO_SITE.has(call.contract.id) && this.#pages.length > 0 && !this.#onItsSites(site, this.#page())) raise('external', `the page is on ${site}, which it went to by itself; no one approved leaving for it`)
    return risk === undefined || reason === undefined ? null : { risk, reason }
  }

  timeoutFor(call: ActionCall): number | null {
    return BROWSER_ACTIONS.timeoutFor(call)
  }

  /**
   * The page's pixels: what is in view, the whole page, or one element scrolled into view — at
   * most SHOT_MAX_HEIGHT pixels tall from its top (`cut` says how tall it was): Bash's manual
   * whole is 174,216 px, a 19 MB PNG that took 19 s, which no model reads.
   */
  async capture(): Promise<Uint8Array> {
    return (await this.shoot({})).image
  }

  /** A shot, and the height it was cut from where it was taller than SHOT_MAX_HEIGHT. */
  async shoot(options: CaptureOptions): Promise<Shot> {
    const page = this.#page()
    const type = options.format ?? 'png'
    const quality = type === 'jpeg' ? { quality: 90 } : {}
    if (options.element !== undefined && options.fullPage === true) throw new TesseraError('invalid_input', 'expected an element or the full page, found both: an element is shot alone', { expected: 'element or fullPage', found: { element: options.element, fullPage: true } })
    if (options.element !== undefined) {
      const box = await boxOf(this.#anyElement(options.element))
      const clip = { ...box, height: Math.min(box.height, SHOT_MAX_HEIGHT) }
      return { image: await page.screenshot({ type, clip, ...quality }), ...(box.height > SHOT_MAX_HEIGHT ? { cut: Math.round(box.height) } : {}) }
    }
    if (options.fullPage !== true) return { image: await page.screenshot({ type, ...quality }) }
    const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }))
    if (size.height <= SHOT_MAX_HEIGHT) return { image: await page.screenshot({ type, fullPage: true, ...quality }) }
    const clip = { x: 0, y: 0, width: Math.max(1, size.width), height: SHOT_MAX_HEIGHT }
    return { image: await page.screenshot({ type, fullPage: true, clip, ...quality }), cut: size.height }
  }

  /**
   * Live JPEG frames of the current page (CDP's screencast, each frame acknowledged or it
   * stalls); the first at once, since a still page repaints nothing. Stops when the last
   * viewer leaves, so an unwatched tile costs no encoding.
   */
  screencast(onFrame: (jpeg: Uint8Array) => void): () => void {
    this.#viewers.add(onFrame)
    if (this.#viewers.size === 1) void this.#startScreencast()
    else void this.#page().screenshot({ type: 'jpeg', quality: 70 }).then(onFrame, () => undefined)
    return () => {
      this.#viewers.delete(onFrame)
      if (this.#viewers.size === 0) void this.#stopScreencast?.()
    }
  }

  async #startScreencast(): Promise<void> {
    const page = this.#page()
    const session = await this.#sessionsOf(page).main()
    const size = page.viewportSize() ?? { width: 1280, height: 800 }
    const onFrame = (event: { data: string; sessionId: number }): void => {
      void session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined)
      const jpeg = Buffer.from(event.data, 'base64')
      for (const viewer of this.#viewers) viewer(jpeg)
    }
    session.on('Page.screencastFrame', onFrame)
    this.#stopScreencast = async () => {
      this.#stopScreencast = undefined
      session.off('Page.screencastFrame', onFrame)
      await session.send('Page.stopScreencast').catch(() => undefined)
    }
    await session.send('Page.startScreencast', { format: 'jpeg', quality: 70, maxWidth: size.width, maxHeight: size.height }).catch(() => undefined)
    const first = await page.screenshot({ type: 'jpeg', quality: 70 }).catch(() => null)
    if (first !== null) for (const viewer of this.#viewers) viewer(first)
  }

  subscribe(onChange: (frame?: Frame) => void): () => void {
    this.#listeners.add(onChange)
    return () => this.#listeners.delete(onChange)
  }

  async close(): Promise<void> {
    const context = this.#context
    this.#context = null
    if (context === null) return
    this.#stopHearingDialogs()
    this.#onClosed?.()
    if (this.#options.adopted !== undefined) {
      await this.#options.adopted.page.close().catch(() => undefined)
      return
    }
    if (this.#attached !== undefined) {
      // Disconnects; an app this tile started ends with it, one it attached to runs on.
      await this.#attached.browser.close().catch(() => undefined)
      if (this.#attached.child !== undefined) await endApp(this.#attached.child)
      return
    }
    await context.close().catch(() => undefined)
    if (this.#options.profileDir === undefined) await this.#options.host.release()
  }

  /** The current page, for the screencast and for tests. */
  get page(): Page {
    return this.#page()
  }

  // ── actions ────────────────────────────────────────────────────────────────────

  async click(nodeId: string, input: { double?: boolean | undefined; button?: 'left' | 'right' | 'middle' | undefined; modifiers?: string[] | undefined }): Promise<PageAnswer & { classes?: ClassChange; pageClasses?: ClassChange }> {
    const place = this.#place(nodeId)
    // Read again once the page settled. Never while a dialog is open: the page runs no script until
    // it is answered (and the read is bounded, should one open between the check and the read).
    const classesOf = async (): Promise<ClassesAround | undefined> => (this.#runsScript() ? readClassesAround(place) : undefined)
    const classesBefore = await classesOf()
    const answer = await this.#acting(async (page) => {
      const point = await centerOf(page, place)
      await refuseIfCovered(place, point)
      for (const key of input.modifiers ?? []) await page.keyboard.down(key)
      try {
        await page.mouse.click(point.x, point.y, { button: input.button ?? 'left', clickCount: input.double === true ? 2 : 1 })
      } finally {
        for (const key of input.modifiers ?? []) await page.keyboard.up(key)
      }
    })
    return { ...answer, ...(await this.#heldBack(place, false)), ...classNewsBetween(classesBefore, await classesOf()) }
  }

  /** A click at a point of the view, as a screenshot shows it: for what the frame has no element for (a canvas, a map). */
  async clickAt(input: { x: number; y: number; double?: boolean | undefined; button?: 'left' | 'right' | 'middle' | undefined }): Promise<PageAnswer> {
    const view = this.#page().viewportSize() ?? { width: 1280, height: 720 }
    if (input.x >= view.width || input.y >= view.height) throw new TesseraError('invalid_input', `expected a point of the view (x below ${view.width}, y below ${view.height}), found ${input.x}, ${input.y}`, { expected: view, found: { x: input.x, y: input.y } })
    return this.#acting((page) => page.mouse.click(input.x, input.y, { button: input.button ?? 'left', clickCount: input.double === true ? 2 : 1 }))
  }

  async fill(nodeId: string, input: { text: string; submit?: boolean | undefined; slowly?: boolean | undefined }, signal?: AbortSignal): Promise<PageAnswer> {
    const place = this.#place(nodeId)
    const answer = await this.#acting((page) => this.#typeInto(page, place, input, signal), signal)
    return input.submit === true ? { ...answer, ...(await this.#heldBack(place, true)) } : answer
  }

  /** The fields that held back the form a click on a submit button, or an Enter in a field, tried to send (form-held.ts). */
  async #heldBack(place: ElementPlace, entered: boolean): Promise<Pick<PageAnswer, 'held'>> {
    if (!this.#runsScript() || (place.tag !== 'button' && place.tag !== 'input' && !entered)) return {}
    const held = await fieldsHoldingForm(place, entered)
    return held.length === 0 ? {} : { held: held.map((field) => ({ node: this.#ledger.idOf(place.document.key, field.backendNodeId), message: field.message })) }
  }

  /** Replaces the text of an editable element as a person types it (or sets a value a picker sets whole), Enter after it on `submit`. */
  async #typeInto(page: Page, place: ElementPlace, input: { text: string; submit?: boolean | undefined; slowly?: boolean | undefined }, signal?: AbortSignal): Promise<void> {
    const how = await callOn<string>(place, FOCUS_FOR_TEXT, input.text)
    if (how === 'not-editable') throw new TesseraError('invalid_request', `the ${place.role} does not take text`, { expected: 'a text field', found: place.role })
    if (how.startsWith('malformed:')) {
      const type = how.slice('malformed:'.length)
      const expected = SET_INPUT_FORMATS[type] ?? `a ${type}`
      throw new TesseraError('invalid_input', `the ${type} field took no value from ${JSON.stringify(input.text)}: expected ${expected}`, { expected, found: input.text })
    }
    // A value set whole, as a picker sets it, leaves nothing to type.
    if (how === 'selected' && input.text.length === 0) await page.keyboard.press('Delete')
    else if (how === 'selected' && input.slowly === true) {
      // A key at a time, as a person types, and no further once the action's time is up: the tile is free for the next one.
      for (const key of input.text) {
        signal?.throwIfAborted()
        await page.keyboard.type(key, { delay: 20 })
      }
    }
    else if (how === 'selected') await typeQuickly(page, input.text)
    if (input.submit === true) {
      // A document the text took away (a field that navigates as one types) has no timers left to wait for.
      await callOn(place, INPUT_TIMERS_RUN, INPUT_TIMER_MAX_MS).catch(() => undefined)
      await page.keyboard.press('Enter')
    }
  }

  async select(nodeId: string, values: string[]): Promise<PageAnswer & { selected: string[] }> {
    let selected: string[] = []
    const out = await this.#acting(async (page) => {
      const place = this.#place(nodeId)
      // A field whose suggestions the browser draws (a datalist) takes any text: its value is typed.
      if (await callOn<boolean>(place, HAS_DATALIST)) {
        if (values.length !== 1) throw new TesseraError('invalid_input', `the ${place.role} takes one value, found ${values.length}`, { expected: 1, found: values.length })
        await this.#typeInto(page, place, { text: values[0] as string })
        selected = [values[0] as string]
        return
      }
      if (place.tag !== 'select') {
        selected = await chooseFromList(place, values, { page, settle: () => this.#settle(page), type: (field, text) => this.#typeInto(page, field, { text }) })
        return
      }
      const answer = await callOn<{ error?: string; options?: string[]; selected?: string[] }>(place, SELECT_OPTIONS, values)
      if (answer.error !== undefined) {
        const offered = answer.options === undefined ? undefined : unmatchedOptions(answer.options)
        throw new TesseraError('invalid_input', `cannot choose ${JSON.stringify(values)}: ${answer.error}${offered === undefined ? '' : `; ${offered.said}`}`, { found: values, ...offered?.details })
      }
      selected = answer.selected ?? []
    })
    return { ...out, selected }
  }

  async check(nodeId: string, checked: boolean): Promise<PageAnswer> {
    return this.#acting(async (page) => {
      const place = this.#place(nodeId)
      if ((await callOn<boolean>(place, IS_CHECKED)) === checked) return
      const point = await centerOf(page, place)
      await page.mouse.click(point.x, point.y)
      await this.#settle(page)
      if ((await callOn<boolean>(place, IS_CHECKED)) !== checked) throw new TesseraError('conflict', `the ${place.role} did not become ${checked ? 'checked' : 'unchecked'} when clicked`, { expected: checked, found: !checked })
    })
  }

  async hover(nodeId: string): Promise<PageAnswer> {
    return this.#acting(async (page) => {
      const point = await centerOf(page, this.#place(nodeId))
      await page.mouse.move(point.x, point.y)
    })
  }

  async drag(nodeId: string, to: string, frame: Frame): Promise<PageAnswer> {
    const toNode = RefTable.forFrame(frame).resolve(to) ?? to
    return this.#acting(async (page) => {
      const from = await centerOf(page, this.#place(nodeId))
      // Where it ends need not take an action itself: a drop zone, a text.
      const box = await boxOf(this.#anyElement(toNode))
      const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
      // Past its middle by a quarter of its size, on the way there, still over it: a sortable list (jQuery UI's) gives an item
      // another's place only once the pointer crosses that one's middle; dropped on the middle, Item 1 onto Item 5 stayed first.
      const dest = { x: middle.x + (Math.sign(middle.x - from.x) * box.width) / 4, y: middle.y + (Math.sign(middle.y - from.y) * box.height) / 4 }
      // About a move every 10 px, as a hand makes: such a list moves its placeholder by one item a move.
      const steps = Math.min(DRAG_MOST_STEPS, Math.max(8, Math.ceil(Math.hypot(dest.x - from.x, dest.y - from.y) / 10)))
      await page.mouse.move(from.x, from.y)
      await page.mouse.down()
      await page.mouse.move(dest.x, dest.y, { steps })
      await page.mouse.up()
    })
  }

  async upload(nodeId: string | undefined, paths: string[]): Promise<PageAnswer> {
    const files = paths.map((path) => this.#uploadable(path))
    return this.#acting(async () => {
      if (nodeId === undefined) {
        const chooser = this.#chooser
        if (chooser === null) throw new TesseraError('not_found', 'no file chooser is open; click the file field first or name it by its @ref', { expected: 'an open file chooser', found: null })
        this.#chooser = null
        await chooser.setFiles(files)
        return
      }
      const place = this.#place(nodeId)
      await place.document.session.send('DOM.setFileInputFiles', { files, backendNodeId: place.backendNodeId })
      // Files given to the field answer the chooser it opened: no chooser stays open once the agent has chosen.
      this.#chooser = null
    })
  }

  /** Drops files of the tile's folder and typed data onto any element, as a drag from outside the page would. */
  async drop(element: string, paths: readonly string[], data: Readonly<Record<string, string>>): Promise<PageAnswer> {
    const place = this.#anyElement(element)
    const files = droppedFiles(paths.map((path) => this.#uploadable(path)))
    return this.#acting(async () => {
      await callOn(place, DROP_ON_ELEMENT, files, data)
    })
  }

  async press(key: string): Promise<PageAnswer> {
    const chord = keyChord(key)
    // An Enter in a field sends its form: what held it back is said as for a click on its button.
    const top = chord === 'Enter' && this.#dialog === null && this.#topDocument !== undefined ? this.#documents.get(this.#topDocument) : undefined
    const focused = top === undefined ? null : await focusedPlace(top)
    const answer = await this.#acting((page) => page.keyboard.press(chord))
    return { ...answer, ...(focused === null ? {} : await this.#heldBack(focused, true)), ...(await this.#classesChanged()) }
  }

  /**
   * The elements of the frame whose classes the last input changed, in the top document: a key
   * that moves a highlight through a list that says nothing of it otherwise. Not while a dialog
   * is open (the page runs no script), nor for an element the frame never showed.
   */
  async #classesChanged(): Promise<{ classesChanged?: Array<ClassChange & { node: string }> }> {
    const top = this.#topDocument === undefined ? undefined : this.#documents.get(this.#topDocument)
    if (top === undefined || !this.#runsScript()) return {}
    const changed = await classesSinceInput(top.session)
    const known = changed.flatMap(({ backendNodeId, change }) => {
      const node = this.#ledger.known(top.key, backendNodeId)
      return node === undefined ? [] : [{ node, ...change }]
    })
    return known.length === 0 ? {} : { classesChanged: known }
  }

  async scroll(input: { direction?: 'down' | 'up' | 'left' | 'right' | undefined; amount?: number | undefined; to?: 'top' | 'bottom' | undefined; element?: string | undefined }, frame: Frame): Promise<PageAnswer> {
    if (input.element !== undefined && input.to !== undefined) throw new TesseraError('invalid_input', 'expected "element" or "to", found both: an element is brought into view, "to" scrolls the page to its top or bottom', { expected: 'element or to', found: { element: input.element, to: input.to } })
    const place = input.element === undefined ? undefined : this.#anyElement(RefTable.forFrame(frame).resolve(input.element) ?? input.element.replace(/^@/, ''))
    return this.#acting(async (page) => {
      if (place !== undefined) {
        // Into view with every box it is in, amid what is around it (its start, when it is taller than the view).
        if (input.direction === undefined) return void (await callOn(place, SCROLL_INTO_VIEW))
        // With a direction, the wheel turns over it, so the box it is in scrolls (a side panel, a chat log).
        const center = await centerOf(page, place)
        const amount = input.amount ?? 300
        return void (await wheelAt(page, center.x, center.y, input.direction === 'left' ? -amount : input.direction === 'right' ? amount : 0, input.direction === 'up' ? -amount : input.direction === 'down' ? amount : 0))
      }
      if (input.to !== undefined) {
        await page.evaluate((to) => window.scrollTo(0, to === 'top' ? 0 : document.documentElement.scrollHeight), input.to)
        return
      }
      const size = page.viewportSize() ?? { width: 1280, height: 800 }
      const direction = input.direction ?? 'down'
      const amount = input.amount ?? Math.round((direction === 'down' || direction === 'up' ? size.height : size.width) * 0.8)
      await wheelAt(page, size.width / 2, size.height / 2, direction === 'left' ? -amount : direction === 'right' ? amount : 0, direction === 'up' ? -amount : direction === 'down' ? amount : 0)
    })
  }

  async navigate(url: string): Promise<PageAnswer> {
    if (this.#context !== null && this.#pages.length === 0) {
      const fresh = await this.#newTab()
      this.#adopt(fresh, true)
      this.#current = this.#pages.indexOf(fresh)
      this.#note = `${this.#gone?.said ?? 'the tile had no page open'}; a new tab opened`
      this.#gone = undefined
    }
    await this.#unstuck(this.#page())
    return this.#acting((page) => this.#goto(page, url))
  }

  /**
   * A page that stopped answering (a script that never yields) cannot be asked to go anywhere:
   * it is closed, and a new tab takes its place, in the tile's context (its cookies stay).
   */
  async #unstuck(page: Page): Promise<void> {
    const crashed = this.#crashed.has(page)
    if (!crashed && (this.#dialog !== null || (this.#stuck !== page && (await answersWithin(this.#sessionsOf(page).main(), QUICK_ANSWER_MS))))) return
    const fresh = await this.#newTab()
    this.#adopt(fresh, true)
    this.#pages.splice(this.#pages.indexOf(fresh), 1)
    this.#pages.splice(this.#pages.indexOf(page), 0, fresh)
    this.#current = this.#pages.indexOf(fresh)
    await page.close({ runBeforeUnload: false }).catch(() => undefined)
    this.#note = crashed ? 'the page had crashed; a new tab opened in its place' : 'the page had stopped answering (its thread was busy); it was closed, and a new tab opened in its place'
  }

  /** Whether the page answers, for a wait on it; a page blocked by an open dialog is no stuck page, and one whose renderer crashed ends the wait. */
  #asking(page: Page): () => Promise<boolean> {
    // Nor is one whose thread a dialog in a window of its site holds.
    const answers = askingSession(() => this.#sessionsOf(page).main(), () => this.#dialog !== null || ContextDialogs.of(page.context()).elsewhere(page) !== undefined)
    return async () => {
      // Calls pending on a crashed page may never be answered, nor refused.
      if (this.#crashed.has(page)) throw new TesseraError('conflict', `${CRASHED} while the call waited on it; browser_navigate opens a new tab in its place`, { found: this.#address(page) })
      return answers()
    }
  }

  async history(which: 'back' | 'forward' | 'reload'): Promise<PageAnswer> {
    const page = this.#page()
    if (which !== 'reload' && (await this.#historyStep(page, which)) === null) {
      this.#note = `there was no page to go ${which} to`
      return this.#where(page)
    }
    return this.#acting(async (page) => {
      const options = { waitUntil: 'domcontentloaded' as const, timeout: NAVIGATION_TIMEOUT_MS }
      if (which === 'back') await page.goBack(options)
      else if (which === 'forward') await page.goForward(options)
      else await page.reload(options)
    })
  }

  /**
   * Where going back or forward leads: the tab's history entry next to the current one, or
   * null where there is none — the blank page a tab starts on is none, so a tile opened at a
   * URL has nothing behind its first page.
   */
  async #historyStep(page: Page, which: 'back' | 'forward'): Promise<string | null> {
    const session = await this.#sessionsOf(page).main()
    const { currentIndex, entries } = (await session.send('Page.getNavigationHistory')) as { currentIndex: number; entries: Array<{ url: string }> }
    const index = currentIndex + (which === 'back' ? -1 : 1)
    const entry = entries[index]
    if (entry === undefined || (index === 0 && entry.url === 'about:blank')) return null
    return entry.url
  }

  async waitFor(input: WaitRequest, signal: AbortSignal): Promise<PageAnswer & { waitedMs: number }> {
    const page = this.#page()
    const started = performance.now()
    const timeout = Math.min(30, input.time ?? 30) * 1000
    if (input.role === undefined && (input.name !== undefined || input.state !== undefined || input.gone !== undefined)) {
      throw new TesseraError('invalid_input', 'name, state and gone describe an element: give its role too', { expected: 'role with name, state or gone', found: { name: input.name ?? null, state: input.state ?? null, gone: input.gone ?? null } })
    }
    if (input.role !== undefined && !ARIA_ROLES.has(input.role)) throw new TesseraError('invalid_input', `expected an ARIA role (button, dialog, checkbox, …), found "${input.role}"`, { expected: [...ARIA_ROLES], found: input.role })
    if (input.text === undefined && input.textGone === undefined && input.role === undefined) {
      if (input.time === undefined) throw new TesseraError('invalid_input', 'expected text, textGone, role or time to wait for, found none', { expected: ['text', 'textGone', 'role', 'time'], found: null })
      await new Promise<void>((done) => {
        const timer = setTimeout(done, timeout)
        signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true })
      })
    } else {
      // A page under a dialog runs no script and draws nothing new until it is answered: nothing to wait for.
      if (this.#dialog !== null) throw new TesseraError('conflict', `${aDialog(this.#dialog.type())} is open, and the page changes nothing until it is answered; answer it with handle_dialog first`, { found: this.#dialog.type() })
      const waits: Array<Promise<void>> = []
      const what: string[] = []
      const dialogOpened = this.#nextDialog()
      try {
        if (input.text !== undefined) {
          waits.push(page.getByText(input.text).first().waitFor({ state: 'visible', timeout }))
          what.push(`"${input.text}" to appear`)
        }
        if (input.textGone !== undefined) {
          waits.push(page.getByText(input.textGone).first().waitFor({ state: 'hidden', timeout }))
          what.push(`"${input.textGone}" to go`)
        }
        if (input.role !== undefined) {
          waits.push(elementByRole(page, input).first().waitFor({ state: input.gone === true ? 'hidden' : 'visible', timeout }))
          what.push(`${[input.role, input.name === undefined ? '' : JSON.stringify(input.name), input.state === undefined ? '' : `(${input.state})`].filter(Boolean).join(' ')} to ${input.gone === true ? 'go' : 'appear'}`)
        }
        // A dialog the page opens meanwhile ends the wait: the answer says so, rather than the wait running out under it.
        for (const wait of waits) wait.catch(() => undefined)
        await Promise.race([Promise.all(waits), dialogOpened.promise])
        const opened = this.#dialog as Dialog | null
        if (opened !== null) this.#note = `the page opened ${aDialog(opened.type())} while waiting for ${what.join(' and ')}; answer it with handle_dialog`
      } catch (error) {
        const message = (error as Error).message.split('\n')[0] ?? ''
        throw new TesseraError('timed_out', `waited ${Math.round(timeout / 1000)} s for ${what.join(' and ')}; it did not happen`, { expected: input as JsonObject, found: message })
      } finally {
        dialogOpened.stop()
      }
    }
    return { ...this.#where(page), waitedMs: Math.round(performance.now() - started) }
  }

  async answerDialog(accept: boolean, promptText: string | undefined): Promise<PageAnswer & { dialog: string }> {
    const dialog = this.#dialog
    if (dialog === null) throw new TesseraError('not_found', 'no dialog is open', { expected: 'an open alert, confirm, prompt or beforeunload', found: null })
    this.#dialog = null
    ContextDialogs.of(this.#contextOrThrow()).answered(dialog)
    // Its kind alone: the message was the page's words, said inside the fence the frame drew.
    const said = `${dialog.type()} ${accept ? 'accepted' : 'dismissed'}`
    // As any input: the page settles, or opens the next dialog (two alerts in a row), which ends the wait.
    const answer = await this.#acting(() => (accept ? dialog.accept(promptText) : dialog.dismiss()))
    this.#changed()
    return { ...answer, dialog: said }
  }

  async tabs(input: { action: 'list' | 'new' | 'close' | 'select'; index?: number | undefined; url?: string | undefined }): Promise<{ tabs: Array<{ index: number; url: string; title: string; current: boolean }> }> {
    if (input.action === 'new') {
      const page = await this.#newTab()
      this.#adopt(page, true)
      this.#current = this.#pages.indexOf(page)
      this.#note = undefined
      if (input.url !== undefined) await this.#goto(page, input.url)
    } else if (input.action === 'select' || input.action === 'close') {
      const index = input.index ?? this.#current
      const page = this.#pages[index]
      if (page === undefined) throw new TesseraError('not_found', `no tab ${index}; there are ${this.#pages.length}`, { expected: `0..${this.#pages.length - 1}`, found: index })
      if (input.action === 'select') {
        this.#current = index
        await page.bringToFront()
      } else {
        if (this.#pages.length === 1) throw new TesseraError('conflict', 'the last tab of a tile closes with the tile', { found: index })
        await page.close()
      }
    }
    this.#changed()
    // A page that cannot run a script (its dialog, a dialog in a window of its site, its thread taken) has the title its last frame read; one that stops answering now is given QUICK_ANSWER_MS.
    const held = (page: Page): boolean => this.#dialog?.page() === page || this.#stuck === page || this.#crashed.has(page) || ContextDialogs.of(page.context()).elsewhere(page) !== undefined
    const titleOf = async (page: Page): Promise<string> => (held(page) ? (this.#lastFrames.get(page)?.tree.name ?? '') : await answeredWithin(page.title(), QUICK_ANSWER_MS, this.#lastFrames.get(page)?.tree.name ?? ''))
    return { tabs: await Promise.all(this.#pages.map(async (page, index) => ({ index, url: this.#address(page), title: await titleOf(page), current: index === this.#current }))) }
  }

  /** The page's address as the tile reports it: without a user and password (shownAddress). */
  #address(page: Page): string {
    return shownAddress(page.url())
  }

  /**
   * Hears the context's dialogs from the start (Playwright dismisses one no listener hears),
   * and reads the page again when one opens or is answered in another of its tiles: a page
   * whose thread that dialog held runs again once it is answered.
   */
  #hearDialogs(context: BrowserContext): void {
    this.#stopHearingDialogs = ContextDialogs.of(context).watch(() => this.#changed())
  }

  /**
   * The dialog another tile of this context shows that `page` waits on: one is open, and the
   * page does not answer (a window of its site shares its thread); asked only while one is open.
   */
  async #waitingOn(page: Page): Promise<DialogElsewhere | undefined> {
    const open = this.#dialog === null ? ContextDialogs.of(page.context()).elsewhere(page) : undefined
    if (open === undefined) return undefined
    // Found waiting on it once, the page waits until it is answered: not asked again meanwhile.
    if (this.#heldBy.get(page) === open.dialog) return open
    if (await answersWithin(this.#sessionsOf(page).main(), QUICK_ANSWER_MS)) return undefined
    this.#heldBy.set(page, open.dialog)
    return open
  }

  /**
   * What an answer says of a dialog in another tile: the window the page just opened shows one
   * (that tile is focused), whether or not the page waits on it; or the page waits on one
   * another tile shows. Nothing where neither.
   */
  #dialogsNote(page: Page, waitedOn: DialogElsewhere | undefined): string | undefined {
    const opened = this.#tilesOpened.at(-1)
    const shown = opened === undefined ? undefined : ContextDialogs.of(page.context()).shownBy(opened)
    if (shown !== undefined) return `${this.#note ?? this.#tilesOpenedNote() ?? ''}, which shows ${aDialog(shown.type())}; answer it with handle_dialog`
    if (waitedOn === undefined) return undefined
    return `${this.#note === undefined ? '' : `${this.#note}; `}the page waits on ${aDialog(waitedOn.dialog.type())} in ${waitedOn.tile}, a window of its site that shares its thread; answer it with handle_dialog {tile: "${waitedOn.tile}"}`
  }

  /**
   * Whether the page can run a script now: no dialog is open over it, nor over another page of
   * its context (a window of its site shares its thread). What a read after an input adds (the
   * classes a click changed, the fields holding a form) is left out rather than waited on.
   */
  #runsScript(): boolean {
    const page = this.#pages[this.#current] ?? this.#pages[0]
    return this.#dialog === null && (page === undefined || ContextDialogs.of(page.context()).elsewhere(page) === undefined)
  }

  /** Whether a page known to have stopped answering still does not, asked again briefly before a call waits on it. */
  async #stillStuck(page: Page): Promise<boolean> {
    return this.#stuck === page && !(await answersWithin(this.#sessionsOf(page).main(), QUICK_ANSWER_MS))
  }

  /**
   * The frame's node a selector names in the top document (see selector-target.ts for what a
   * selector may be): exactly one element that takes an action; with `reach: 'any'` any
   * element at all (where a drag ends: a drop zone no one clicks); with `reach: 'pointer'` an
   * element to click, hover or drag, made a target from the next frame on when the page gave
   * no sign it is one (a handler at the root of a React app leaves none on the element).
   */
  async locate(selector: string, reach: 'target' | 'any' | 'pointer' = 'target'): Promise<{ target: string }> {
    const page = this.#page()
    if (await this.#stillStuck(page)) throw stuckPage(this.#address(page))
    let backendNodeId: number
    try {
      backendNodeId = await whileAnswering((async () => backendNodeOf(page, await this.#sessionsOf(page).main(), selector))(), this.#asking(page), () => this.#address(page))
    } catch (error) {
      // A page can stop answering without any action of this tile: a window shares the thread of the page that opened it.
      if (error instanceof PageStuck) {
        this.#stuck = page
        this.#changed()
      }
      throw error
    }
    const placed = (): string | undefined => [...this.#places].find(([, place]) => place.document.owner === undefined && place.backendNodeId === backendNodeId)?.[0]
    let target = placed()
    // In a part of a huge page not read yet: read it (from now on) and look again.
    if (target === undefined && this.#topDocument !== undefined && this.#partsToRead.readHolding(this.#topDocument, backendNodeId)) {
      await this.snapshot()
      target = placed()
    }
    if (target !== undefined) return { target }
    if (reach === 'target' || this.#topDocument === undefined) throw new TesseraError('not_found', `${selector} names an element that takes no action on this page`, { expected: 'an interactive element', found: selector })
    if (reach === 'any') return { target: this.#ledger.idOf(this.#topDocument, backendNodeId) }
    // Made a target of the document it is in now (a capture first, should the page have moved on), and checked to be one.
    await this.snapshot()
    const document: string | undefined = this.#topDocument
    if (document !== undefined) {
      this.#named.set(document, (this.#named.get(document) ?? new Set<number>()).add(backendNodeId))
      await this.snapshot()
    }
    target = placed()
    if (target === undefined) throw new TesseraError('not_found', `${selector} names an element that could not be made a target (it takes no space on the page, or is gone)`, { expected: 'an element on the page', found: selector })
    // The frame cached now lacks it: the next one has it.
    this.#changed()
    return { target }
  }

  /** What the current page said to its console, at `level` or more severe: since its document loaded, or (`all`) every message kept. */
  consoleMessages(level: ConsoleLevel, all: boolean): { messages: JournalMessage[] } {
    return { messages: this.#journalOf(this.#page()).messages(level, all) }
  }

  /** The requests the current page made since its document loaded (see PageJournal.requests); `filter` is a regular expression. */
  networkRequests(withStatic: boolean, filter: string | undefined): { requests: JournalRequest[] } {
    const matching = filter === undefined ? undefined : agentPattern(filter, 'filter', false)
    return { requests: this.#journalOf(this.#page()).requests(withStatic, matching) }
  }

  /** Request `index` of the current page (as networkRequests numbers them): its headers and bodies, or the one part asked for. */
  async networkRequest(index: number, part: DetailPart | undefined): Promise<RequestDetail> {
    const kept = this.#journalOf(this.#page()).request(index)
    if ('count' in kept) throw requestNotFound(index, kept.count)
    if (kept.request === undefined) return { ...kept.entry, notes: ['the browser fetched this file itself to save it, not the page: no headers or bodies of it are kept'] }
    return detailOf(kept.request, kept.entry, part)
  }

  /** Gives the page's view this size in CSS pixels; the answer is the page laid out anew. */
  async resize(width: number, height: number): Promise<PageAnswer> {
    return this.#acting((page) => page.setViewportSize({ width, height }))
  }

  /** Draws the page with these media features (a dark colour scheme, print); the answer is what that changed on it. */
  async emulateMedia(features: MediaInput): Promise<PageAnswer> {
    return this.#acting((page) => page.emulateMedia(features))
  }

  /** Runs the agent's script (approved by a person: it can do anything the page can) in the page, or on an element. */
  async evaluate(source: string, element: string | undefined, signal?: AbortSignal): Promise<PageAnswer & { result?: JsonValue }> {
    const place = element === undefined ? undefined : this.#anyElement(element.replace(/^@/, ''))
    let ran: { result?: JsonValue; cut?: number } = {}
    // A script whose promise never settles is left to the page once the action's time is up.
    const answer = await this.#acting(async (page) => {
      ran = place === undefined ? await runPageScript(await this.#sessionsOf(page).main(), source) : await runElementScript(place, source)
    }, signal)
    const cut = ran.cut === undefined ? [] : [`the answer is cut to its first ${RESULT_CHARS.toLocaleString('en')} characters of ${ran.cut.toLocaleString('en')}`]
    const note = [...(answer.note === undefined ? [] : [answer.note]), ...cut]
    return { ...answer, ...(note.length === 0 ? {} : { note: note.join('; ') }), ...(ran.result === undefined ? {} : { result: ran.result }) }
  }

  // ── inside ─────────────────────────────────────────────────────────────────────

  #journalOf(page: Page): PageJournal {
    const journal = this.#journals.get(page)
    if (journal === undefined) throw new TesseraError('not_found', `browser tile "${this.id}" keeps no journal of this page`, { found: this.id })
    return journal
  }

  #contextOrThrow(): BrowserContext {
    if (this.#context === null) throw new TesseraError('not_found', `browser tile "${this.id}" is closed`, { found: this.id })
    return this.#context
  }

  #page(): Page {
    const page = this.#pages[this.#current] ?? this.#pages[0]
    if (page === undefined || this.#context === null) throw new TesseraError('not_found', `browser tile "${this.id}" has no page open`, { found: this.id })
    return page
  }

  #sessionsOf(page: Page): PageSessions {
    let sessions = this.#sessions.get(page)
    if (sessions === undefined) {
      sessions = new PageSessions(page)
      this.#sessions.set(page, sessions)
    }
    return sessions
  }

  #expectPopup(): void {
    const arrived = new Promise<void>((done) => {
      const timer = setTimeout(done, POPUP_WAIT_MS)
      this.#popupArrivals.push(() => {
        clearTimeout(timer)
        done()
      })
    })
    this.#opening.add(arrived)
    void arrived.finally(() => this.#opening.delete(arrived))
  }

  /**
   * A page the site opened (a link with target=_blank, window.open): a tile of its own on the
   * map when the hub allows it, sharing this tile's context (its cookies), else a tab here.
   */
  async #opened(page: Page): Promise<void> {
    // The context tells of the tile's own first page too, after the tile took it.
    if (this.#pages.includes(page)) return
    // A tab a tile opens itself (this one, or one that shares its context) is that tile's to take.
    if ((tabsBeingOpened.get(page.context()) ?? 0) > 0) return
    if (!this.#popups.take()) {
      void page.close({ runBeforeUnload: false }).catch(() => undefined)
      this.#note = this.#popups.said(this.#tilesOpenedNote() ?? `the page opened more than ${MAX_POPUPS} windows within a minute`)
      this.#popupArrivals.shift()?.()
      return
    }
    if (this.#options.openBeside === undefined) {
      this.#adopt(page, true)
      this.#popupArrivals.shift()?.()
      return
    }
    const { openBeside, url: _url, ...rest } = this.#options
    const context = this.#contextOrThrow()
    let made: BrowserTile | undefined
    try {
      const id = await openBeside((id) => {
        // Its sites are the opener's: a window of the same site is the tile's own, one of another site no one approved is not.
        const allowed = this.#pages.length === 0 ? undefined : this.#allowedHere.get(this.#page())
        made = new BrowserTile({ ...rest, origins: [...this.#homeOrigins, ...(allowed === undefined ? [] : [allowed])], id, openedBy: this.id, adopted: { context, page } })
        // A window closed before the next answer is not named there as a tile it can go to.
        made.#onClosed = () => this.#forgetOpened(id)
        return made.open()
      })
      this.#tilesOpened.push(id)
      this.#note = this.#tilesNote = this.#popups.said(this.#tilesOpenedNote() as string)
    } catch {
      // No tile of its own: a tab here. Not where its tile was closed as it opened: that left this tile a tab that was going, and every action failed on it.
      const closedAsItOpened = made !== undefined && made.#context === null
      if (!closedAsItOpened && !page.isClosed()) this.#adopt(page, true)
    }
    this.#popupArrivals.shift()?.()
    this.#changed()
  }

  /**
   * A tab this tile opens itself, which stays its tab. Only the tile that made the context hears
   * of new pages in it; a tile opened beside it (a window its page opened) shares it, so the
   * count is the context's.
   */
  async #newTab(): Promise<Page> {
    const context = this.#contextOrThrow()
    tabsBeingOpened.set(context, (tabsBeingOpened.get(context) ?? 0) + 1)
    try {
      return await context.newPage()
    } finally {
      tabsBeingOpened.set(context, (tabsBeingOpened.get(context) ?? 1) - 1)
    }
  }

  #adopt(page: Page, opened: boolean): void {
    if (this.#pages.includes(page)) return
    this.#pages.push(page)
    // A page that was loaded before this tile saw it (an app's window, an adopted tab) gets the watcher now.
    for (const frame of page.frames()) void frame.evaluate(CHANGE_WATCH_SCRIPT).catch(() => undefined)
    if (opened) {
      // A tab the page opened is where its user would look next.
      this.#current = this.#pages.length - 1
      this.#note = `the page opened a new tab (${this.#pages.length} tabs); it is now the current one`
    }
    // A window the page is opening: the action that opened it answers once it is a tile.
    void this.#sessionsOf(page)
      .main()
      .then((session) => session.on('Page.windowOpen', () => this.#expectPopup()))
      .catch(() => undefined)
    // A file chooser goes with the document that opened it; so does the list of what it downloaded (the files stay). A route of a single-page app keeps both.
    const journal = new PageJournal(page, () => {
      if (this.#chooser?.page() === page && this.#chooserDocument !== journal.document) this.#chooser = null
      for (let i = this.#downloads.length - 1; i >= 0; i--) if (this.#downloads[i]?.on === page && this.#downloads[i]?.document !== journal.document) this.#downloads.splice(i, 1)
      this.#changed()
    })
    this.#journals.set(page, journal)
    // Requests in flight, for settling: a page that loads its parts by script is not ready until they are in.
    const inFlight = new Map<Request, number>()
    this.#requests.set(page, inFlight)
    page.on('request', (request) => {
      if (!LONG_LIVED.has(request.resourceType())) inFlight.set(request, performance.now())
    })
    page.on('requestfinished', (request) => inFlight.delete(request))
    page.on('requestfailed', (request) => inFlight.delete(request))
    // The top frame's navigation from its request until its document commits: the old document stays up meanwhile, and reading it then reads the page that is going.
    const navigating = new Map<Request, number>()
    this.#navigating.set(page, navigating)
    page.on('request', (request) => {
      if (topNavigation(page, request)) navigating.set(request, performance.now())
    })
    page.on('requestfailed', (request) => navigating.delete(request))
    page.on('response', (response) => {
      if (commitsNoDocument(response)) navigating.delete(response.request())
    })
    const showDialog = (dialog: Dialog): void => {
      this.#dialog = dialog
      ContextDialogs.of(page.context()).opened(dialog, this.id)
      for (const waiter of this.#dialogWaiters) waiter()
      this.#changed()
    }
    page.on('dialog', showDialog)
    // One it showed before this tile took it (a window's alert as it loads).
    const early = ContextDialogs.of(page.context()).claim(page)
    if (early !== undefined) showDialog(early)
    page.on('filechooser', (chooser) => {
      this.#chooser = chooser
      this.#chooserDocument = this.#journalOf(page).document
      this.#changed()
    })
    page.on('download', (download) => {
      navigating.clear()
      void this.#keep(download, page)
    })
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return
      navigating.clear()
      // Heard as the document commits, before any wait on its load begins.
      this.#loadBy.delete(page)
      // A visit allowed on one site ends when the tab is on another.
      if (this.#allowedHere.get(page) !== safeOrigin(page.url())) this.#allowedHere.delete(page)
      // So does what the last capture showed: a dialog the new document opens as it loads (a reload to the same address) stands over nothing of the old one.
      this.#lastFrames.delete(page)
      this.#changed()
    })
    // Its renderer ended (out of memory, killed): Playwright refuses everything on the page from then on.
    page.on('crash', () => {
      this.#crashed.add(page)
      this.#note = CRASHED
      this.#changed()
    })
    page.on('close', () => {
      if (this.#pages.length === 1 && this.#pages[0] === page) this.#gone = { said: 'the page closed its window, the tile\'s last', url: this.#address(page) }
      const index = this.#pages.indexOf(page)
      if (index >= 0) this.#pages.splice(index, 1)
      if (this.#current >= this.#pages.length) this.#current = Math.max(0, this.#pages.length - 1)
      // Its dialog goes with it: else the tile's other tabs stood under a dialog no one can answer.
      if (this.#dialog?.page() === page) {
        ContextDialogs.of(page.context()).answered(this.#dialog)
        this.#dialog = null
      }
      this.#changed()
    })
  }

  async #keep(download: Download, on: Page): Promise<void> {
    const folder = join(this.#options.filesDir, 'downloads')
    mkdirSync(folder, { recursive: true })
    const file = freeFileName(folder, basename(download.suggestedFilename()) || 'download', this.#saving)
    this.#saving.add(file)
    const journal = this.#journalOf(on)
    const entry = { file: relative(this.#options.filesDir, file), url: download.url(), state: 'saving' as KeptDownload['state'], on, document: journal.document }
    journal.downloaded(download.url(), entry.file)
    this.#downloads.push(entry)
    this.#changed()
    entry.state = await download.saveAs(file).then(
      () => 'saved' as const,
      () => 'failed' as const,
    )
    this.#saving.delete(file)
    this.#changed()
  }

  /** A file to upload: inside the tile's folder, never anywhere else on this machine. */
  #uploadable(path: string): string {
    const folder = resolve(this.#options.filesDir)
    const full = isAbsolute(path) ? resolve(path) : resolve(folder, path)
    const rel = relative(folder, full)
    // Named as the hub's data folder names it, not by this machine's path: the agent gives paths in it.
    const named = `data:browser-files/${this.id}/`
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new TesseraError('forbidden', `uploads come from the tile's folder ${named}; "${path}" is outside it`, { expected: `a path in ${named}, such as downloads/report.csv`, found: path })
    }
    // Checked before anyone is asked to approve sending it: a person never approves what cannot run.
    if (statSync(full, { throwIfNoEntry: false })?.isFile() !== true) {
      throw new TesseraError('not_found', `no file "${path}" in the tile's folder ${named}`, { expected: `a path in ${named}, such as downloads/report.csv`, found: path })
    }
    return full
  }

  /**
   * Any element the page shows or a part of it holds, not only those with actions: an
   * actionable one's place, else where the ledger says it lives (its document, its backend
   * node), while that document is the page's.
   */
  #anyElement(nodeId: string): ElementPlace {
    // A ref as an agent may write it (`@e12`) names the ledger's `12`.
    const id = ledgerIdOf(nodeId)
    const known = this.#places.get(id ?? nodeId)
    if (known !== undefined) return known
    const place = id === undefined ? undefined : this.#ledger.locate(id)
    const document = place === undefined ? undefined : this.#documents.get(place.scope)
    if (place === undefined || document === undefined || typeof place.key !== 'number') throw new TesseraError('not_found', `no element "${nodeId}" on the current page; take a new snapshot`, { expected: 'an @ref the last outline printed', found: nodeId })
    return { document, backendNodeId: place.key, role: 'element', tag: '' }
  }

  #place(nodeId: string): ElementPlace {
    const place = this.#places.get(nodeId)
    if (place === undefined) throw new TesseraError('not_found', `no element "${nodeId}" on the current page; take a new snapshot`, { found: nodeId })
    return place
  }

  #changed(): void {
    for (const listener of this.#listeners) listener()
  }

  /** A document of the tile's changed, says its change watch: news, unless a capture running read it already. */
  #heard(frame: PlaywrightFrame, mark: unknown): void {
    const page = frame.page()
    if (frame === page.mainFrame() && this.#captureNotices.hold(page, readChangeMark(mark))) return
    this.#changed()
  }

  #state(page: Page): JsonObject {
    const state: JsonObject = { url: this.#address(page) }
    if (this.#dialog !== null) state.dialog = { type: this.#dialog.type(), message: cutWhole(this.#dialog.message(), 2000), ...(this.#dialog.defaultValue() ? { default: this.#dialog.defaultValue() } : {}) }
    if (this.#chooser !== null) state.fileChooser = { multiple: this.#chooser.isMultiple() }
    const document = this.#journals.get(page)?.document
    const downloads = this.#downloads.filter((d) => d.on === page && d.document === document)
    if (downloads.length > 0) state.downloads = downloads.slice(-10).map(({ file, url, state }) => ({ file, url, state }))
    if (this.#pages.length > 1) state.tabs = { count: this.#pages.length, current: this.#current }
    return state
  }

  /** What an action answers when the tile's last page closed its own window under it. */
  #pageless(): PageAnswer {
    this.#note = undefined
    return { url: this.#gone?.url ?? 'about:blank', note: this.#gone?.said ?? 'the tile has no page open' }
  }

  /** A tile this page opened closed before the next answer: its note names the others, or goes. */
  #forgetOpened(id: string): void {
    if (!this.#tilesOpened.includes(id)) return
    this.#tilesOpened = this.#tilesOpened.filter((opened) => opened !== id)
    if (this.#note !== this.#tilesNote) return
    const named = this.#tilesOpenedNote()
    this.#note = this.#tilesNote = named === undefined ? undefined : this.#popups.said(named)
  }

  /** What the tiles the page opened since the last answer are, every one named: the last is focused. */
  #tilesOpenedNote(): string | undefined {
    const [last, ...before] = [...this.#tilesOpened].reverse()
    if (last === undefined) return undefined
    return before.length === 0 ? `the page opened ${last}, a new browser tile (now focused)` : `the page opened ${[...before.reverse(), last].join(', ')}, new browser tiles (${last} now focused)`
  }

  #where(page: Page): PageAnswer {
    const note = this.#note
    this.#note = undefined
    this.#tilesOpened = []
    this.#tilesNote = undefined
    return { url: this.#address(page), ...(note === undefined ? {} : { note }) }
  }

  /** Settles when this tile next shows a dialog; `stop` ends the wait. */
  #nextDialog(): { promise: Promise<void>; stop: () => void } {
    let release = (): void => undefined
    const promise = new Promise<void>((done) => {
      release = done
      this.#dialogWaiters.add(release)
    })
    return { promise, stop: () => this.#dialogWaiters.delete(release) }
  }

  /**
   * Runs an input on the current page, then waits until the page has settled; a dialog it
   * opens ends the wait. Once `signal` aborts (the action's time is up) the wait ends too, so
   * the tile is free for the next action: the gateway holds it until this returns.
   */
  async #acting(act: (page: Page) => Promise<unknown>, signal?: AbortSignal): Promise<PageAnswer> {
    const page = this.#page()
    if (this.#dialog !== null) throw new TesseraError('conflict', `${aDialog(this.#dialog.type())} is open; answer it with handle_dialog first`, { found: this.#dialog.type() })
    const documentBefore = this.#journals.get(page)?.document
    const dialogOpened = this.#nextDialog()
    const ended = abortion(signal)
    const dialogs = ContextDialogs.of(page.context())
    const elsewhere = dialogs.next()
    let elsewhereLater: { promise: Promise<void>; stop: () => void } | undefined
    let waitedOn: DialogElsewhere | undefined
    try {
      // A page that closed its own window on the input (a sign-in popup when done) ended it as it should.
      const acting = act(page).catch((error: unknown) => {
        if (!page.isClosed()) throw error
      })
      // A dialog can leave the input pending until it is answered: whatever it ends with then is no one's to hear.
      acting.catch(() => undefined)
      // An input whose handler never yields leaves every wait on the page pending: the page is asked whether it still answers.
      await whileAnswering(Promise.race([acting, dialogOpened.promise, ended.promise, elsewhere.promise]), this.#asking(page), () => this.#address(page))
      // A dialog in a window of the page's site (one it opened as it loaded) holds this page's thread too: what it waits on is said, not waited on.
      waitedOn = await this.#waitingOn(page)
      if (this.#dialog === null && waitedOn === undefined) await whileAnswering(Promise.race([acting, dialogOpened.promise, ended.promise]), this.#asking(page), () => this.#address(page))
      elsewhereLater = dialogs.next()
      if (this.#dialog === null && waitedOn === undefined && this.#pages.length > 0) await whileAnswering(Promise.race([this.#settle(this.#page()), dialogOpened.promise, ended.promise, elsewhereLater.promise]), this.#asking(this.#page()), () => this.#address(page))
      // A window it opened is a tile once it loaded, or once it shows a dialog as it loads, which the page may then wait on.
      await Promise.race([Promise.all(this.#opening), ended.promise])
      waitedOn ??= await this.#waitingOn(page)
    } catch (error) {
      if (error instanceof PageStuck) this.#stuck = page
      throw error
    } finally {
      dialogOpened.stop()
      elsewhere.stop()
      elsewhereLater?.stop()
      ended.stop()
    }
    if (this.#pages.length === 0) return this.#pageless()
    const now = this.#page()
    const site = safeOrigin(now.url())
    if (this.#mayLeave) this.#arrived(now)
    else if (!this.#onItsSites(site, now)) this.#note = `the page went to ${site} by itself (not a link it showed for it), a site no one approved: actions there wait for a person`
    // The act may have opened a dialog meanwhile (TypeScript cannot know the field changed).
    const opened = this.#dialog as Dialog | null
    if (opened === null) this.#note = this.#dialogsNote(page, waitedOn) ?? this.#note
    const answer = { ...this.#where(now), ...(opened === null ? {} : { dialogOpened: opened.type() }) }
    return now === page && documentBefore !== undefined && this.#journals.get(now)?.document !== documentBefore ? { ...answer, newDocument: true } : answer
  }

  async #goto(page: Page, url: string): Promise<void> {
    try {
      // A navigation the page started itself and had not finished (a form sent a moment before) may cut into this one: the agent's goes again, once.
      const response = await page
        .goto(url, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS })
        .catch((error: Error) => (/interrupted by another navigation/.test(error.message) ? page.goto(url, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS }) : Promise.reject(error)))
      if (response !== null && response.status() >= 400) this.#note = `the server answered ${response.status()}${STATUS_CODES[response.status()] === undefined ? '' : ` ${STATUS_CODES[response.status()]}`}`
      await this.#settle(page)
    } catch (error) {
      const message = (error as Error).message.split('\n')[0] ?? ''
      throw new TesseraError(/Timeout/.test(message) ? 'timed_out' : 'not_found', `could not open ${url}: ${message}`, { expected: 'a reachable http(s) URL', found: url })
    }
  }

  /**
   * Until a navigation of the top frame that has begun commits its document (or fails, or
   * turns out to be a download), within NAVIGATION_TIMEOUT_MS of its start: before that, the
   * page's load state is the old document's, and a click that sent a form would be answered
   * with the page it left (seen on a sign-in's POST and redirect in a cold browser).
   */
  async #committed(page: Page): Promise<void> {
    const navigating = this.#navigating.get(page)
    for (;;) {
      const began = Math.min(...(navigating?.values() ?? []))
      if (!Number.isFinite(began) || performance.now() - began > NAVIGATION_TIMEOUT_MS || page.isClosed()) return
      await new Promise((done) => setTimeout(done, 25))
    }
  }

  #busyLoading(page: Page): boolean {
    const now = performance.now()
    for (const started of this.#requests.get(page)?.values() ?? []) if (now - started < REQUEST_PATIENCE_MS) return true
    return false
  }

  /**
   * Settled: the document that is loading (if an action started a navigation) is parsed, the
   * requests the page just made are in, a navigation it asked for has begun, and then the
   * page has gone QUIET_MS without a DOM change — never a fixed sleep, and never longer than
   * SETTLE_MAX_MS.
   */
  async #settle(page: Page): Promise<void> {
    // One bound per document, not per wait: an image that never comes held every attempt, and every settle of an action after, 5 s.
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.#committed(page)
      await page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => undefined)
      // Scripts and styles of a new document (a page may hide itself until they are in); bounded, as a stream of images may never end.
      let loadBy = this.#loadBy.get(page)
      if (loadBy === undefined) this.#loadBy.set(page, (loadBy = performance.now() + LOAD_WAIT_MS))
      const loaded = await page.waitForLoadState('load', { timeout: Math.max(1, loadBy - performance.now()) }).then(
        () => true,
        () => false,
      )
      if (!loaded && !page.isClosed()) this.#note ??= `the page was still loading after ${LOAD_WAIT_MS / 1000} s (some of what it asked for never came); this is what it shows so far`
      try {
        const deadline = performance.now() + SETTLE_MAX_MS
        // Quiet means both: no request of the last moments in flight, then no DOM change for QUIET_MS.
        while (performance.now() < deadline && this.#busyLoading(page)) await new Promise((done) => setTimeout(done, 25))
        await page.evaluate(([quiet, max]) => (window as unknown as { __tesseraQuiet?: (q: number, m: number) => Promise<number> }).__tesseraQuiet?.(quiet, max), [QUIET_MS, Math.max(0, deadline - performance.now())] as const)
        if (!this.#busyLoading(page) || performance.now() >= deadline) return
        continue
      } catch {
        // The document went away under the wait (a navigation): wait for the next one.
      }
    }
  }
}

/**
 * Text typed at once, yet heard as typed: all but its last character inserted in one call (the
 * page hears `beforeinput` and `input`), the last pressed as a key (`keydown`, `keypress`,
 * `input`, `keyup`). A search box that reads its field on `keyup` (mdBook's) answers as it does
 * to a person, for two calls rather than one a character. A last character that is a control
 * (a line break would press Enter and send a form, a tab move the focus) is inserted too.
 */
async function typeQuickly(page: Page, text: string): Promise<void> {
  const characters = Array.from(text)
  const last = characters.pop()
  if (last === undefined || /\p{Cc}/u.test(last)) return page.keyboard.insertText(text)
  if (characters.length > 0) await page.keyboard.insertText(characters.join(''))
  await page.keyboard.type(last)
}

/** Whether a request navigates the page's top frame (a service worker's has no frame). */
function topNavigation(page: Page, request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame()
  } catch {
    return false
  }
}

/** Per browser context, whom its pages tell of a change (the frame, its ChangeMark): the tile that holds it, once one does (a context is made ready before). */
const CHANGES_HEARD = new WeakMap<BrowserContext, (frame: PlaywrightFrame, mark: unknown) => void>()

/** What a tile's context needs before its first document: the change watch in every document, and the binding it reports through. */
async function watchChanges(context: BrowserContext): Promise<void> {
  await context.addInitScript(CHANGE_WATCH_SCRIPT)
  await context.exposeBinding('__tesseraChanged', (source: { frame: PlaywrightFrame }, document: unknown, changes: unknown) => CHANGES_HEARD.get(context)?.(source.frame, [document, changes]))
}

/** Per browser context, the tabs its tiles are opening themselves (see #newTab). */
const tabsBeingOpened = new WeakMap<BrowserContext, number>()

/** Actions that go to another page by their nature, wherever it is. */
const NAVIGATIONS = new Set(['navigate', 'back', 'forward', 'reload'])

/** Actions a site rule does not cover: they do nothing on the page's site. */
const ON_NO_SITE = new Set(['wait_for', 'tabs', 'console', 'requests', 'request', 'media'])

function safeOrigin(url: string, base?: string): string | null {
  try {
    const parsed = base === undefined ? new URL(url) : new URL(url, base)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}

function focusedNode(node: UiNode): string | undefined {
  if (node.states?.focused === true) return node.id
  for (const child of node.children ?? []) {
    const found = focusedNode(child)
    if (found !== undefined) return found
  }
  return undefined
}

/** A promise that rejects with the signal's reason once it aborts (never without one); `stop` stops listening. */
function abortion(signal: AbortSignal | undefined): { promise: Promise<never>; stop: () => void } {
  if (signal === undefined) return { promise: new Promise<never>(() => undefined), stop: () => undefined }
  let stop = (): void => undefined
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const abort = (): void => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    stop = () => signal.removeEventListener('abort', abort)
  })
  // Raced, and maybe never awaited after the race is won elsewhere.
  promise.catch(() => undefined)
  return { promise, stop }
}
