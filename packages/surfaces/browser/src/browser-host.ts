import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from 'playwright-core'
import { TesseraError } from '@tessera/protocol'

/**
 * WebMCP (a page's own tools, `document.modelContext`) is behind a feature in Chromium. A
 * PageDown or a wheel scrolls at once, not in a 150 ms animation: an action's answer would
 * otherwise be read half-way through the scroll (measured: 37 px of a 700 px PageDown), and
 * read again when the animation's scroll events arrive.
 */
const CHROMIUM_ARGS = ['--enable-features=WebMCP', '--disable-smooth-scrolling']

/** Debian's Chromium; `TESSERA_CHROMIUM` names another build. */
export const DEFAULT_CHROMIUM = '/usr/lib/chromium/chromium'

export function chromiumPath(): string {
  return process.env.TESSERA_CHROMIUM ?? DEFAULT_CHROMIUM
}

/**
 * One Chromium per hub, started on first use and shared by every browser tile: each tile
 * gets a context of its own (cookies, storage and cache apart), so a second tile costs a
 * context, not a process. When the last tile closes, the browser goes too.
 */
export class BrowserHost {
  #browser: Promise<Browser> | null = null
  #users = 0
  /** A context made ready for the next tile while the browser runs, by the options it was made with. */
  #spare: { options: string; made: Promise<ReadyContext> } | null = null

  /**
   * A context of its own for a tile, `prepare`d (its scripts, its bindings), with its first
   * page: the one made ready beforehand (prepareNext) when it has the same options, else a new
   * one. A tile then opens without waiting for a context and a page (0.3 s when made while it
   * waits; with one tile beside it, a text file's tile opened and read 0.1–0.15 s sooner).
   */
  async readyContext(options: BrowserContextOptions, prepare: (context: BrowserContext) => Promise<void>): Promise<ReadyContext> {
    this.#users += 1
    try {
      const spare = this.#spare?.options === JSON.stringify(options) ? this.#spare.made : undefined
      if (spare !== undefined) this.#spare = null
      // One that could not be made, or whose browser went since, is made anew: its failure is this tile's to meet then.
      const taken = await spare?.catch(() => undefined)
      return taken !== undefined && !taken.page.isClosed() ? taken : await this.#make(options, prepare)
    } catch (error) {
      this.#users -= 1
      throw error
    }
  }

  /** Makes the next tile's context ready, while the browser runs for a tile: called once a tile has opened, so it does not slow that tile's first page. */
  prepareNext(options: BrowserContextOptions, prepare: (context: BrowserContext) => Promise<void>): void {
    const key = JSON.stringify(options)
    if (this.#users === 0 || this.#browser === null || this.#spare?.options === key) return
    this.#spare = { options: key, made: this.#make(options, prepare) }
    // Made for no one yet: a failure is met by the tile that would take it, which makes its own.
    this.#spare.made.catch(() => undefined)
  }

  async #make(options: BrowserContextOptions, prepare: (context: BrowserContext) => Promise<void>): Promise<ReadyContext> {
    const context = await (await this.#launch()).newContext(options)
    await prepare(context)
    return { context, page: await context.newPage() }
  }

  /** A persistent profile keeps its own process: Chromium locks a profile folder to one browser. */
  async persistentContext(folder: string, options: BrowserContextOptions): Promise<BrowserContext> {
    try {
      return await chromium.launchPersistentContext(folder, { ...options, executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS })
    } catch (error) {
      throw new TesseraError('conflict', `Chromium could not open the profile ${folder}: ${(error as Error).message.split('\n')[0]}`, { expected: 'a profile folder no other browser holds', found: folder })
    }
  }

  /** A tile's context closed: the browser stops once none is left. */
  async release(): Promise<void> {
    this.#users = Math.max(0, this.#users - 1)
    if (this.#users > 0 || this.#browser === null) return
    const browser = this.#browser
    this.#browser = null
    // A context made ready goes with the browser.
    this.#spare = null
    await (await browser.catch(() => null))?.close().catch(() => undefined)
  }

  #launch(): Promise<Browser> {
    if (this.#browser === null) {
      const executablePath = chromiumPath()
      this.#browser = chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS }).catch((error: unknown) => {
        this.#browser = null
        throw new TesseraError('not_found', `Chromium did not start from ${executablePath}: ${(error as Error).message.split('\n')[0]}`, {
          expected: 'Debian\'s chromium package (scripts/bootstrap installs it) or TESSERA_CHROMIUM naming a Chromium binary',
          found: executablePath,
        })
      })
      // A browser that dies (killed, crashed) is started again by the next tile.
      void this.#browser.then((browser) => browser.on('disconnected', () => (this.#browser = null))).catch(() => undefined)
    }
    return this.#browser
  }
}

/** A tile's context, prepared, with its first page. */
export interface ReadyContext {
  context: BrowserContext
  page: Page
}

/** The host every tile of this process shares. */
export const sharedBrowserHost = new BrowserHost()
