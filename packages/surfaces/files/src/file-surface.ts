import { watch, type FSWatcher } from 'node:fs'
import {
  type ActionCall,
  type Frame,
  type JsonObject,
  type JsonValue,
  type PerformContext,
  type RiskAssessment,
  type Surface,
  TesseraError,
  sha256Hex,
} from '@tessera/protocol'
import { type ElementNode, box, buildFrame, createLayoutEngine, text } from '@tessera/ui'
import { FILE_ACTIONS } from './file-actions.js'
import { COLOR_TABLE, DEFAULT_GRID, type GridOptions, colorCategory, gridPosition } from './file-info.js'
import { type DirectoryScan, resolveDirectory, scanDirectory } from './operations.js'
import { type ResolvedRoot, type Root, chooseRoot, displayPath, openDirectory, prepareRoots } from './safe-path.js'

export interface FileSurfaceOptions {
  /** One or more roots; the first is the default ("/..." paths), others are "name:/...". */
  roots: readonly Root[]
  /** Surface id; default "files". */
  id?: string
  title?: string
  /** Directory the tile shows first; default "/" (the default root). */
  cwd?: string
  /** Grid columns (1–32, default 8) and cell size in px (48–400, default 120). */
  columns?: number
  cellSize?: number
  /** Entries drawn in the frame at most (1–2000, default 500); `list` pages through the rest. */
  maxFrameEntries?: number
}

/** How long after a write its own change events are recognised as such. */
const OWN_WRITE_GRACE_MS = 2_000

/** Height of one header row; the header has two (location, status) and the grid starts below it. */
const BAR_HEIGHT = 40

interface Location {
  root: ResolvedRoot
  relative: string
}

function checkedInteger(name: string, value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TesseraError('invalid_request', `file surface: expected ${name} to be an integer from ${min} to ${max}, found ${value}`, { expected: `${min}–${max}`, found: value })
  }
  return value
}

/** Keys name entries among siblings (ids survive insertions); long names are hashed to fit. */
function entryKey(name: string): string {
  return name.length <= 120 ? `n:${name}` : `h:${sha256Hex(name).slice(0, 32)}`
}

