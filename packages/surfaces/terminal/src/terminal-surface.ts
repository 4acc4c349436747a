import {
  type ActionTarget,
  type Frame,
  type JsonObject,
  type JsonValue,
  type PerformContext,
  type RiskAssessment,
  type Surface,
  TesseraError,
} from '@tessera/protocol'
import { type ElementNode, type LayoutEngine, box, buildFrame, createLayoutEngine, scene, text } from '@tessera/ui'
import { classifyCommand } from './command-policy.js'
import { type KillOptions, ShellSession, type ShellSessionOptions } from './shell-session.js'
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
const SIGNALS = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'])

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

  async perform(target: ActionTarget, input: JsonValue | undefined, ctx: PerformContext): Promise<JsonValue | undefined> {
    ctx.signal.throwIfAborted()
    const args = inputObject(input)
    const session = this.session
    switch (target.id) {
      case 'execute':
        return session.execute(requireString(args, 'command'), { timeoutMs: optionalNumber(args, 'timeout_ms'), signal: ctx.signal })
      case 'start':
        return session.start(requireString(args, 'command'), { signal: ctx.signal })
      case 'read':
        return session.read({
          since: optionalSince(args),
          line: optionalNumber(args, 'line'),
          tail: optionalNumber(args, 'tail'),
          maxChars: optionalNumber(args, 'max_chars'),
        })
      case 'input':
        return session.input(optionalString(args, 'text') ?? '', { enter: optionalBoolean(args, 'enter'), keys: optionalStrings(args, 'keys') })
      case 'wait_for':
        return session.waitFor({
          pattern: optionalString(args, 'pattern'),
          prompt: optionalBoolean(args, 'prompt'),
          timeoutMs: optionalNumber(args, 'timeout_ms'),
          since: optionalSince(args),
          screen: optionalBoolean(args, 'screen'),
          signal: ctx.signal,
        })
      case 'interrupt':
        return session.interrupt()
      case 'kill': {
        const signal = optionalString(args, 'signal')
        if (signal !== undefined && !SIGNALS.has(signal)) {
          throw new TesseraError('invalid_input', `expected signal to be one of ${[...SIGNALS].join(', ')}, found ${signal}`, { expected: [...SIGNALS], found: signal })
        }
        const options: KillOptions = { restart: optionalBoolean(args, 'restart'), all: optionalBoolean(args, 'all'), signal: signal as NodeJS.Signals | undefined }
        return session.kill(options)
      }
      case 'close':
        await this.close()
        return { closed: true }
      default:
        throw new TesseraError('not_found', `terminal ${this.id} has no action "${target.id}"`, {
          expected: TERMINAL_ACTIONS.map((action) => action.id),
          found: target.id,
        })
    }
  }

  /**
   * Raises execute, start and input to the risk of the command they carry, as classified
   * from its parsed words. Advice for the approval gate only; see docs/terminal.md for its limits.
   */
  /** execute and wait_for carry their own timeout: the gateway must not cut them shorter. */
  timeoutFor(target: ActionTarget, input: JsonValue | undefined): number | null {
    if (target.id !== 'execute' && target.id !== 'wait_for') return null
    const args = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {}
    return typeof args.timeout_ms === 'number' && args.timeout_ms > 0 ? args.timeout_ms : null
  }

  assess(target: ActionTarget, input: JsonValue | undefined): RiskAssessment | null {
    if (target.id !== 'execute' && target.id !== 'start' && target.id !== 'input') return null
    const args = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {}
    const source = target.id === 'input' ? args.text : args.command
    if (typeof source !== 'string' || source.trim().length === 0) return null
    const classification = classifyCommand(source)
    const reason = classification.reasons.length > 0 ? classification.reasons.join('; ') : 'only read-only commands'
    return { risk: classification.risk, reason: `${classification.risk}: ${reason}` }
  }

  subscribe(onFrame: (frame: Frame) => void): () => void {
    let timer: NodeJS.Timeout | undefined
    let lastId: string | null = null
    const emit = async (): Promise<void> => {
      timer = undefined
      if (this.#closed) return
      try {
        const frame = await this.snapshot()
        if (frame.id !== lastId) {
          lastId = frame.id
          onFrame(frame)
        }
      } catch {
        // A frame that cannot be built now will be built on the next change.
      }
    }
    const off = this.session.onChange(() => {
      if (timer === undefined && !this.#closed) timer = setTimeout(() => void emit(), FRAME_DEBOUNCE_MS)
    })
    return () => {
      off()
      if (timer !== undefined) clearTimeout(timer)
    }
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
      box(
        { id: 'actions', role: 'toolbar', name: 'Terminal actions', style: { flexDirection: 'row', gap: 8 } },
        TERMINAL_ACTIONS.map((contract) =>
          box({ id: `action-${contract.id}`, role: 'button', name: contract.title, semantic: { agentAction: contract } }, [text({ id: `action-${contract.id}-label`, text: contract.id })]),
        ),
      ),
    ])
    return buildFrame({
      surface: this.id,
      route: `terminal/${this.id}`,
      tree,
      state,
      viewport: { width, height: height + 4 * CELL_HEIGHT },
      layoutEngine: this.#layout,
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

function inputObject(input: JsonValue | undefined): JsonObject {
  if (input === undefined || input === null) return {}
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new TesseraError('invalid_input', `expected the input to be an object, found ${Array.isArray(input) ? 'array' : typeof input}`, {
      expected: 'object',
      found: Array.isArray(input) ? 'array' : typeof input,
    })
  }
  return input
}

function requireString(args: JsonObject, name: string): string {
  const value = args[name]
  if (typeof value !== 'string') throw new TesseraError('invalid_input', `expected ${name} to be a string, found ${value === undefined ? 'nothing' : typeof value}`, { expected: 'string', found: typeof value })
  return value
}

function optionalString(args: JsonObject, name: string): string | undefined {
  const value = args[name]
  if (value === undefined) return undefined
  return requireString(args, name)
}

function optionalNumber(args: JsonObject, name: string): number | undefined {
  const value = args[name]
  if (value === undefined) return undefined
  if (typeof value !== 'number') throw new TesseraError('invalid_input', `expected ${name} to be a number, found ${typeof value}`, { expected: 'number', found: typeof value })
  return value
}

function optionalBoolean(args: JsonObject, name: string): boolean | undefined {
  const value = args[name]
  if (value === undefined) return undefined
  if (typeof value !== 'boolean') throw new TesseraError('invalid_input', `expected ${name} to be a boolean, found ${typeof value}`, { expected: 'boolean', found: typeof value })
  return value
}

function optionalStrings(args: JsonObject, name: string): string[] | undefined {
  const value = args[name]
  if (value === undefined) return undefined
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new TesseraError('invalid_input', `expected ${name} to be an array of strings`, { expected: 'string[]', found: typeof value })
  }
  return value as string[]
}

function optionalSince(args: JsonObject): number | 'last' | undefined {
  const value = args.since
  if (value === undefined || value === 'last') return value
  if (typeof value === 'number') return value
  throw new TesseraError('invalid_input', `expected since to be an offset or "last", found ${JSON.stringify(value)}`, { expected: 'integer or "last"', found: value })
}
