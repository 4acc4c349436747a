import type { Dirent } from 'node:fs'
import { lstat, opendir } from 'node:fs/promises'
import { TesseraError } from '@tessera/protocol'
import { type AtomicWriteOptions, versionOf, writeFileAtomic } from './atomic-write.js'
import { errnoOf, fsFailure } from './errors.js'
import { DEFAULT_GRID, type FileInfo, type FileType, type GridOptions, compareEntries, toFileInfo } from './file-info.js'
import { type GlobState, compileGlob } from './glob.js'
import {
  type ResolvedPath,
  type ResolvedRoot,
  type Root,
  type SafeDirectory,
  displayPath,
  notFound,
  openDirectory,
  openFileForReading,
  resolveInRoot,
} from './safe-path.js'

/** Bounds every operation states up front; exceeding a hard maximum is an error, never a silent cut. */
export const LIMITS = Object.freeze({
  /** read: bytes returned when max_bytes is not given. */
  readDefaultBytes: 256 * 1024,
  /** read: the largest max_bytes accepted. */
  readMaxBytes: 16 * 1024 * 1024,
  /** read: bytes examined for NUL when deciding text or binary. */
  binarySniffBytes: 8 * 1024,
  /** write: largest content (decoded); edit: largest file it will rewrite. */
  writeMaxBytes: 16 * 1024 * 1024,
  /** list: entries returned per call by default, and at most. */
  listDefaultLimit: 1000,
  listMaxLimit: 10_000,
  /** Entries of one directory read for sorting; beyond it the listing is marked capped. */
  directoryScanCap: 100_000,
  /** find: results and depth by default and at most; entries examined at most. */
  findDefaultResults: 1000,
  findMaxResults: 10_000,
  findDefaultDepth: 20,
  findMaxDepth: 64,
  findMaxScanned: 1_000_000,
})

export interface DirectoryEntry {
  name: string
  file_type: FileType
}

export interface DirectoryScan {
  /** Sorted: directories first, then by name. */
  entries: DirectoryEntry[]
  /** Entries in the directory (counted even past the cap). */
  total: number
  /** True when the directory held more than LIMITS.directoryScanCap entries. */
  capped: boolean
}

export function direntType(dirent: Dirent): FileType {
  if (dirent.isSymbolicLink()) return 'symlink'
  if (dirent.isDirectory()) return 'directory'
  if (dirent.isFile()) return 'file'
  return 'other'
}

/** Streams a directory's entries (opendir, never following symlinks) and sorts them. */
export async function scanDirectory(dir: SafeDirectory, signal?: AbortSignal, cap: number = LIMITS.directoryScanCap): Promise<DirectoryScan> {
  const entries: DirectoryEntry[] = []
  let total = 0
  let handle
  try {
    handle = await opendir(dir.base, { bufferSize: 256 })
  } catch (error) {
    throw fsFailure(error, displayPath(dir.root, dir.relative), dir.root.name, 'read the directory')
  }
  try {
    for (;;) {
      const dirent = await handle.read()
      if (dirent === null) break
      total += 1
      if ((total & 4095) === 0) signal?.throwIfAborted()
      if (entries.length < cap) entries.push({ name: dirent.name, file_type: direntType(dirent) })
    }
  } catch (error) {
    throw fsFailure(error, displayPath(dir.root, dir.relative), dir.root.name, 'read the directory')
  } finally {
    await handle.close().catch(() => undefined)
  }
  entries.sort(compareEntries)
  return { entries, total, capped: total > entries.length }
}

export function childRelative(relative: string, name: string): string {
  return relative === '' ? name : `${relative}/${name}`
}

/** Resolves a path that must be an existing directory. */
export async function resolveDirectory(roots: readonly (Root | ResolvedRoot)[], requested: string): Promise<ResolvedPath> {
  const resolved = await resolveInRoot(roots, requested)
  if (!resolved.exists) throw notFound(resolved, 'a directory')
  if (resolved.kind !== 'directory') {
    throw new TesseraError('invalid_request', `expected a directory at "${resolved.display}" in root "${resolved.root.name}", found a ${resolved.kind}`, { expected: 'directory', found: resolved.kind, path: resolved.display, root: resolved.root.name })
  }
  return resolved
}

export interface ListOptions {
  offset?: number
  limit?: number
  grid?: Readonly<GridOptions>
  signal?: AbortSignal
}

export interface Listing {
  directory: ResolvedPath
  files: FileInfo[]
  total: number
  capped: boolean
}

/**
 * Lists a directory: entries sorted (directories first, then by name), a page of them
 * (offset, limit) as FileInfo, each lstat'ed (symlinks reported, not followed). x and y
 * are the entry's cell on the tile for its position in the whole sorted listing.
 */