function shortName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 39)}…` : name
}

/**
 * A file browser tile over one or more roots. The frame is a grid of the current
 * directory's entries (one node per entry, at the x/y its FileInfo reports) under a
 * header; the six actions (file-actions.ts) belong to the whole tile. Paths in every
 * action are relative to a root, never to the current directory; the current directory
 * only sets the defaults of list and find and what the tile shows. A change on disk in the
 * shown directory is reported to subscribers, so a cached frame never shows old entries.
 */
export class FileSurface implements Surface {
  readonly kind = 'files' as const
  readonly id: string
  readonly title: string
  readonly grid: Readonly<GridOptions>
  readonly maxFrameEntries: number
  readonly #ready: Promise<ResolvedRoot[]>
  readonly #engine = createLayoutEngine()
  readonly #listeners = new Set<(frame?: Frame) => void>()
  #watcher: FSWatcher | null = null
  /** Names this tile is writing, until when: their change events are its own, already in the frame it answers with. */
  readonly #ownWrites = new Map<string, number>()
  #watched = ''
  #cwd: Location | null = null
  /** The checked roots, once ready: what a synchronous question (revealsSecrets) reads. */
  #prepared: ResolvedRoot[] | null = null
  #closed = false

  constructor(options: FileSurfaceOptions) {
    this.id = options.id ?? 'files'
    this.title = options.title ?? 'Files'
    const columns = checkedInteger('columns', options.columns, 1, 32, DEFAULT_GRID.columns)
    const cell = checkedInteger('cellSize', options.cellSize, 48, 400, DEFAULT_GRID.cell)
    this.grid = Object.freeze({ columns, cell, top: 2 * BAR_HEIGHT })
    this.maxFrameEntries = checkedInteger('maxFrameEntries', options.maxFrameEntries, 1, 2000, 500)
    const roots = [...options.roots]
    const start = options.cwd ?? '/'
    this.#ready = prepareRoots(roots).then(async (prepared) => {
      const directory = await resolveDirectory(prepared, start)
      this.#cwd = { root: directory.root, relative: directory.relative }
      this.#prepared = prepared
      return prepared
    })
    // Awaited by every call; this only keeps an early failure from being reported as unhandled.
    this.#ready.catch(() => undefined)
  }

  /** Resolves once the roots and the starting directory are checked; rejects with the configuration error. */
  async ready(): Promise<void> {
    await this.#ready
  }

  /** The checked roots (waits for the checks made at construction). */
  roots(): Promise<ResolvedRoot[]> {
    return this.#ready
  }

  /** The directory the tile shows, as a display path. */
  get cwd(): string {
    return this.#cwd === null ? '/' : displayPath(this.#cwd.root, this.#cwd.relative)
  }

  async snapshot(): Promise<Frame> {
    const roots = await this.#ready
    const cwd = this.#cwd as Location
    let scan: DirectoryScan
    let error: string | null = null
    try {
      const dir = await openDirectory(cwd.root, cwd.relative)
      try {
        scan = await scanDirectory(dir)
      } finally {
        await dir.close()
      }
    } catch (failure) {
      if (!(failure instanceof TesseraError)) throw failure
      scan = { entries: [], total: 0, capped: false }
      error = failure.message
    }
    return this.#frame(roots, cwd, scan, error)
  }

  #frame(roots: ResolvedRoot[], cwd: Location, scan: DirectoryScan, error: string | null): Frame {
    const { columns, cell, top } = this.grid
    const width = columns * cell
    const shown = scan.entries.slice(0, this.maxFrameEntries)
    const rows = Math.ceil(shown.length / columns)
    const hidden = scan.total - shown.length
    const location = displayPath(cwd.root, cwd.relative)

    const entries: ElementNode[] = shown.map((entry, index) => {
      const { x, y } = gridPosition(index, this.grid)
      const category = colorCategory(entry.name, entry.file_type)
      const colour = COLOR_TABLE[category]
      const path = displayPath(cwd.root, cwd.relative === '' ? entry.name : `${cwd.relative}/${entry.name}`)
      return box(
        {
          key: entryKey(entry.name),
          role: 'listitem',
          name: entry.name,
          value: entry.file_type,
          style: { position: 'absolute', left: x, top: y - top, width: cell, height: cell, padding: 6, border: `1px solid ${colour.hex}` },
          semantic: { data: { path, file_type: entry.file_type, color: colour.color, category } },
        },
        [text({ key: 'name', text: shortName(entry.name) }), text({ key: 'type', role: 'note', text: entry.file_type === 'file' ? category : entry.file_type })],
      )
    })

    const tree = box({ role: 'application', name: this.title, style: { width, flexDirection: 'column' } }, [
      box({ key: 'header', role: 'banner', style: { height: 2 * BAR_HEIGHT, flexDirection: 'column', justifyContent: 'center', paddingX: 8 } }, [
        text({ key: 'location', role: 'heading', text: location }),
        text({ key: 'count', role: 'status', text: error ?? `${scan.total} ${scan.total === 1 ? 'entry' : 'entries'}${cwd.root.readOnly ? ' · read-only' : ''}` }),
      ]),
      box({ key: 'grid', role: 'list', name: `Entries of ${location}`, style: { position: 'relative', width, height: rows * cell } }, entries),
      hidden > 0
        ? text({ key: 'more', role: 'status', text: `${hidden} more ${hidden === 1 ? 'entry' : 'entries'} not drawn${scan.capped ? ' (directory too large to sort fully)' : ''}; list with offset ${shown.length} to page through them` })
        : null,
    ])

    const state: JsonObject = {
      roots: roots.map((root) => ({ name: root.name, read_only: root.readOnly })),
      root: cwd.root.name,
      cwd: location,
      entries: scan.total,
      shown: shown.length,
      capped: scan.capped,
      error,
    }
    return buildFrame({
      surface: this.id,
      route: location,
      tree,
      state,
      viewport: { width, height: top + rows * cell + (hidden > 0 ? BAR_HEIGHT : 0) },
      layoutEngine: this.#engine,
      contracts: FILE_ACTIONS.contracts,
    })
  }

  async perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    if (this.#closed) throw new TesseraError('conflict', `surface "${this.id}" is closed`, { expected: 'open surface', found: 'closed' })
    return FILE_ACTIONS.perform(this, call, ctx)
  }

  assess(call: ActionCall): Promise<RiskAssessment | null> {
    return FILE_ACTIONS.assess(this, call)
  }

  /** A call on a root marked `secrets: "show"` (by its path, else the shown directory's root) hands its secrets to the agent. */
  revealsSecrets(call: ActionCall): boolean {
    const roots = this.#prepared
    if (roots === null || !roots.some((root) => root.showsSecrets)) return false
    const path = call.input !== null && typeof call.input === 'object' && !Array.isArray(call.input) ? call.input.path : undefined
    try {
      return (typeof path === 'string' ? chooseRoot(roots, path).root : this.#cwd?.root)?.showsSecrets === true
    } catch {
      // A path that names no root was refused by the action itself.
      return false
    }
  }

  /** Moves the tile to a directory (the navigate action). */
  async navigate(path: string, signal: AbortSignal): Promise<{ success: true; files_count: number; path: string }> {
    const directory = await resolveDirectory(await this.#ready, path)
    const dir = await openDirectory(directory.root, directory.relative)
    let scan: DirectoryScan
    try {
      scan = await scanDirectory(dir, signal)
    } finally {
      await dir.close()
    }
    this.#cwd = { root: directory.root, relative: directory.relative }
    this.#watch()
    return { success: true, files_count: scan.total, path: directory.display }
  }

  /** Tells subscribers when the shown directory changes on disk, by this tile's actions or anyone else. */
  subscribe(onChange: (frame?: Frame) => void): () => void {
    this.#listeners.add(onChange)
    this.#watch()
    return () => {
      this.#listeners.delete(onChange)
      if (this.#listeners.size === 0) this.#unwatch()
    }
  }

  #watch(): void {
    if (this.#listeners.size === 0 || this.#closed || this.#cwd === null) return
    const path = this.#cwd.root.real + (this.#cwd.relative === '' ? '' : `/${this.#cwd.relative}`)
    if (path === this.#watched && this.#watcher !== null) return
    this.#unwatch()
    this.#watched = path
    try {
      this.#watcher = watch(path, { persistent: false }, (_event, name) => {
        if (name !== null && this.#isOwnChange(name)) return
        for (const listener of this.#listeners) listener()
      })
      this.#watcher.on('error', () => this.#unwatch())
    } catch {
      // A directory that cannot be watched (gone, no inotify slots) is still snapshotted on every action.
      this.#watcher = null
    }
  }

  /**
   * Marks a path this tile is about to write. The gateway takes the frame after the action
   * anyway; reporting the tile's own write as a change too would cost every write a second
   * snapshot. Changes by anyone else, to any other name, are still reported.
   */
  expectOwnWrite(path: string): void {
    const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf(':')) + 1)
    if (name !== '') this.#ownWrites.set(name, Date.now() + OWN_WRITE_GRACE_MS)
  }

  #isOwnChange(name: string): boolean {
    // The temporary files of atomic writes (atomic-write.ts) never show in a listing that matters.
    if (name.startsWith('.tessera-') && name.endsWith('.tmp')) return true
    const until = this.#ownWrites.get(name)
    if (until === undefined) return false
    if (until >= Date.now()) return true
    this.#ownWrites.delete(name)
    return false
  }

  #unwatch(): void {
    this.#watcher?.close()
    this.#watcher = null
    this.#watched = ''
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#unwatch()
    this.#listeners.clear()
    this.#engine.dispose()
  }
}

/** Creates a file surface and waits until its roots and starting directory are checked. */
export async function createFileSurface(options: FileSurfaceOptions): Promise<FileSurface> {
  const surface = new FileSurface(options)
  await surface.ready()
  return surface
}
