import { type Dirent, closeSync, constants, openSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { TesseraError } from '@tessera/protocol'
import { errnoOf, fsFailure } from './errors.js'
import type { FileType } from './file-info.js'
import { type GlobState, compileGlob } from './glob.js'
import { LIMITS, childRelative, direntType, resolveDirectory } from './operations.js'
import { type ResolvedRoot, type Root, USES_PROC_FD, displayPath, openDirectory } from './safe-path.js'

export type FindMatch = { name: string; path: string; type: FileType }

export type FindLimit = 'max_results' | 'max_depth' | 'max_scanned'

export type FindResult = {
  /** The directory searched, as a display path. */
  base: string
  matches: FindMatch[]
  count: number
  /** True when a bound was hit and more matches may exist; `limits` says which. */
  truncated: boolean
  limits: FindLimit[]
  /** Entries examined. */
  scanned: number
  /** Directories that could not be opened (vanished, permission, swapped for a symlink). */
  skipped_directories: number
}

export interface FindOptions {
  pattern: string
  path: string
  maxResults?: number
  maxDepth?: number
  includeHidden?: boolean
  signal?: AbortSignal
  /** Overrides LIMITS.findMaxScanned (for tests). */
  maxScanned?: number
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0)
/**
 * Directories opened and read ahead of the walk (the next ones it will pop), so reads run on
 * the thread pool in parallel while the walk matches names; consumed in walk order, so the
 * results stay deterministic. Bounds the descriptors held: depth + READ_AHEAD.
 */
const READ_AHEAD = 16

/** An open directory of the walk; closed once read and once every child below it is open. */
interface OpenDirectory {
  /** Where to read it: /proc/self/fd/N on Linux (the descriptor itself), else its verified path. */
  path: string
  fd: number
  /** Children on the stack that still need this directory to open them. */
  pending: number
  read: boolean
  close: () => void
}

interface Listing {
  entries: Dirent[]
  capped: boolean
}

interface PendingDirectory {
  parent: OpenDirectory
  name: string
  relative: string
  depth: number
  state: GlobState
  /** Opened and being read, once read-ahead reached it; null: it could not be opened or read. */
  loading?: Promise<{ dir: OpenDirectory; listing: Listing } | null>
}

function release(dir: OpenDirectory): void {
  if (dir.read && dir.pending === 0) dir.close()
}

/** Every directory the walk holds open, so an early end or an error closes them all. */
class OpenSet {
  readonly #open = new Set<OpenDirectory>()

  add(path: string, fd: number, closeFd: () => void): OpenDirectory {
    const dir: OpenDirectory = {
      path,
      fd,
      pending: 0,
      read: false,
      close: () => {
        if (this.#open.delete(dir)) closeFd()
      },
    }
    this.#open.add(dir)
    return dir
  }

  closeAll(): void {
    for (const dir of [...this.#open]) dir.close()
  }
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

/** Directories first, then by name (the listing order of the file tile), asking each entry its type once. */
function sortedEntries(dirents: Dirent[]): Dirent[] {
  const directories: Dirent[] = []
  const others: Dirent[] = []
  for (const dirent of dirents) (dirent.isDirectory() ? directories : others).push(dirent)
  directories.sort(byName)
  others.sort(byName)
  return directories.concat(others)
}

const SKIPPABLE = new Set(['ENOENT', 'EACCES', 'EPERM', 'ELOOP', 'ENOTDIR'])

/**
 * Opens a child directory of an open one, never through a symlink: on Linux by name inside
 * the parent's descriptor (/proc/self/fd/N/name, O_NOFOLLOW), synchronously, so the parent
 * is still open; a directory swapped for a link during the walk is refused, not followed.
 * Elsewhere through the verified open of safe-path. Null when it cannot be opened
 * (vanished, denied, swapped): the walk counts it as skipped and goes on.
 */
async function openChild(root: ResolvedRoot, pending: PendingDirectory, open: OpenSet): Promise<OpenDirectory | null> {
  try {
    if (USES_PROC_FD) {
      let fd: number
      try {
        fd = openSync(`/proc/self/fd/${pending.parent.fd}/${pending.name}`, OPEN_FLAGS)
      } finally {
        pending.parent.pending -= 1
        release(pending.parent)
      }
      return open.add(`/proc/self/fd/${fd}`, fd, () => closeSync(fd))
    }
    pending.parent.pending -= 1
    release(pending.parent)
    const dir = await openDirectory(root, pending.relative)
    // Closing a FileHandle is asynchronous; nothing waits on it, and a failure to close is not the walk's.
    return open.add(dir.base, dir.handle.fd, () => void dir.close().catch(() => undefined))
  } catch (error) {
    if (error instanceof TesseraError || SKIPPABLE.has(errnoOf(error) ?? '')) return null
    throw fsFailure(error, displayPath(root, pending.relative), root.name, 'open the directory')
  }
}

/** Reads an open directory, sorted (directories first, then by name); null when it cannot be read. */
async function readListing(root: ResolvedRoot, dir: OpenDirectory, relative: string): Promise<Listing | null> {
  try {
    const dirents = await readdir(dir.path, { withFileTypes: true })
    const kept = dirents.length > LIMITS.directoryScanCap ? dirents.slice(0, LIMITS.directoryScanCap) : dirents
    return { entries: sortedEntries(kept), capped: kept.length < dirents.length }
  } catch (error) {
    if (SKIPPABLE.has(errnoOf(error) ?? '')) return null
    throw fsFailure(error, displayPath(root, relative), root.name, 'read the directory')
  } finally {
    dir.read = true
  }
}

async function load(root: ResolvedRoot, pending: PendingDirectory, open: OpenSet): Promise<{ dir: OpenDirectory; listing: Listing } | null> {
  const dir = await openChild(root, pending, open)
  if (dir === null) return null
  const listing = await readListing(root, dir, pending.relative)
  if (listing === null) {
    dir.close()
    return null
  }
  return { dir, listing }
}

/**
 * Finds entries below `path` whose path relative to it matches a glob. A depth-first walk
 * in sorted order (so results, and where a bound cuts them, are deterministic); each
 * directory is opened by name inside its already-open parent, never through a symlink, so
 * the walk cannot leave the root even when the tree changes under it; symlinks are reported
 * as entries but never followed. A directory is entered only while the glob (a linear-time
 * matcher) can still match below it and its depth is under max_depth. Bounded by
 * max_results, max_depth and LIMITS.findMaxScanned entries; `limits` reports which bound cut
 * the search short. Entries directly in `path` have depth 1.
 */
export async function findFiles(roots: readonly (Root | ResolvedRoot)[], options: FindOptions): Promise<FindResult> {
  const glob = compileGlob(options.pattern, { dot: options.includeHidden === true })
  const base = await resolveDirectory(roots, options.path)
  const root = base.root
  const maxResults = options.maxResults ?? LIMITS.findDefaultResults
  const maxDepth = options.maxDepth ?? LIMITS.findDefaultDepth
  const maxScanned = options.maxScanned ?? LIMITS.findMaxScanned
  const matches: FindMatch[] = []
  const limits = new Set<FindLimit>()
  let scanned = 0
  let skipped = 0

  const baseDir = await openDirectory(root, base.relative)
  const open = new OpenSet()
  // The base's handle is closed by its owner below, after the walk.
  const baseOpen = open.add(baseDir.base, baseDir.handle.fd, () => undefined)
  const stack: PendingDirectory[] = []
  const startLoading = (pending: PendingDirectory): Promise<{ dir: OpenDirectory; listing: Listing } | null> => {
    pending.loading ??= load(root, pending, open)
    return pending.loading
  }
  try {
    const baseListing = await readListing(root, baseOpen, base.relative)
    if (baseListing === null) throw fsFailure(Object.assign(new Error('unreadable'), { code: 'EACCES' }), base.display, root.name, 'read the directory')
    let current: { dir: OpenDirectory; listing: Listing; relative: string; depth: number; state: GlobState } | null = {
      dir: baseOpen,
      listing: baseListing,
      relative: base.relative,
      depth: 0,
      state: glob.initial,
    }
    walk: while (current !== null) {
      options.signal?.throwIfAborted()
      if (current.listing.capped) limits.add('max_scanned')
      const below: PendingDirectory[] = []
      for (const entry of current.listing.entries) {
        if (scanned >= maxScanned) {
          limits.add('max_scanned')
          break walk
        }
        scanned += 1
        const state = glob.step(current.state, entry.name)
        if (state.length === 0) continue
        // Paths are built only for what matches or is entered: most entries of a big tree are neither.
        const accepted = glob.accepts(state)
        const descend = entry.isDirectory() && glob.canDescend(state)
        if (!accepted && !descend) continue
        const relative = childRelative(current.relative, entry.name)
        if (accepted) {
          if (matches.length >= maxResults) {
            limits.add('max_results')
            break walk
          }
          matches.push({ name: entry.name, path: displayPath(root, relative), type: direntType(entry) })
        }
        if (descend) {
          if (current.depth + 1 < maxDepth) below.push({ parent: current.dir, name: entry.name, relative, depth: current.depth + 1, state })
          else limits.add('max_depth')
        }
      }
      current.dir.pending += below.length
      for (let i = below.length - 1; i >= 0; i--) stack.push(below[i] as PendingDirectory)
      release(current.dir)
      current = null
      while (current === null && stack.length > 0) {
        for (let i = stack.length - 1; i >= Math.max(0, stack.length - READ_AHEAD); i--) void startLoading(stack[i] as PendingDirectory)
        const next = stack.pop() as PendingDirectory
        const loaded = await startLoading(next)
        if (loaded === null) {
          skipped += 1
          continue
        }
        current = { dir: loaded.dir, listing: loaded.listing, relative: next.relative, depth: next.depth, state: next.state }
      }
    }
  } finally {
    // A walk cut short (a bound, an abort, an error) still finishes the reads it started,
    // then closes every directory it will not visit.
    await Promise.allSettled(stack.map((pending) => pending.loading).filter((loading) => loading !== undefined))
    open.closeAll()
    await baseDir.close()
  }
  const order: FindLimit[] = ['max_results', 'max_depth', 'max_scanned']
  return {
    base: base.display,
    matches,
    count: matches.length,
    truncated: limits.size > 0,
    limits: order.filter((limit) => limits.has(limit)),
    scanned,
    skipped_directories: skipped,
  }
}
