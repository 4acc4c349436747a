import {
  type ActionContract,
  type ActionTarget,
  type Frame,
  type JsonObject,
  type JsonValue,
  type PerformContext,
  type Surface,
  TesseraError,
  sha256Hex,
} from '@tessera/protocol'
import { type ElementNode, agentAction, box, buildFrame, createLayoutEngine, text } from '@tessera/ui'
import { COLOR_TABLE, DEFAULT_GRID, type GridOptions, colorCategory, gridPosition } from './file-info.js'
import { MAX_PATTERN_LENGTH } from './glob.js'
import { objectInput, optionalBoolean, optionalEnum, optionalInteger, optionalString, requiredString } from './input.js'
import { LIMITS, type DirectoryScan, editFile, findFiles, listDirectory, readFile, resolveDirectory, scanDirectory, writeFile } from './operations.js'
import { MAX_PATH_BYTES, type ResolvedRoot, type Root, displayPath, openDirectory, prepareRoots } from './safe-path.js'

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

/** Height of the header and of the toolbar above the grid; the grid starts below both. */
const BAR_HEIGHT = 40

const PATH_SCHEMA = { type: 'string', minLength: 0, maxLength: MAX_PATH_BYTES, description: 'Path relative to a root ("/" is the root; "name:/x" picks another root). Not relative to the current directory.' }

