import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { NodeLedger } from '@tessera/kit'
import { type ActionCall, type ActionContractInput, type Frame, type JsonObject, type JsonValue, type PerformContext, type RiskAssessment, type Surface, type TargetSpec, TesseraError, type UiNode, sealFrame } from '@tessera/protocol'
import type { AppSchema, Toolkit } from './app-schema.js'
import { AtspiBus, type AtspiEvent, REGISTRY, refOf } from './atspi-bus.js'
import { keepTemplate, seedProfile } from './app-profiles.js'
import { officePipeOf, removeOfficePipe } from './office-pipe.js'
import { AccessibleCache } from './atspi-cache.js'
import { ATSPI_INTERFACES, type AccessibleNode, statesOf, walkAccessibles, walkFrom } from './atspi-tree.js'
import { customActionId, customActionTimeout, customContracts, runCustomAction } from './custom-actions.js'
import { DESKTOP_ACTIONS } from './desktop-actions.js'
import { type CapabilityReport, discoverCapabilities } from './discovery.js'
import { XDisplay } from './x-display.js'
import { type Shortcut, filterShortcuts } from './shortcut-registry.js'
import { copies, pastes, sharedClipboard } from './shared-clipboard.js'
import { DesktopSession, type LaunchedApp } from './desktop-session.js'
import { type AccessiblePlace, buildDesktopTree, pressIndex } from './desktop-tree.js'
import { parseChords } from './key-chords.js'
import { BUTTON_NUMBERS, type ScreenPoint, dragPath, wheelClicks } from './pointer-gestures.js'
import { DevtoolsPage, type OpenPart, isChromiumFamily } from './devtools-page.js'
import { type WebBuild, webRuntime } from './desktop-apps.js'
import { type ServedWebBuild, serveWebBuild } from './web-build-server.js'

export interface DesktopTileOptions {
  id: string
  title?: string
  /** What to start in the tile's session. */
  command: readonly string[]
  /** The app's name, for the frame's route. */
  appName: string
  /** What Tessera knows of the app before looking: shortcuts, widgets, custom actions. */
  schema?: AppSchema | undefined
  /** Variables the app needs (its schema's). */
  env?: Readonly<Record<string, string>> | undefined
  /** An argument that puts the app's profile in the tile's folder (`{profile}`), seeded from a template (app-profiles.ts). */
  profileArg?: string | undefined
  /** Or variables that do (`{profile}` in their values). */
  profileEnv?: Readonly<Record<string, string>> | undefined
  width?: number
  height?: number
  /** Opens a surface of another kind for this tile: a Chromium app's page is read by the browser kind through its DevTools port. */
  openPart?: OpenPart | undefined
  /** The `wasm` backend: the app's web build, served on loopback and run by Chromium in app mode on the tile's display (`command` is then unused). */
  web?: { build: WebBuild; document?: string | undefined } | undefined
}

/** The desktop's actions that stay the tile's when a Chromium app's page is read through DevTools: keys, pointer, shortcuts, discovery. */
const BESIDE_A_PAGE = new Set(['key', 'type_text', 'click_at', 'drag_at', 'scroll_at', 'shortcuts', 'discover'])
/** A Chromium app says where its DevTools listen as it starts (~0.6 s here): this is plenty. */
const DEVTOOLS_WAIT_MS = 15_000

/** GTK 4 adds rows to these without an event (the calculator's history): listed again for every frame. */
const GTK4_SILENT_LISTS: ReadonlySet<string> = new Set(['list', 'list box', 'table', 'tree', 'tree table'])

/** How long an app has to show a window after it starts. */
const APP_START_MS = 30_000
/** After an action: the first event from the app within this, then quiet for QUIET_MS, all within SETTLE_MAX_MS. */
const FIRST_EVENT_MS = 600
const QUIET_MS = 120
const SETTLE_MAX_MS = 2_000


/** Discovery reports by app and depth: an app's menus are the same in every tile that runs it. */
const discovered = new Map<string, CapabilityReport>()

/**
 * A Linux desktop app as a tile: its own X display, session bus and accessibility bus
 * (DesktopSession), its widgets read over AT-SPI as a frame, acted on through their own
 * AT-SPI actions, and keys and pointer through XTEST on the display's own connection (xdotool
 * for text and for keys the keyboard map lacks). The app's events keep the
 * hub's frame cache current and tell an action when the app has answered.
 */
