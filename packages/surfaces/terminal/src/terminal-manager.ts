import { TesseraError } from '@tessera/protocol'
import type { SandboxOptions } from './sandbox.js'
import type { ShellSessionOptions } from './shell-session.js'
import { TerminalSurface } from './terminal-surface.js'

export interface CreateTerminalOptions {
  /** Map position of the terminal's tile; default the next free grid slot. */
  x?: number | undefined
  y?: number | undefined
  cwd?: string | undefined
  shell?: string | undefined
  /** Run inside bubblewrap; overrides the manager's default sandbox. */
  sandbox?: SandboxOptions | undefined
}

export interface TerminalManagerOptions {
  /** Applied to every terminal unless create() says otherwise. */
  defaults?: Omit<ShellSessionOptions, 'cwd' | 'shell' | 'sandbox'> | undefined
  /** Working directory of new terminals; default the process's. */
  cwd?: string | undefined
  /** Every new terminal runs in this sandbox (create() may name another, not none). */
  sandbox?: SandboxOptions | undefined
  /** Told whenever a terminal is created, closed, focused or moved. */
  onChange?: (() => void) | undefined
}

export interface TerminalInfo {
  [key: string]: string | number | boolean
  id: string
  working_dir: string
  focused: boolean
  busy: boolean
  x: number
  y: number
  status: string
}

interface Entry {
  surface: TerminalSurface
  x: number
  y: number
}

const GRID_X = 100
const GRID_Y = 100
const TILE_STEP_X = 1100
const TILE_STEP_Y = 700
const GRID_COLUMNS = 4

/** The hub's terminals: ids `term-<n>`, map positions, one focused terminal. */
export class TerminalManager {
  readonly #options: TerminalManagerOptions
  readonly #terminals = new Map<string, Entry>()
  #next = 1
  #focused: string | null = null

  constructor(options: TerminalManagerOptions = {}) {
    this.#options = options
  }

  async create(options: CreateTerminalOptions = {}): Promise<{ terminal_id: string; x: number; y: number; surface: TerminalSurface }> {
    const n = this.#next++
    const id = `term-${n}`
    const slot = this.#terminals.size
    const x = position(options.x, GRID_X + (slot % GRID_COLUMNS) * TILE_STEP_X, 'x')
    const y = position(options.y, GRID_Y + Math.floor(slot / GRID_COLUMNS) * TILE_STEP_Y, 'y')
    const sandbox = options.sandbox ?? this.#options.sandbox
    const surface = await TerminalSurface.create({
      ...this.#options.defaults,
      id,
      cwd: options.cwd ?? this.#options.cwd,
      shell: options.shell,
      sandbox,
    })
    this.#terminals.set(id, { surface, x, y })
    this.#focused = id
    this.#options.onChange?.()
    return { terminal_id: id, x, y, surface }
  }

  get(id: string): TerminalSurface {
    return this.#entry(id).surface
  }

  /** The named terminal, or the focused one when no id is given. */
  resolve(id?: string): TerminalSurface {
    if (id !== undefined) return this.get(id)
    if (this.#focused === null) throw new TesseraError('not_found', 'no terminal is open; create one first', { expected: 'an open terminal', found: 'none' })
    return this.get(this.#focused)
  }

  list(): TerminalInfo[] {
    return [...this.#terminals.entries()].map(([id, entry]) => ({
      id,
      working_dir: entry.surface.session.cwd,
      focused: id === this.#focused,
      busy: entry.surface.session.busy,
      x: entry.x,
      y: entry.y,
      status: entry.surface.session.status,
    }))
  }

  surfaces(): TerminalSurface[] {
    return [...this.#terminals.values()].map((entry) => entry.surface)
  }

  focus(id: string): { success: true } {
    this.#entry(id)
    this.#focused = id
    this.#options.onChange?.()
    return { success: true }
  }

  move(id: string, x: number, y: number): { success: true } {
    const entry = this.#entry(id)
    entry.x = position(x, entry.x, 'x')
    entry.y = position(y, entry.y, 'y')
    this.#options.onChange?.()
    return { success: true }
  }

  async close(id: string): Promise<{ success: true }> {
    const entry = this.#entry(id)
    this.#terminals.delete(id)
    if (this.#focused === id) this.#focused = [...this.#terminals.keys()].pop() ?? null
    await entry.surface.close()
    this.#options.onChange?.()
    return { success: true }
  }

  async closeAll(): Promise<void> {
    const ids = [...this.#terminals.keys()]
    await Promise.all(ids.map((id) => this.close(id)))
  }

  #entry(id: string): Entry {
    const entry = this.#terminals.get(id)
    if (entry === undefined) {
      throw new TesseraError('not_found', `no terminal "${id}"; open terminals: ${[...this.#terminals.keys()].join(', ') || 'none'}`, {
        expected: [...this.#terminals.keys()],
        found: id,
      })
    }
    return entry
  }
}

function position(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TesseraError('invalid_input', `expected ${name} to be a finite number, found ${JSON.stringify(value)}`, { expected: 'finite number', found: value })
  }
  return value
}