/** The surface's actions; every frame carries all of them, so an agent always sees the full tool set. */
export const FILE_ACTIONS = Object.freeze({
  list: agentAction({
    id: 'list',
    kind: 'list',
    title: 'List a directory',
    risk: 'read',
    inputSchema: {
      type: 'object',
      properties: {
        path: { ...PATH_SCHEMA, description: `${PATH_SCHEMA.description} Default: the directory the tile shows.` },
        offset: { type: 'integer', minimum: 0, description: 'Skip this many entries of the sorted listing (directories first, then by name).' },
        limit: { type: 'integer', minimum: 1, maximum: LIMITS.listMaxLimit, description: `Entries to return; default ${LIMITS.listDefaultLimit}. A page as long as the limit may have more after it.` },
      },
      additionalProperties: false,
    },
  }),
  navigate: agentAction({
    id: 'navigate',
    kind: 'navigate',
    title: 'Move the browser tile to a directory',
    // Read: it touches no file, is idempotent and undone by navigating back; only the
    // tile's view (state.cwd) moves, as a claims list's "open claim" does.
    risk: 'read',
    inputSchema: {
      type: 'object',
      properties: { path: PATH_SCHEMA },
      required: ['path'],
      additionalProperties: false,
    },
  }),
  find: agentAction({
    id: 'find',
    kind: 'search',
    title: 'Find files by glob pattern',
    risk: 'read',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: MAX_PATTERN_LENGTH, description: 'Glob relative to path: *, ?, [a-z], **, {a,b}. Without "/" it matches names at any depth (as **/pattern).' },
        path: { ...PATH_SCHEMA, description: `Directory to search; default: the directory the tile shows. ${PATH_SCHEMA.description}` },
        max_results: { type: 'integer', minimum: 1, maximum: LIMITS.findMaxResults, description: `Default ${LIMITS.findDefaultResults}; "truncated" says when more exist.` },
        max_depth: { type: 'integer', minimum: 1, maximum: LIMITS.findMaxDepth, description: `Directory levels below path; default ${LIMITS.findDefaultDepth}.` },
        include_hidden: { type: 'boolean', description: 'Let wildcards match names starting with "." and search hidden directories; default false.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  }),
  read: agentAction({
    id: 'read',
    kind: 'read',
    title: 'Read a file',
    risk: 'read',
    inputSchema: {
      type: 'object',
      properties: {
        path: PATH_SCHEMA,
        max_bytes: { type: 'integer', minimum: 1, maximum: LIMITS.readMaxBytes, description: `Default ${LIMITS.readDefaultBytes} (256 KiB); at most ${LIMITS.readMaxBytes} (16 MiB).` },
        offset: { type: 'integer', minimum: 0, description: 'Byte offset to start at; continue with next_offset.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  }),
  write: agentAction({
    id: 'write',
    kind: 'write',
    title: 'Write a whole file',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: {
        path: PATH_SCHEMA,
        content: { type: 'string', description: `The new contents; at most ${LIMITS.writeMaxBytes} bytes once decoded.` },
        encoding: { type: 'string', enum: ['utf8', 'base64'], description: 'How content is encoded; default utf8.' },
        create_dirs: { type: 'boolean', description: 'Create missing parent directories; default false.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  }),
  edit: agentAction({
    id: 'edit',
    kind: 'edit',
    title: 'Replace exact text in a file',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: {
        path: PATH_SCHEMA,
        old_text: { type: 'string', minLength: 1, description: 'Exact text to replace (non-overlapping occurrences).' },
        new_text: { type: 'string' },
        expected_count: { type: 'integer', minimum: 1, description: 'How many occurrences must exist; default 1. Nothing changes otherwise.' },
      },
      required: ['path', 'old_text', 'new_text'],
      additionalProperties: false,
    },
  }),
} satisfies Record<string, ActionContract>)

export type FileActionId = keyof typeof FILE_ACTIONS

const BUTTONS: Array<[FileActionId, string]> = [
  ['list', 'List'],
  ['navigate', 'Go to'],
  ['find', 'Find'],
  ['read', 'Read'],
  ['write', 'Write'],
  ['edit', 'Edit'],
]

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
 * header and a toolbar carrying the six actions. Paths in every action are relative to a
 * root, never to the current directory; the current directory only sets the defaults of
 * list and find and what the tile shows.
 */
export class FileSurface implements Surface {
  readonly kind = 'files' as const
  readonly id: string
  readonly title: string
  readonly grid: Readonly<GridOptions>
  readonly maxFrameEntries: number
  readonly #ready: Promise<ResolvedRoot[]>
  readonly #engine = createLayoutEngine()
  readonly #listeners = new Set<(frame: Frame) => void>()
  #cwd: Location | null = null
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
      return prepared
    })
    // Awaited by every call; this only keeps an early failure from being reported as unhandled.
    this.#ready.catch(() => undefined)
  }

  /** Resolves once the roots and the starting directory are checked; rejects with the configuration error. */
  async ready(): Promise<void> {
    await this.#ready
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

    const buttonWidth = Math.floor(width / BUTTONS.length)
    const tree = box({ role: 'application', name: this.title, style: { width, flexDirection: 'column' } }, [
      box({ key: 'header', role: 'banner', style: { height: BAR_HEIGHT, flexDirection: 'row', alignItems: 'center', justifyContent: 'space-between', paddingX: 8 } }, [
        text({ key: 'location', role: 'heading', text: location }),
        text({ key: 'count', role: 'status', text: error ?? `${scan.total} ${scan.total === 1 ? 'entry' : 'entries'}${cwd.root.readOnly ? ' · read-only' : ''}` }),
      ]),
      box(
        { key: 'toolbar', role: 'toolbar', style: { height: BAR_HEIGHT, flexDirection: 'row' } },
        BUTTONS.map(([id, label]) =>
          box({ role: 'button', name: FILE_ACTIONS[id].title, semantic: { agentAction: FILE_ACTIONS[id] }, style: { width: buttonWidth, height: BAR_HEIGHT, padding: 8 } }, [text({ key: 'label', text: label })]),
        ),
      ),
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
    })
  }

  async perform(target: ActionTarget, input: JsonValue | undefined, ctx: PerformContext): Promise<JsonValue | undefined> {
    ctx.signal.throwIfAborted()
    if (this.#closed) throw new TesseraError('conflict', `surface "${this.id}" is closed`, { expected: 'open surface', found: 'closed' })
    const roots = await this.#ready
    const action = target.id
    switch (action) {
      case 'list': {
        const args = objectInput(action, input, ['path', 'offset', 'limit'])
        const listing = await listDirectory(roots, optionalString(action, args, 'path') ?? this.cwd, {
          offset: optionalInteger(action, args, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
          limit: optionalInteger(action, args, 'limit', { min: 1, max: LIMITS.listMaxLimit, fallback: LIMITS.listDefaultLimit }),
          grid: this.grid,
          signal: ctx.signal,
        })
        return listing.files
      }
      case 'navigate': {
        const args = objectInput(action, input, ['path'])
        const directory = await resolveDirectory(roots, requiredString(action, args, 'path'))
        const dir = await openDirectory(directory.root, directory.relative)
        let scan: DirectoryScan
        try {
          scan = await scanDirectory(dir, ctx.signal)
        } finally {
          await dir.close()
        }
        this.#cwd = { root: directory.root, relative: directory.relative }
        this.#notify()
        return { success: true, files_count: scan.total, path: directory.display }
      }
      case 'find': {
        const args = objectInput(action, input, ['pattern', 'path', 'max_results', 'max_depth', 'include_hidden'])
        return await findFiles(roots, {
          pattern: requiredString(action, args, 'pattern'),
          path: optionalString(action, args, 'path') ?? this.cwd,
          maxResults: optionalInteger(action, args, 'max_results', { min: 1, max: LIMITS.findMaxResults, fallback: LIMITS.findDefaultResults }),
          maxDepth: optionalInteger(action, args, 'max_depth', { min: 1, max: LIMITS.findMaxDepth, fallback: LIMITS.findDefaultDepth }),
          includeHidden: optionalBoolean(action, args, 'include_hidden', false),
          signal: ctx.signal,
        })
      }
      case 'read': {
        const args = objectInput(action, input, ['path', 'max_bytes', 'offset'])
        return await readFile(roots, requiredString(action, args, 'path'), {
          maxBytes: optionalInteger(action, args, 'max_bytes', { min: 1, max: LIMITS.readMaxBytes, fallback: LIMITS.readDefaultBytes }),
          offset: optionalInteger(action, args, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
        })
      }
      case 'write': {
        const args = objectInput(action, input, ['path', 'content', 'encoding', 'create_dirs'])
        const result = await writeFile(roots, requiredString(action, args, 'path'), {
          content: requiredString(action, args, 'content'),
          encoding: optionalEnum(action, args, 'encoding', ['utf8', 'base64'] as const, 'utf8'),
          createDirs: optionalBoolean(action, args, 'create_dirs', false),
        })
        this.#notify()
        return result
      }
      case 'edit': {
        const args = objectInput(action, input, ['path', 'old_text', 'new_text', 'expected_count'])
        const result = await editFile(roots, requiredString(action, args, 'path'), {
          oldText: requiredString(action, args, 'old_text'),
          newText: requiredString(action, args, 'new_text'),
          expectedCount: optionalInteger(action, args, 'expected_count', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 }),
        })
        this.#notify()
        return result
      }
      default:
        throw new TesseraError('not_found', `surface "${this.id}" has no action "${action}"; expected one of ${Object.keys(FILE_ACTIONS).join(', ')}`, { expected: Object.keys(FILE_ACTIONS), found: action })
    }
  }

  subscribe(onFrame: (frame: Frame) => void): () => void {
    this.#listeners.add(onFrame)
    return () => this.#listeners.delete(onFrame)
  }

  /** Pushes a fresh frame to subscribers after an action that may have changed the view. */
  #notify(): void {
    if (this.#listeners.size === 0) return
    this.snapshot().then(
      (frame) => {
        for (const listener of this.#listeners) listener(frame)
      },
      () => undefined,
    )
  }

  async close(): Promise<void> {
    this.#closed = true
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