export class DesktopTile implements Surface {
  #id: string
  readonly kind = 'desktop' as const
  #title: string
  readonly #options: DesktopTileOptions
  readonly #ledger = new NodeLedger()
  readonly #listeners = new Set<(frame?: Frame) => void>()
  #session: DesktopSession | null = null
  /** A socket the app leaves in /tmp when it ends by signal (LibreOffice's), removed once it has ended. */
  #leftPipe: string | undefined
  #bus: AtspiBus | null = null
  #cache: AccessibleCache | null = null
  #x: XDisplay | null = null
  #app: LaunchedApp | null = null
  #stopListening: (() => void) | undefined
  #places = new Map<string, AccessiblePlace>()
  #events = 0
  #lastEventAt = 0
  #notifyPending = false
  /** The clipboard serial this tile last held: a paste takes a newer copy from another tile. */
  #clipboardSerial = 0
  #claimed = false
  #framesRead = 0
  /** A Chromium app's page through DevTools (the Electron specialist), when it could be attached. */
  #page: DevtoolsPage | null = null
  /** Why a Chromium app is read over AT-SPI after all: its DevTools could not be attached. */
  #devtoolsProblem: string | undefined
  #stopPage: (() => void) | undefined
  /** What runs in the tile: the configured command, or Chromium on the web build. */
  #command: readonly string[]
  #served: ServedWebBuild | null = null
  readonly #contracts: readonly ActionContractInput[]
  readonly #customTargets: readonly TargetSpec[]

  constructor(options: DesktopTileOptions) {
    this.#id = options.id
    this.#title = options.title ?? options.appName
    this.#command = options.command
    this.#options = options
    // The same contract objects in every frame: the frame sealer checks each once.
    const custom = options.schema === undefined ? [] : customContracts(options.schema)
    this.#contracts = [...DESKTOP_ACTIONS.contracts, ...custom]
    this.#customTargets = custom.map((contract) => ({ contract: contract.id }))
  }