export async function listDirectory(roots: readonly (Root | ResolvedRoot)[], requested: string, options: ListOptions = {}): Promise<Listing> {
  const directory = await resolveDirectory(roots, requested)
  const offset = options.offset ?? 0
  const limit = options.limit ?? LIMITS.listDefaultLimit
  const grid = options.grid ?? DEFAULT_GRID
  const dir = await openDirectory(directory.root, directory.relative)
  try {
    const scan = await scanDirectory(dir, options.signal)
    const page = scan.entries.slice(offset, offset + limit)
    const files: Array<FileInfo | null> = new Array(page.length).fill(null)
    const BATCH = 64
    for (let start = 0; start < page.length; start += BATCH) {
      options.signal?.throwIfAborted()
      await Promise.all(
        page.slice(start, start + BATCH).map(async (entry, i) => {
          const index = start + i
          const relative = childRelative(directory.relative, entry.name)
          try {
            const stats = await lstat(`${dir.base}/${entry.name}`)
            const fileType: FileType = stats.isSymbolicLink() ? 'symlink' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other'
            files[index] = toFileInfo(entry.name, displayPath(directory.root, relative), fileType, stats, offset + index, grid)
          } catch (error) {
            // Removed between reading the directory and looking at the entry: leave it out.
            if (errnoOf(error) !== 'ENOENT') throw fsFailure(error, displayPath(directory.root, relative), directory.root.name, 'inspect')
          }
        }),
      )
    }
    return { directory, files: files.filter((file): file is FileInfo => file !== null), total: scan.total, capped: scan.capped }
  } finally {
    await dir.close()
  }
}

export type ReadResult = {
  path: string
  content: string
  encoding: 'utf8' | 'base64'
  /** True when the file goes on past offset + bytes_read. */
  truncated: boolean
  /** The file's size in bytes. */
  size: number
  /** Where the returned bytes start (moved forward past a split UTF-8 character). */
  offset: number
  bytes_read: number
  /** Where the next read continues when truncated, else null. */
  next_offset: number | null
}

