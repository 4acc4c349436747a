import { randomBytes } from 'node:crypto'
import { constants, type BigIntStats } from 'node:fs'
import { type FileHandle, lstat, open, rename, unlink } from 'node:fs/promises'
import { TesseraError } from '@tessera/protocol'
import { errnoOf, fsFailure } from './errors.js'
import { type ResolvedPath, type SafeDirectory, describeStats, displayPath, openDirectory, openSubdirectory } from './safe-path.js'

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0

/** What a file looked like when it was read; the write is refused if it changed since. */
export interface FileVersion {
  ino: bigint
  size: bigint
  mtimeNs: bigint
}

export interface AtomicWriteOptions {
  /** Create missing parent directories (each one made and opened without following symlinks). */
  createDirs?: boolean | undefined
  /** Refuse with `conflict` unless the file still has this version (for read-modify-write). */
  expect?: FileVersion | undefined
  /** Test seam: runs after the temporary file is complete, just before the rename. */
  beforeRename?: (() => Promise<void>) | undefined
}

export interface AtomicWriteOutcome {
  created: boolean
  bytesWritten: number
}

export function versionOf(stats: BigIntStats): FileVersion {
  return { ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs }
}

function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs
}

/**
 * Replaces a file's contents atomically: the data goes to a temporary file in the same
 * directory (created with O_EXCL|O_NOFOLLOW, given the old file's mode, fsynced), which is
 * then renamed over the target, so a reader sees the old file or the new one, never a
 * mix, and a failure at any point leaves the old file intact and no temporary behind.
 * The directory is reached through a verified handle (see safe-path.ts). Ownership is
 * the hub's, and a hard link to the old file keeps the old contents.
 */
export async function writeFileAtomic(resolved: ResolvedPath, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<AtomicWriteOutcome> {
  const { root, display } = resolved
  if (root.readOnly) {
    throw new TesseraError('forbidden', `expected a writable root, found root "${root.name}" read-only (refusing to write "${display}")`, { expected: 'writable root', found: 'read-only', root: root.name, path: display })
  }
  if (resolved.relative === '') {
    throw new TesseraError('invalid_request', `expected a file path, found the root of "${root.name}" itself`, { expected: 'file path', found: display })
  }
  if (resolved.kind === 'directory') {
    throw new TesseraError('invalid_request', `expected a file at "${display}" in root "${root.name}", found a directory`, { expected: 'file', found: 'directory', path: display, root: root.name })
  }
  const components = resolved.relative.split('/')
  const name = components.pop() as string
  // Directories that do not exist yet: all missing components but the file itself.
  const missingDirs = resolved.exists ? [] : components.slice(components.length - (resolved.missing - 1))
  const existingParent = components.slice(0, components.length - missingDirs.length).join('/')
  if (missingDirs.length > 0 && options.createDirs !== true) {
    const parentDisplay = displayPath(root, components.join('/'))
    throw new TesseraError('not_found', `expected the directory "${parentDisplay}" to exist in root "${root.name}", found nothing; pass create_dirs: true to create it`, { expected: 'existing parent directory', found: 'nothing', path: parentDisplay, root: root.name })
  }

  let dir: SafeDirectory = await openDirectory(root, existingParent)
  let temp: string | null = null
  try {
    for (const component of missingDirs) {
      const next = await openSubdirectory(dir, component, true)
      await dir.close()
      dir = next
    }
    const target = `${dir.base}/${name}`
    const before = await currentVersion(target, display, root.name)
    if (options.expect !== undefined && (before === null || !sameVersion(before.version, options.expect))) {
      throw changedError(display, root.name)
    }

    temp = `${dir.base}/.tessera-${randomBytes(8).toString('hex')}.tmp`
    let handle: FileHandle
    try {
      handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o666)
    } catch (error) {
      temp = null
      throw fsFailure(error, display, root.name, 'create a temporary file for')
    }
    try {
      if (before !== null) await handle.chmod(before.mode)
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await options.beforeRename?.()
    if (options.expect !== undefined) {
      const now = await currentVersion(target, display, root.name)
      if (now === null || !sameVersion(now.version, options.expect)) throw changedError(display, root.name)
    }
    try {
      await rename(temp, target)
    } catch (error) {
      throw fsFailure(error, display, root.name, 'replace')
    }
    temp = null
    // Make the rename itself durable; not every file system supports fsync on a directory.
    await dir.handle.sync().catch(() => undefined)
    return { created: before === null, bytesWritten: data.byteLength }
  } catch (error) {
    throw fsFailure(error, display, root.name, 'write')
  } finally {
    if (temp !== null) await unlink(temp).catch(() => undefined)
    await dir.close()
  }
}

async function currentVersion(target: string, display: string, rootName: string): Promise<{ version: FileVersion; mode: number } | null> {
  let stats: BigIntStats
  try {
    stats = await lstat(target, { bigint: true })
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null
    throw fsFailure(error, display, rootName, 'inspect')
  }
  if (stats.isSymbolicLink()) {
    throw new TesseraError('forbidden', `expected "${display}" in root "${rootName}" to be a regular file, found a symlink that appeared after the path was checked`, { expected: 'regular file', found: 'symlink', path: display, root: rootName })
  }
  if (!stats.isFile()) {
    const found = stats.isDirectory() ? 'directory' : describeStats(stats)
    throw new TesseraError('invalid_request', `expected "${display}" in root "${rootName}" to be a regular file, found a ${found}`, { expected: 'regular file', found, path: display, root: rootName })
  }
  return { version: versionOf(stats), mode: Number(stats.mode & 0o7777n) }
}

function changedError(display: string, rootName: string): TesseraError {
  return new TesseraError('conflict', `expected "${display}" in root "${rootName}" to be unchanged since it was read, found it modified by someone else; read it again and retry`, { expected: 'unchanged file', found: 'modified', path: display, root: rootName })
}
