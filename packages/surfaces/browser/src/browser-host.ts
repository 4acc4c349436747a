import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core'
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

  async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    this.#users += 1
    try {
      const browser = await this.#launch()
      return await browser.newContext(options)
    } catch (error) {
      this.#users -= 1
      throw error
    }
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

/** The host every tile of this process shares. */
export const sharedBrowserHost = new BrowserHost()
