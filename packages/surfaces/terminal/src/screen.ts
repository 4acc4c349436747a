import { createRequire } from 'node:module'

// Loaded with require: the package's "module" entry points at a file it does not ship,
// which trips bundler-style resolvers (vite, vitest); its CommonJS main is fine.
const require = createRequire(import.meta.url)
const { Terminal } = require('@xterm/headless') as typeof import('@xterm/headless')
const { SerializeAddon } = require('@xterm/addon-serialize') as typeof import('@xterm/addon-serialize')

/** What a person's terminal needs to show this screen live: how it looks now, then every write after. */
export interface ScreenStream {
  cols: number
  rows: number
  /** Escape sequences that redraw the screen (and its scrollback) as it is. */
  screen: string
  stop(): void
}

export interface ScreenCursor {
  row: number
  col: number
}

export interface ScreenOptions {
  cols: number
  rows: number
  scrollback: number
  /** Answers to queries a program sends the terminal (cursor position, device attributes). */
  reply?: ((data: string) => void) | undefined
}

/**
 * What a human watching the terminal sees: an xterm.js screen model fed with everything
 * the shell prints. A write is parsed at once when nothing is queued, later otherwise;
 * `settle()` waits for all of them.
 */
export class Screen {
  readonly #term: InstanceType<typeof Terminal>
  #title = ''
  #pending = 0
  #idle: Array<() => void> = []
  #listeners = new Set<() => void>()
  readonly #writeListeners = new Set<(data: string) => void>()
  readonly #serializer = new SerializeAddon()
  #disposed = false

  constructor(options: ScreenOptions) {
    this.#term = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback,
      allowProposedApi: true,
      convertEol: false,
    })
    this.#term.loadAddon(this.#serializer)
    this.#term.onTitleChange((title) => {
      this.#title = title
    })
    const reply = options.reply
    if (reply !== undefined) this.#term.onData((data) => data.length > 0 && reply(data))
  }

  get cols(): number {
    return this.#term.cols
  }

  get rows(): number {
    return this.#term.rows
  }

  get title(): string {
    return this.#title
  }

  write(data: string): void {
    if (this.#disposed || data.length === 0) return
    this.#pending++
    for (const listener of this.#writeListeners) listener(data)
    // xterm parses a write on the next timer tick (≥ 1 ms in Node), unless it follows user
    // input, which it parses at once to keep typing latency low. Every command waits for
    // its screen to settle, so an empty "user input" before each write takes that tick off
    // every call; nothing is sent (onData skips the empty string), and the viewport, which
    // this screen never scrolls back, stays where it is.
    this.#term.input('', true)
    this.#term.write(data, () => {
      this.#pending--
      if (this.#pending === 0) {
        const idle = this.#idle
        this.#idle = []
        for (const resolve of idle) resolve()
      }
      for (const listener of this.#listeners) listener()
    })
  }

  /**
   * The screen as it is, then every write from that moment: once all writes so far are
   * parsed, the serialised screen and the subscription are taken in one step, so nothing
   * is shown twice or lost in between.
   */
  async stream(onData: (data: string) => void): Promise<ScreenStream> {
    await this.settle()
    const screen = this.#serializer.serialize()
    this.#writeListeners.add(onData)
    return { cols: this.cols, rows: this.rows, screen, stop: () => this.#writeListeners.delete(onData) }
  }

  /** Resolves once every write so far is parsed into the screen model. */
  settle(): Promise<void> {
    if (this.#pending === 0 || this.#disposed) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  /** The visible rows, trailing blanks trimmed. */
  lines(): string[] {
    const buffer = this.#term.buffer.active
    const out: string[] = []
    for (let row = 0; row < this.#term.rows; row++) {
      out.push((buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '').replace(/ +$/, ''))
    }
    return out
  }

  cursor(): ScreenCursor {
    const buffer = this.#term.buffer.active
    return { row: buffer.cursorY, col: buffer.cursorX }
  }

  /** Whether a full-screen program (vim, top, less) switched to the alternate screen. */
  get alternate(): boolean {
    return this.#term.buffer.active.type === 'alternate'
  }

  resize(cols: number, rows: number): void {
    this.#term.resize(cols, rows)
  }

  onParsed(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  dispose(): void {
    if (this.#disposed) return
    this.#disposed = true
    const idle = this.#idle
    this.#idle = []
    for (const resolve of idle) resolve()
    this.#listeners.clear()
    this.#term.dispose()
  }
}