export interface ReadOptions {
  maxBytes?: number
  offset?: number
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Bytes at the end that start a UTF-8 character the window cuts off (0 when none). */
function incompleteTail(bytes: Uint8Array): number {
  const length = bytes.length
  for (let back = 1; back <= Math.min(4, length); back++) {
    const byte = bytes[length - back] as number
    if ((byte & 0xc0) === 0x80) continue
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return needed > back ? back : 0
  }
  return 0
}

/**
 * Reads at most max_bytes from offset, allocating only that much however big the file.
 * Text is returned as UTF-8 unless the bytes look binary: a NUL in the first 8 KiB, or
 * any invalid UTF-8 in the window, gives base64 instead, so content is never lossy. A
 * window that starts or ends inside a UTF-8 character is trimmed to whole characters
 * (offset and bytes_read say exactly which bytes came back).
 */
export async function readFile(roots: readonly (Root | ResolvedRoot)[], requested: string, options: ReadOptions = {}): Promise<ReadResult> {
  const maxBytes = options.maxBytes ?? LIMITS.readDefaultBytes
  const offset = options.offset ?? 0
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1 || maxBytes > LIMITS.readMaxBytes) {
    throw new TesseraError('invalid_input', `read: expected max_bytes from 1 to ${LIMITS.readMaxBytes}, found ${maxBytes}`, { expected: `1–${LIMITS.readMaxBytes}`, found: maxBytes })
  }
  const resolved = await resolveInRoot(roots, requested)
  const { handle, stats } = await openFileForReading(resolved)
  try {
    const size = stats.size
    const start = Math.min(offset, size)
    const want = Math.max(0, Math.min(maxBytes, size - start))
    const buffer = Buffer.allocUnsafe(want)
    let got = 0
    while (got < want) {
      const { bytesRead } = await handle.read(buffer, got, want - got, start + got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    const raw = buffer.subarray(0, got)
    const rawTruncated = start + got < size
    const text = decodeText(raw, start, rawTruncated)
    if (text !== null) {
      const end = text.start + text.length
      return { path: resolved.display, content: text.content, encoding: 'utf8', truncated: end < size, size, offset: text.start, bytes_read: text.length, next_offset: end < size ? end : null }
    }
    return { path: resolved.display, content: raw.toString('base64'), encoding: 'base64', truncated: rawTruncated, size, offset: start, bytes_read: got, next_offset: rawTruncated ? start + got : null }
  } catch (error) {
    throw fsFailure(error, resolved.display, resolved.root.name, 'read')
  } finally {
    await handle.close()
  }
}

function decodeText(raw: Buffer, start: number, truncated: boolean): { content: string; start: number; length: number } | null {
  if (raw.subarray(0, LIMITS.binarySniffBytes).includes(0)) return null
  let lead = 0
  if (start > 0) while (lead < 3 && lead < raw.length && ((raw[lead] as number) & 0xc0) === 0x80) lead++
  const end = truncated ? raw.length - incompleteTail(raw) : raw.length
  if (end < lead) return null
  try {
    return { content: utf8.decode(raw.subarray(lead, end)), start: start + lead, length: end - lead }
  } catch {
    return null
  }
}

export type WriteResult = { success: true; path: string; bytes_written: number; created: boolean }

export interface WriteOptions {
  content: string
  encoding?: 'utf8' | 'base64'
  createDirs?: boolean
  /** Passed to writeFileAtomic (its test seam). */
  atomic?: Pick<AtomicWriteOptions, 'beforeRename'>
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Writes a whole file atomically (temp file + rename), keeping an existing file's mode. */
export async function writeFile(roots: readonly (Root | ResolvedRoot)[], requested: string, options: WriteOptions): Promise<WriteResult> {
  const encoding = options.encoding ?? 'utf8'
  let data: Buffer
  if (encoding === 'base64') {
    if (!BASE64.test(options.content)) {
      throw new TesseraError('invalid_input', 'write: expected "content" to be standard base64 (A–Z, a–z, 0–9, +, /, padded with =), found other characters or a bad length', { field: 'content', expected: 'base64', found: 'invalid base64' })
    }
    data = Buffer.from(options.content, 'base64')
  } else {
    data = Buffer.from(options.content, 'utf8')
  }
  if (data.byteLength > LIMITS.writeMaxBytes) {
    throw new TesseraError('invalid_input', `write: expected content of at most ${LIMITS.writeMaxBytes} bytes, found ${data.byteLength}`, { field: 'content', expected: `≤ ${LIMITS.writeMaxBytes} bytes`, found: data.byteLength })
  }
  const resolved = await resolveInRoot(roots, requested)
  const outcome = await writeFileAtomic(resolved, data, { createDirs: options.createDirs === true, beforeRename: options.atomic?.beforeRename })
  return { success: true, path: resolved.display, bytes_written: outcome.bytesWritten, created: outcome.created }
}

export type EditResult = { success: true; path: string; replacements: number; bytes_written: number }

export interface EditOptions {
  oldText: string
  newText: string
  expectedCount?: number
  atomic?: Pick<AtomicWriteOptions, 'beforeRename'>
}

function countOccurrences(text: string, needle: string): number[] {
  const at: number[] = []
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i)
  return at
}

/**
 * Replaces exact, non-overlapping occurrences of old_text with new_text in a UTF-8 text
 * file. The number of occurrences must equal expected_count (default 1), or nothing is
 * written and the error says how many were found. The rewrite is atomic and refused if
 * the file changed between the read and the rename.
 */
export async function editFile(roots: readonly (Root | ResolvedRoot)[], requested: string, options: EditOptions): Promise<EditResult> {
  const expectedCount = options.expectedCount ?? 1
  if (options.oldText.length === 0) {
    throw new TesseraError('invalid_input', 'edit: expected a non-empty "old_text" to find, found an empty string', { field: 'old_text', expected: 'non-empty string', found: 'empty string' })
  }
  const resolved = await resolveInRoot(roots, requested)
  if (resolved.root.readOnly) {
    throw new TesseraError('forbidden', `expected a writable root, found root "${resolved.root.name}" read-only (refusing to edit "${resolved.display}")`, { expected: 'writable root', found: 'read-only', root: resolved.root.name, path: resolved.display })
  }
  const { handle, stats } = await openFileForReading(resolved)
  let text: string
  let version
  try {
    if (stats.size > LIMITS.writeMaxBytes) {
      throw new TesseraError('invalid_request', `edit: expected a file of at most ${LIMITS.writeMaxBytes} bytes, found "${resolved.display}" with ${stats.size}`, { expected: `≤ ${LIMITS.writeMaxBytes} bytes`, found: stats.size, path: resolved.display })
    }
    version = versionOf(await handle.stat({ bigint: true }))
    const bytes = await handle.readFile()
    if (bytes.subarray(0, LIMITS.binarySniffBytes).includes(0)) throw notText(resolved)
    try {
      text = utf8.decode(bytes)
    } catch {
      throw notText(resolved)
    }
  } finally {
    await handle.close()
  }
  const found = countOccurrences(text, options.oldText)
  if (found.length !== expectedCount) {
    throw new TesseraError(
      'conflict',
      `edit: expected ${expectedCount} occurrence${expectedCount === 1 ? '' : 's'} of old_text in "${resolved.display}", found ${found.length}; nothing was changed${found.length > expectedCount && expectedCount > 0 ? ' (add surrounding text to old_text, or pass expected_count)' : ''}`,
      { expected: expectedCount, found: found.length, path: resolved.display },
    )
  }
  const updated = text.split(options.oldText).join(options.newText)
  const data = Buffer.from(updated, 'utf8')
  if (data.byteLength > LIMITS.writeMaxBytes) {
    throw new TesseraError('invalid_input', `edit: expected the edited file to stay within ${LIMITS.writeMaxBytes} bytes, found ${data.byteLength}`, { expected: `≤ ${LIMITS.writeMaxBytes} bytes`, found: data.byteLength })
  }
  const outcome = await writeFileAtomic(resolved, data, { expect: version, beforeRename: options.atomic?.beforeRename })
  return { success: true, path: resolved.display, replacements: found.length, bytes_written: outcome.bytesWritten }
}

function notText(resolved: ResolvedPath): TesseraError {
  return new TesseraError('invalid_request', `edit: expected a UTF-8 text file at "${resolved.display}", found binary content (use write with encoding "base64" to replace it whole)`, { expected: 'UTF-8 text', found: 'binary', path: resolved.display })
}

