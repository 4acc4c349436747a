import {
  type ActionCall,
  type Frame,
  type JsonObject,
  type JsonValue,
  type PerformContext,
  type RiskAssessment,
  type Surface,
  type TerminalStream,
  TesseraError,
} from '@tessera/protocol'
import { type ElementNode, type LayoutEngine, box, buildFrame, createLayoutEngine, scene, text } from '@tessera/ui'
import { ShellSession, type ShellSessionOptions } from './shell-session.js'
import { TERMINAL_ACTIONS } from './terminal-actions.js'

export interface TerminalSurfaceOptions extends ShellSessionOptions {
  /** Surface id, e.g. `term-1`. */
  id: string
  /** Shown when no program has set a title. */
  title?: string | undefined
}

/** Pixel metrics of the frame's layout: one monospace cell per character at the default font size. */
const CELL_WIDTH = 8.4
const CELL_HEIGHT = 17.5
const FRAME_DEBOUNCE_MS = 50

/**
 * A shell as a surface. The frame is the screen a human watches (one text node per
 * non-empty row, ids `line-<row>`, so the same screen always yields the same frame), the
 * cursor, a status line and the terminal's actions; state carries what conditions need.
 */
export class TerminalSurface implements Surface {
  readonly kind = 'terminal' as const
  readonly id: string
  readonly session: ShellSession
  readonly #defaultTitle: string
  readonly #layout: LayoutEngine = createLayoutEngine()
  #closed = false
  #lastFrame: Frame | null = null

  private constructor(id: string, session: ShellSession, title: string) {
    this.id = id
    this.session = session
    this.#defaultTitle = title
  }

  static async create(options: TerminalSurfaceOptions): Promise<TerminalSurface> {
    if (typeof options.id !== 'string' || options.id.length === 0) {
      throw new TesseraError('invalid_input', 'expected a non-empty terminal id', { expected: 'non-empty string', found: options.id })
    }
    const session = await ShellSession.start(options)
    return new TerminalSurface(options.id, session, options.title ?? `Terminal ${options.id}`)
  }

  get title(): string {
    return (this.#closed ? '' : this.session.screen.title) || this.#defaultTitle
  }

  async snapshot(): Promise<Frame> {
    if (this.#closed) {
      if (this.#lastFrame !== null) return this.#lastFrame
      throw new TesseraError('conflict', `terminal ${this.id} is closed`, { expected: 'an open terminal', found: 'closed' })
    }
    await this.session.screen.settle()
    const frame = this.#frame()
    this.#lastFrame = frame
    return frame
  }

  async perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    return TERMINAL_ACTIONS.perform(this, call, ctx)
  }

  /** Raises execute, start and input to the risk of the command they carry; advice for the approval gate only (docs/terminal.md). */
  assess(call: ActionCall): Promise<RiskAssessment | null> {
    return TERMINAL_ACTIONS.assess(this, call)
  }

  /** execute and wait_for carry their own timeout: the gateway must not cut them shorter. */
  timeoutFor(call: ActionCall): number | null {
    return TERMINAL_ACTIONS.timeoutFor(call)
  }

  /**
   * Tells the host when the screen changed (output, a resize), debounced: output comes in
   * bursts. No frame is built here; whoever reads next takes the one snapshot.
   */
  subscribe(onChange: (frame?: Frame) => void): () => void {
    let timer: NodeJS.Timeout | undefined
    const off = this.session.onChange(() => {
      if (timer === undefined && !this.#closed)
        timer = setTimeout(() => {
          timer = undefined
          if (!this.#closed) onChange()
        }, FRAME_DEBOUNCE_MS)
    })
    return () => {
      off()
      if (timer !== undefined) clearTimeout(timer)
    }
  }

  terminalStream(onData: (data: string) => void): Promise<TerminalStream> {
    if (this.#closed) return Promise.reject(new TesseraError('conflict', `terminal ${this.id} is closed`, { expected: 'an open terminal', found: 'closed' }))
    return this.session.screen.stream(onData)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    try {
      this.#lastFrame = await this.snapshot()
    } catch {
      // Closing must not depend on a last frame.
    }
    this.#closed = true
    await this.session.close()
    this.#layout.dispose()
  }

  #frame(): Frame {
    const session = this.session
    const screen = session.screen
    const lines = screen.lines()
    const cursor = screen.cursor()
    const state = {
      cwd: session.cwd,
      shellDefinitions: session.definitions,
      status: session.status,
      busy: session.busy,
      running: session.current,
      lastExitCode: session.lastExitCode,
      promptReady: session.promptReady,
      cols: screen.cols,
      rows: screen.rows,
      title: this.title,
      cursor: { row: cursor.row, col: cursor.col },
      alternateScreen: screen.alternate,
      sandboxed: session.sandboxed,
    } satisfies JsonObject
    const rows: ElementNode[] = []
    lines.forEach((line, row) => {
      if (line.length === 0) return
      rows.push(text({ id: `line-${row}`, text: line, style: { position: 'absolute', top: row * CELL_HEIGHT, left: 0, height: CELL_HEIGHT } }))
    })
    rows.push(
      box({
        id: 'cursor',
        role: 'caret',
        name: `cursor at row ${cursor.row}, column ${cursor.col}`,
        style: { position: 'absolute', top: cursor.row * CELL_HEIGHT, left: cursor.col * CELL_WIDTH, width: CELL_WIDTH, height: CELL_HEIGHT },
      }),
    )
    const width = Math.ceil(screen.cols * CELL_WIDTH)
    const height = Math.ceil(screen.rows * CELL_HEIGHT)
    const tree = scene({ id: 'terminal', name: this.title }, [
      box({ id: 'screen', role: 'log', name: 'Screen', style: { width, height } }, rows),
      text({ id: 'status', role: 'status', text: statusLine(session) }),
    ])
    return buildFrame({
      surface: this.id,
      route: `terminal/${this.id}`,
      tree,
      state,
      viewport: { width, height: height + 2 * CELL_HEIGHT },
      layoutEngine: this.#layout,
      contracts: TERMINAL_ACTIONS.contracts,
      validateTree: false,
    })
  }
}

function statusLine(session: ShellSession): string {
  const parts = [session.cwd, session.status]
  const running = session.current
  if (running !== null) parts.push(`running: ${running.split('\n')[0]}`)
  parts.push(`last exit: ${session.lastExitCode ?? '-'}`)
  if (session.sandboxed) parts.push('sandboxed')
  return parts.join(' · ')
}