  /** Starts the session and the app, and waits until the app shows a window on AT-SPI. */
  async open(): Promise<this> {
    const session = await DesktopSession.start({ ...(this.#options.width === undefined ? {} : { width: this.#options.width }), ...(this.#options.height === undefined ? {} : { height: this.#options.height }) })
    this.#session = session
    try {
      this.#x = await XDisplay.connect(session.display)
      this.#bus = AtspiBus.connect(session.a11yBusAddress)
      this.#cache = new AccessibleCache(this.#bus)
      this.#stopListening = await this.#bus.listen(['object:', 'window:'], (event) => this.#heard(event))
      const profile = join(session.dir, 'home', 'app-profile')
      const profileArg = this.#options.profileArg
      const profileEnv = Object.fromEntries(Object.entries(this.#options.profileEnv ?? {}).map(([name, value]) => [name, value.replace('{profile}', profile)]))
      const hasProfile = profileArg !== undefined || Object.keys(profileEnv).length > 0
      const seeded = hasProfile && seedProfile(this.#options.appName, profile)
      if (this.#options.web !== undefined) await this.#serveWebBuild(this.#options.web.build, this.#options.web.document, session)
      // A Chromium app opens a DevTools port of the system's choosing, on loopback only.
      const devtools = this.#options.openPart !== undefined && isChromiumFamily(this.#command[0] ?? '')
      const args = [...this.#command, ...(profileArg === undefined ? [] : [profileArg.replace('{profile}', profile)]), ...(devtools ? ['--remote-debugging-port=0'] : [])]
      this.#leftPipe = officePipeOf(args)
      this.#app = session.launch(args, { ...this.#options.env, ...profileEnv }, this.#leftPipe)
      // A Chromium app is ready when its page is: its AT-SPI window comes later (~0.5–1 s here). One whose port cannot be attached is waited for on AT-SPI.
      if (devtools) await this.#attachDevtools()
      if (this.#page === null) await this.#waitForWindow()
      if (hasProfile && !seeded) keepTemplate(this.#options.appName, profile)
      const toolkit = this.#page === null ? await this.#toolkit() : 'electron'
      this.#cache.trustEvents = toolkit === 'gtk3' || toolkit === 'vcl' || toolkit === 'gtk4'
      if (toolkit === 'gtk4') this.#cache.relistRoles = GTK4_SILENT_LISTS
      return this
    } catch (error) {
      await this.close()
      throw error
    }
  }

  get id(): string {
    return this.#id
  }

  get title(): string {
    return this.#title
  }

  /** Whether the app is still running (a parked app that died is not handed out). */
  get running(): boolean {
    const child = this.#app?.child
    return this.#session !== null && child !== undefined && child.exitCode === null && child.signalCode === null
  }

  /**
   * A tile started ahead of need (parked-apps.ts) becomes the tile the hub asked for: its id
   * and title. Only before any frame was read, so no frame or ref ever carries the old id.
   */
  claim(id: string, title: string): this {
    if (this.#claimed || this.#framesRead > 0) throw new TesseraError('conflict', `desktop tile ${this.#id} is already in use`, { found: this.#id })
    this.#claimed = true
    this.#id = id
    this.#title = title
    return this
  }

  // ── Surface ────────────────────────────────────────────────────────────────────

  async snapshot(): Promise<Frame> {
    const { session } = this.#live()
    this.#framesRead += 1
    if (this.#page !== null) {
      const beside = this.#contracts.filter((contract) => BESIDE_A_PAGE.has(contract.id) || this.#customAction(contract.id) !== undefined)
      const state: JsonObject = { app: this.#options.appName, display: session.display, specialist: 'devtools', ...(this.#served === null ? {} : { backend: 'wasm' }) }
      return this.#page.frame(this.id, `desktop://${this.#options.appName}`, state, beside, beside.map((contract) => ({ contract: contract.id })))
    }
    const walked = await (this.#cache as AccessibleCache).tree()
    const built = buildDesktopTree(walked, this.#ledger, this.title)
    this.#ledger.keepScopes(built.liveApps)
    this.#places = built.places
    built.layout[built.tree.id] = { x: 0, y: 0, width: session.width, height: session.height }
    const targets: TargetSpec[] = [...built.targets, { contract: 'key' }, { contract: 'type_text' }, { contract: 'click_at' }, { contract: 'drag_at' }, { contract: 'scroll_at' }, { contract: 'wait_for' }, { contract: 'shortcuts' }, { contract: 'discover' }, ...this.#customTargets]
    const state: JsonObject = { app: this.#options.appName, display: session.display, widgets: walked.count, ...(walked.truncated ? { truncated: true } : {}), ...(this.#devtoolsProblem === undefined ? {} : { devtools_problem: this.#devtoolsProblem }) }
    return sealFrame({ surface: this.id, route: `desktop://${this.#options.appName}`, tree: built.tree, layout: built.layout, state, contracts: this.#contracts, targets, capabilities: { screenshot: true } as JsonObject })
  }

  perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    if (this.#page?.owns(call.contract.id) === true) return this.#page.perform(call, ctx)
    const custom = this.#customAction(call.contract.id)
    if (custom !== undefined && this.#options.schema !== undefined) return runCustomAction(this, this.#options.schema, custom, (call.input ?? {}) as JsonObject, ctx.signal)
    return DESKTOP_ACTIONS.perform(this, call, ctx)
  }

  /** A page's element says what its words risk (a "Delete" button); the desktop's own actions carry their contract's. */
  async assess(call: ActionCall): Promise<RiskAssessment | null> {
    return this.#page?.owns(call.contract.id) === true ? this.#page.assess(call) : null
  }

  /** A page's action refuses what its browser tile would never run (an upload from outside its folder). */
  refuses(call: ActionCall): void {
    if (this.#page?.owns(call.contract.id) === true) this.#page.refuses(call)
  }

  timeoutFor(call: ActionCall): number | null {
    if (this.#page?.owns(call.contract.id) === true) return this.#page.timeoutFor(call)
    const custom = this.#customAction(call.contract.id)
    return custom === undefined ? DESKTOP_ACTIONS.timeoutFor(call) : customActionTimeout(custom)
  }

  #customAction(id: string): AppSchema['custom_actions'][number] | undefined {
    return this.#options.schema?.custom_actions.find((action) => customActionId(action.name) === id)
  }

  /** The whole display as PNG. */
  async capture(): Promise<Uint8Array> {
    const { session } = this.#live()
    return this.#x === null ? session.run('import', ['-display', session.display, '-window', 'root', 'png:-'], 10_000) : this.#x.screenshot()
  }

  vnc(): Promise<{ host: string; port: number }> {
    return this.#live().session.vnc()
  }

  subscribe(onChange: (frame?: Frame) => void): () => void {
    this.#listeners.add(onChange)
    return () => this.#listeners.delete(onChange)
  }

  async close(): Promise<void> {
    await this.#served?.close()
    this.#served = null
    this.#stopPage?.()
    this.#stopPage = undefined
    const page = this.#page
    this.#page = null
    await page?.close().catch(() => undefined)
    this.#stopListening?.()
    this.#stopListening = undefined
    this.#bus?.disconnect()
    this.#bus = null
    this.#x?.close()
    this.#x = null
    const session = this.#session
    this.#session = null
    await session?.close()
    removeOfficePipe(this.#leftPipe)
    this.#leftPipe = undefined
  }

  // ── Actions ────────────────────────────────────────────────────────────────────

  /** Runs the widget's own action (a button's press); a widget without one is clicked at its centre. */
  async press(nodeId: string): Promise<{ done: string }> {
    if (this.#page !== null) return this.#page.act('click', nodeId, {})
    const { bus } = this.#live()
    const place = this.#place(nodeId)
    const since = this.#events
    if (place.pressAction !== undefined) {
      await bus.call(place.ref, ATSPI_INTERFACES.action, 'DoAction', 'i', [place.pressAction])
    } else if (place.bounds !== undefined) {
      await this.#pointer(Math.round(place.bounds.x + place.bounds.width / 2), Math.round(place.bounds.y + place.bounds.height / 2), 1, false)
    } else throw new TesseraError('conflict', `${describe(place)} has no action and no place on screen to click`, { found: place.role })
    await this.#settle(since)
    return { done: `pressed ${describe(place)}` }
  }

  /**
   * Puts text into a text field at its caret through AT-SPI's EditableText — exact for any
   * Unicode text, which synthetic keys are not (a key for "×" exists on no keymap) — then, with
   * `submit`, presses Return in the app.
   */
  async typeInto(nodeId: string, text: string, submit: boolean, replace = false): Promise<{ done: string }> {
    // A page's fill always replaces the field's text.
    if (this.#page !== null) return this.#page.act('fill', nodeId, submit ? { text, submit } : { text })
    const { bus } = this.#live()
    const place = this.#place(nodeId)
    if (!place.editable) throw new TesseraError('conflict', `${describe(place)} takes no text`, { expected: 'an editable text field', found: place.role })
    const since = this.#events
    await bus.call(place.ref, ATSPI_INTERFACES.component, 'GrabFocus').catch(() => undefined)
    if (text !== '' && !place.editableText) {
      // A field that takes no text through AT-SPI (Chromium's) gets it as keys once it has the focus.
      await this.#focusWindow()
      await this.#typeAsKeys(text)
    } else if (replace) {
      const [set] = await bus.call(place.ref, ATSPI_INTERFACES.editableText, 'SetTextContents', 's', [text])
      if (set === false) throw new TesseraError('conflict', `${describe(place)} refused the text`, { found: place.role })
    } else if (text !== '') {
      // As typing does, the text takes the place of what is selected.
      const selected = await this.#selection(place)
      if (selected !== undefined) await bus.call(place.ref, ATSPI_INTERFACES.editableText, 'DeleteText', 'ii', [selected.start, selected.end])
      const caret = selected?.start ?? Number(await bus.property(place.ref, ATSPI_INTERFACES.text, 'CaretOffset').catch(() => -1))
      const at = Number.isInteger(caret) && caret >= 0 ? caret : Number(await bus.property(place.ref, ATSPI_INTERFACES.text, 'CharacterCount').catch(() => 0))
      // The length is in bytes for the UTF-8 toolkits (GTK, LibreOffice); Qt counts characters and takes the whole text either way.
      const [inserted] = await bus.call(place.ref, ATSPI_INTERFACES.editableText, 'InsertText', 'isi', [at, text, Buffer.byteLength(text)])
      if (inserted === false) throw new TesseraError('conflict', `${describe(place)} refused the text`, { found: place.role })
    }
    if (submit) {
      await this.#focusWindow()
      await this.#press(['Return'])
    }
    await this.#settle(since)
    return { done: `${replace ? 'set' : 'typed'} ${[...text].length} characters ${replace ? 'as the text of' : 'into'} ${describe(place)}${submit ? ', then Return' : ''}` }
  }

  /**
   * Presses key chords in the app (Ctrl+Shift+S, Return); dangerous chords are refused before
   * anything is sent. A copy leaves what was copied on the tiles' shared clipboard; a paste
   * first puts a newer copy from another tile on this display's clipboard.
   */
  async keys(key: string): Promise<{ done: string }> {
    const chords = parseChords(key)
    this.#live()
    const since = this.#events
    await this.#focusWindow()
    let pasted = ''
    for (const [index, chord] of chords.entries()) {
      if (pastes(chord)) pasted = await this.#takeClipboard()
      await this.#press([chord])
      if (copies(chord)) await this.#shareClipboard()
      if (index < chords.length - 1) await sleep(12)
    }
    await this.#settle(since)
    return { done: `pressed ${chords.join(' ')}${pasted}` }
  }

  /** Types text as keystrokes into whatever has the keyboard (a spreadsheet's cell has no text field to put it in). */
  async typeKeys(text: string): Promise<{ done: string }> {
    this.#live()
    const since = this.#events
    await this.#focusWindow()
    await this.#typeAsKeys(text)
    await this.#settle(since)
    return { done: `typed ${[...text].length} characters as keys` }
  }

  /** Every shortcut known for the app: its schema's, its menus', its toolkit's and the overlay's. */
  async shortcuts(category: string | undefined): Promise<{ shortcuts: JsonObject[] }> {
    const report = await this.discover(false)
    return { shortcuts: filterShortcuts(report.capabilities.shortcuts as unknown as Shortcut[], category) as unknown as JsonObject[] }
  }

  /** The discovery cascade (discovery.ts), cached by app and depth. */
  async discover(deep: boolean): Promise<CapabilityReport> {
    const { bus } = this.#live()
    const key = `${this.#options.appName}:${deep ? 'deep' : 'shallow'}`
    const known = discovered.get(key) ?? (deep ? undefined : discovered.get(`${this.#options.appName}:deep`))
    if (known !== undefined) return { ...known, cached: true }
    const report = await discoverCapabilities(
      {
        walkAll: () => walkAccessibles(bus, { hidden: true }),
        walkUnder: async (node) => (await walkFrom(bus, [node.ref], { hidden: true })).apps[0],
        frame: () => this.snapshot(),
        open: (node) => this.#open(node),
        closeAll: () => this.#escape(),
        openDialog: (node) => this.#open(node),
        toolkit: () => this.#toolkit(),
      },
      this.#options.appName,
      this.#options.schema,
      deep,
    )
    discovered.set(key, report)
    return report
  }

  /** A pointer click at a point of the tile (the display is the tile's own, so its coordinates are the tile's). */
  async clickAt(input: { x: number; y: number; button?: 'left' | 'middle' | 'right' | undefined; double?: boolean | undefined }): Promise<{ done: string }> {
    this.#inside(input)
    const since = this.#events
    await this.#pointer(input.x, input.y, BUTTON_NUMBERS[input.button ?? 'left'], input.double === true)
    await this.#settle(since)
    return { done: `clicked at ${input.x},${input.y}` }
  }

  /** Presses a button at one point of the tile, moves to another holding it, releases it there: a slider's knob, a selection, a dragged item. */
  async dragAt(input: { from: ScreenPoint; to: ScreenPoint; button?: 'left' | 'middle' | 'right' | undefined }): Promise<{ done: string }> {
    const { session } = this.#live()
    for (const point of [input.from, input.to]) this.#inside(point)
    const since = this.#events
    const button = BUTTON_NUMBERS[input.button ?? 'left']
    const path = dragPath(input.from, input.to)
    if (this.#x !== null) await this.#x.drag(input.from, path, button)
    else await session.run('xdotool', ['mousemove', '--sync', String(input.from.x), String(input.from.y), 'mousedown', String(button), ...path.flatMap((p) => ['mousemove', '--sync', String(p.x), String(p.y)]), 'mouseup', String(button)])
    await this.#settle(since)
    return { done: `dragged from ${input.from.x},${input.from.y} to ${input.to.x},${input.to.y}` }
  }

  /** Turns the mouse wheel at a point of the tile: dy clicks down (negative: up), dx right (negative: left). */
  async scrollAt(input: { x: number; y: number; dx?: number | undefined; dy?: number | undefined }): Promise<{ done: string }> {
    const { session } = this.#live()
    this.#inside(input)
    const clicks = wheelClicks(input.dx ?? 0, input.dy ?? 0)
    if (clicks.length === 0) throw new TesseraError('invalid_input', 'expected dx or dy: how many wheel clicks to scroll, found neither', { expected: ['dx', 'dy'], found: { dx: input.dx ?? null, dy: input.dy ?? null } })
    const since = this.#events
    if (this.#x !== null) await this.#x.wheel(input, clicks)
    else await session.run('xdotool', ['mousemove', '--sync', String(input.x), String(input.y), ...clicks.flatMap((button) => ['click', String(button)])])
    await this.#settle(since)
    return { done: `scrolled ${[input.dy ? `${Math.abs(input.dy)} ${input.dy < 0 ? 'up' : 'down'}` : '', input.dx ? `${Math.abs(input.dx)} ${input.dx < 0 ? 'left' : 'right'}` : ''].filter(Boolean).join(' and ')} at ${input.x},${input.y}` }
  }

  #inside(point: ScreenPoint): void {
    const { session } = this.#live()
    if (point.x >= session.width || point.y >= session.height) throw new TesseraError('invalid_input', `expected a point inside the tile (${session.width}×${session.height}), found ${point.x},${point.y}`, { expected: { width: session.width, height: session.height }, found: { x: point.x, y: point.y } })
  }

  /** Waits until a widget of this role (and name) is on the screen, or with `gone` is not; bounded by `time`. */
  async waitFor(input: { role: string; name?: string | undefined; gone?: boolean | undefined; time?: number | undefined }, signal: AbortSignal): Promise<{ done: string; waitedMs: number }> {
    const started = Date.now()
    const limit = (input.time ?? 10) * 1000
    const wanted = `${input.role}${input.name === undefined ? '' : ` ${JSON.stringify(input.name)}`}`
    for (;;) {
      const frame = await this.snapshot()
      const there = findNode(frame.tree, (node) => node.role === input.role && (input.name === undefined || (node.name ?? '').toLowerCase() === input.name.toLowerCase()))
      if (there !== (input.gone === true)) return { done: `${wanted} ${input.gone === true ? 'went' : 'is there'}`, waitedMs: Date.now() - started }
      if (Date.now() - started >= limit || signal.aborted) throw new TesseraError('timed_out', `waited ${Math.round(limit / 1000)} s for ${wanted} to ${input.gone === true ? 'go' : 'appear'}; it did not`, { expected: input as unknown as JsonObject, found: null })
      await sleep(150)
    }
  }

  // ── Inside ─────────────────────────────────────────────────────────────────────

  /** Opens a menu or popup by its own action, for discovery; waits for the app to show it. */
  async #open(node: AccessibleNode): Promise<void> {
    const { bus } = this.#live()
    const index = pressIndex(node.actions)
    if (index === undefined) return
    const since = this.#events
    await bus.call(node.ref, ATSPI_INTERFACES.action, 'DoAction', 'i', [index])
    await this.#settle(since)
  }

  /** Escape until no menu is open: what discovery opened, it closes. */
  async #escape(): Promise<void> {
    const { session } = this.#live()
    const since = this.#events
    await this.#focusWindow()
    await this.#press(['Escape'])
    await sleep(30)
    await this.#press(['Escape'])
    await this.#settle(since)
  }

  /** The toolkit the app says it is built with (AT-SPI's Application interface). */
  async #toolkit(): Promise<Toolkit | 'unknown'> {
    const { bus } = this.#live()
    const [apps] = await bus.call(REGISTRY, ATSPI_INTERFACES.accessible, 'GetChildren').catch(() => [[]])
    const app = ((apps as unknown[] | undefined) ?? []).map(refOf).find((ref) => ref !== undefined)
    if (app === undefined) return 'unknown'
    const [name, version, appName] = await Promise.all([
      bus.property(app, 'org.a11y.atspi.Application', 'ToolkitName').then(String).catch(() => ''),
      bus.property(app, 'org.a11y.atspi.Application', 'Version').then(String).catch(() => ''),
      bus.property(app, ATSPI_INTERFACES.accessible, 'Name').then(String).catch(() => ''),
    ])
    const major = Number.parseInt(version, 10)
    // LibreOffice's VCL speaks AT-SPI through its GTK 3 plugin and says GTK.
    if (/^(soffice|libreoffice)/i.test(appName)) return 'vcl'
    // GTK 2 (GIMP 2.10) speaks through GAIL and libatk-adaptor; its version is GTK's own.
    if (/^gtk$/i.test(name) || /gail/i.test(name)) return major >= 4 ? 'gtk4' : major === 2 ? 'gtk2' : 'gtk3'
    if (/^qt$/i.test(name)) return major >= 6 ? 'qt6' : 'qt5'
    if (/vcl|libreoffice|openoffice/i.test(name)) return 'vcl'
    if (/chrom|electron/i.test(name)) return 'electron'
    return 'unknown'
  }

  /** After a copy: what this display's clipboard holds goes to the tiles' shared clipboard. */
  async #shareClipboard(): Promise<void> {
    const { session } = this.#live()
    await sleep(60)
    const text = (await session.run('xclip', ['-selection', 'clipboard', '-o'], 3_000).catch(() => undefined))?.toString('utf8')
    if (text !== undefined && text !== '') this.#clipboardSerial = sharedClipboard.put(text, this.id).serial
  }

  /** Before a paste: a newer copy from another tile is put on this display's clipboard (xclip serves it until something else is copied here). */
  async #takeClipboard(): Promise<string> {
    const { session } = this.#live()
    const entry = sharedClipboard.get()
    if (entry === undefined || entry.serial <= this.#clipboardSerial || entry.from === this.id) return ''
    const file = join(session.dir, `clipboard-${entry.serial}.txt`)
    writeFileSync(file, entry.text, { mode: 0o600 })
    session.launch(['xclip', '-quiet', '-selection', 'clipboard', '-i', file])
    // xclip owns the selection once it has read the file: ask until it answers with the text.
    for (let tries = 0; tries < 40; tries++) {
      const now = (await session.run('xclip', ['-selection', 'clipboard', '-o'], 2_000).catch(() => undefined))?.toString('utf8')
      if (now === entry.text) break
      await sleep(25)
    }
    this.#clipboardSerial = entry.serial
    return ` (pasted ${[...entry.text].length} characters copied in ${entry.from})`
  }

  /** The first selection of a text widget, when it has one that is not empty. */
  async #selection(place: AccessiblePlace): Promise<{ start: number; end: number } | undefined> {
    const { bus } = this.#live()
    const [count] = await bus.call(place.ref, ATSPI_INTERFACES.text, 'GetNSelections').catch(() => [0])
    if (Number(count) < 1) return undefined
    const [start, end] = (await bus.call(place.ref, ATSPI_INTERFACES.text, 'GetSelection', 'i', [0]).catch(() => [0, 0])).map(Number) as [number, number]
    return end > start ? { start, end } : undefined
  }

  #live(): { session: DesktopSession; bus: AtspiBus } {
    if (this.#session === null || this.#bus === null) throw new TesseraError('conflict', `desktop tile ${this.id} is closed`, { found: this.id })
    return { session: this.#session, bus: this.#bus }
  }

  #place(nodeId: string): AccessiblePlace {
    const place = this.#places.get(nodeId)
    if (place === undefined) throw new TesseraError('not_found', `the widget ${nodeId} is not on the screen any more; take a new snapshot`, { found: nodeId })
    return place
  }

  /**
   * Text as keystrokes, through xdotool, which maps a key for a character the keymap lacks. A
   * newline as a key is not Return in every app: lines go as text, Return between them.
   */
  async #typeAsKeys(text: string): Promise<void> {
    const { session } = this.#live()
    const lines = text.split('\n')
    for (const [index, line] of lines.entries()) {
      if (line !== '') await session.run('xdotool', ['type', '--delay', '8', '--', line], 30_000)
      if (index < lines.length - 1) await this.#press(['Return'])
    }
  }

  /** Key chords through XTEST on the display's connection; a key the keyboard map lacks goes through xdotool, which maps one for it. */
  async #press(chords: readonly string[]): Promise<void> {
    const { session } = this.#live()
    if (this.#x !== null && (await this.#x.keys(chords))) return
    await session.run('xdotool', ['key', '--delay', '12', ...chords])
  }

  async #pointer(x: number, y: number, button: number, double: boolean): Promise<void> {
    const { session } = this.#live()
    if (this.#x !== null) return this.#x.click(x, y, button, double)
    await session.run('xdotool', ['mousemove', '--sync', String(x), String(y), 'click', ...(double ? ['--repeat', '2', '--delay', '80'] : []), String(button)])
  }

  /**
   * Gives the keyboard to the app's window a person would be typing in — a modal dialog when
   * one is open, else the active window, else the first — since no window manager runs to do it.
   */
  async #focusWindow(): Promise<void> {
    const { session } = this.#live()
    // The display is the tile's own: every window on it is one of its apps'.
    const name = await this.#typingWindowName()
    if (this.#x !== null) {
      const windows = await this.#x.windows().catch(() => [])
      const window = windows.find((w) => w.name === name) ?? windows.find((w) => w.name !== '') ?? windows[0]
      if (window !== undefined) await this.#x.focus(window.id)
      return
    }
    const byName = name === undefined ? '' : (await session.run('xdotool', ['search', '--onlyvisible', '--name', `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`]).catch(() => Buffer.from(''))).toString()
    const any = byName.trim() !== '' ? byName : (await session.run('xdotool', ['search', '--onlyvisible', '--name', '.']).catch(() => Buffer.from(''))).toString()
    const window = any.split('\n').find((line) => /^\d+$/.test(line.trim()))
    if (window !== undefined) await session.run('xdotool', ['windowfocus', '--sync', window.trim()]).catch(() => undefined)
  }

  /** The title of the top-level window that should take keys: a modal dialog, else an active window. */
  async #typingWindowName(): Promise<string | undefined> {
    const { bus } = this.#live()
    const [apps] = await bus.call(REGISTRY, ATSPI_INTERFACES.accessible, 'GetChildren').catch(() => [[]])
    const windows: Array<{ name: string; role: string; states: ReadonlySet<string> }> = []
    for (const app of ((apps as unknown[] | undefined) ?? []).map(refOf)) {
      if (app === undefined) continue
      const [tops] = await bus.call(app, ATSPI_INTERFACES.accessible, 'GetChildren').catch(() => [[]])
      for (const top of ((tops as unknown[] | undefined) ?? []).map(refOf)) {
        if (top === undefined) continue
        const [name, role, bits] = await Promise.all([
          bus.property(top, ATSPI_INTERFACES.accessible, 'Name').catch(() => ''),
          bus.call(top, ATSPI_INTERFACES.accessible, 'GetRoleName').then((body) => String(body[0])).catch(() => ''),
          bus.call(top, ATSPI_INTERFACES.accessible, 'GetState').then((body) => body[0]).catch(() => []),
        ])
        windows.push({ name: String(name), role, states: statesOf(bits) })
      }
    }
    const showing = windows.filter((w) => w.states.has('showing') || w.states.has('visible'))
    // With no window manager nothing gives a new dialog the focus: GIMP's Export Image shows
    // while its main window stays active. A window manager would have raised it, so a showing
    // dialog (the newest) comes before the active main window.
    const dialogs = showing.filter((w) => /dialog|file chooser|alert/.test(w.role))
    return (showing.find((w) => w.states.has('modal')) ?? dialogs.find((w) => w.states.has('active')) ?? dialogs.at(-1) ?? showing.find((w) => w.states.has('active')))?.name
  }

  /**
   * The `wasm` backend: the build's files on a loopback server of the tile's own, and Chromium
   * in app mode on them — a window with no browser around it, on the tile's display, in a
   * profile of the tile's. Without the sandbox, as browser tiles run it: root cannot have it.
   */
  async #serveWebBuild(build: WebBuild, document: string | undefined, session: DesktopSession): Promise<void> {
    this.#served = await serveWebBuild({ root: build.root, entry: build.entry, document, documentParam: build.documentParam })
    this.#command = [webRuntime(), `--app=${this.#served.url}`, '--no-first-run', '--no-default-browser-check', '--no-sandbox', '--disable-gpu', `--user-data-dir=${join(session.dir, 'home', 'web-profile')}`]
  }

  /**
   * The Electron specialist: the app's page read through its DevTools port by the browser
   * kind. An app whose port cannot be attached stays on AT-SPI, and its frame says why.
   */
  async #attachDevtools(): Promise<void> {
    const openPart = this.#options.openPart
    if (openPart === undefined) return
    const started = Date.now()
    let endpoint = this.#app?.devtools()
    while (endpoint === undefined && Date.now() - started < DEVTOOLS_WAIT_MS && this.#app?.child.exitCode === null && this.#app.child.signalCode === null) {
      await sleep(25)
      endpoint = this.#app.devtools()
    }
    if (endpoint === undefined) {
      this.#devtoolsProblem = `the app said no DevTools address within ${DEVTOOLS_WAIT_MS / 1000} s`
      return
    }
    try {
      const page = new DevtoolsPage(await openPart('browser', { app: { endpoint }, title: this.title }, `${this.id}-devtools`))
      this.#page = page
      this.#stopPage = page.subscribe(() => {
        for (const listener of this.#listeners) listener()
      })
    } catch (error) {
      this.#devtoolsProblem = error instanceof Error ? error.message.slice(0, 300) : String(error)
    }
  }

  async #waitForWindow(): Promise<void> {
    const { bus } = this.#live()
    const started = Date.now()
    for (;;) {
      const child = this.#app?.child
      if (child !== undefined && (child.exitCode !== null || child.signalCode !== null)) {
        throw new TesseraError('not_found', `${this.#command[0] ?? 'the app'} ended before it showed a window (${child.exitCode ?? child.signalCode})${this.#app?.lastWords() ? `: ${this.#app.lastWords()}` : ''}`, { found: this.#app?.lastWords() ?? null })
      }
      const walked = await walkAccessibles(bus).catch(() => undefined)
      if (walked?.apps.some((app) => app.children.length > 0)) return
      if (Date.now() - started > APP_START_MS) throw new TesseraError('timed_out', `${this.#command[0] ?? 'the app'} showed no window on AT-SPI within ${APP_START_MS / 1000} s${this.#app?.lastWords() ? ` (it said: ${this.#app.lastWords()})` : ''}`, { found: null })
      await sleep(100)
    }
  }

  /** Waits for the app to answer an action: its first event, then a moment without any; bounded either way. */
  async #settle(since: number): Promise<void> {
    const started = Date.now()
    for (;;) {
      await sleep(25)
      const now = Date.now()
      if (this.#events > since && now - this.#lastEventAt >= QUIET_MS) return
      if (this.#events === since && now - started >= FIRST_EVENT_MS) return
      if (now - started >= SETTLE_MAX_MS) return
    }
  }

  /** The address of the tile's accessibility bus, for tools that read it beside the tile (the bench's naive walk). */
  get accessibilityBus(): string {
    return this.#live().session.a11yBusAddress
  }

  /** How many frames were read whole, in part, or straight from the cache (the bench reads this). */
  get treeStats(): { fullWalks: number; refreshes: number; hits: number } {
    return { ...(this.#cache?.stats ?? { fullWalks: 0, refreshes: 0, hits: 0 }) }
  }

  #heard(event: AtspiEvent): void {
    this.#cache?.heard(event)
    this.#events++
    this.#lastEventAt = Date.now()
    // Many events come at once: the hub hears of them once per burst.
    if (this.#notifyPending) return
    this.#notifyPending = true
    setTimeout(() => {
      this.#notifyPending = false
      for (const listener of this.#listeners) listener()
    }, 50)
  }
}

function describe(place: AccessiblePlace): string {
  return place.name === '' ? place.role : `${place.role} ${JSON.stringify(place.name)}`
}

function findNode(node: UiNode, match: (node: UiNode) => boolean): boolean {
  return match(node) || (node.children ?? []).some((child) => findNode(child, match))
}
