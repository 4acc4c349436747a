import { constants, existsSync, type Stats } from 'node:fs'
import { type FileHandle, lstat, mkdir, open, readlink, realpath, stat } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import { cutWhole, TesseraError, wellFormed } from '@tessera/protocol'
import { errnoOf, fsFailure } from './errors.js'

/**
 * Path safety for file roots. Every path an agent sends is relative to a configured root
 * and is resolved component by component, following symlinks by hand, so that no step
 * ever touches the host outside the root: a symlink whose target leaves the root is
 * refused before anything at its target is looked at (so refusals are no oracle for what
 * exists outside), and `..` can never climb above the root. Files are then opened through
 * a directory handle whose real location is checked after opening, which closes most of
 * the gap between checking a path and using it (see docs/files.md, "Residual risks").
 */

export const MAX_PATH_BYTES = 4096
export const MAX_COMPONENT_BYTES = 255
export const MAX_SYMLINK_HOPS = 40
const ROOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

/** A configured root: a host directory the surface may reach, and the name agents use for it. */
export interface Root {
  readonly name: string
  /** Absolute host path of the directory. Symlinks in it are resolved once, when the root is prepared. */
  readonly path: string
  /** Refuse write and edit under this root. */
  readonly readOnly?: boolean
  /** A person let this root's secrets through to the agent as they are (the trace is redacted regardless). */
  readonly showsSecrets?: boolean
}

/** A root whose real path is known. `index` 0 is the default root. */
export interface ResolvedRoot {
  readonly name: string
  readonly path: string
  readonly real: string
  readonly readOnly: boolean
  readonly showsSecrets: boolean
  readonly index: number
}

export interface ResolvedPath {
  readonly root: ResolvedRoot
  /** The real host path (symlinks resolved). Never shown to an agent. */
  readonly absolute: string
  /** Real path relative to the root, without a leading "/"; "" is the root itself. */
  readonly relative: string
  /** The path as agents write it: "/a/b" in the default root, "name:/a/b" in another. */
  readonly display: string
  /** False when the last `missing` components do not exist yet (a write target, say). */
  readonly exists: boolean
  /** How many trailing components of `relative` do not exist. */
  readonly missing: number
  /** What the path is when it exists (symlinks followed). */
  readonly kind: 'file' | 'directory' | 'other' | null
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
const O_DIRECTORY = constants.O_DIRECTORY ?? 0
const O_NONBLOCK = constants.O_NONBLOCK ?? 0

/**
 * On Linux an open descriptor's real path can be read back from /proc/self/fd, and a path
 * through /proc/self/fd/N reaches exactly the directory N refers to, wherever it has been
 * moved since — an openat() that Node does not otherwise offer. Elsewhere the checks fall
 * back to re-resolving the path after opening, which leaves a wider race (docs/files.md).
 */
export const USES_PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd')

const realRoots = new WeakMap<Root, { path: string; real: string }>()

function badConfig(message: string, details: Record<string, unknown>): TesseraError {
  return new TesseraError('invalid_request', `file roots: ${message}`, details)
}

function isResolvedRoot(root: Root | ResolvedRoot): root is ResolvedRoot {
  return typeof (root as ResolvedRoot).real === 'string' && typeof (root as ResolvedRoot).index === 'number'
}

/**
 * Checks the configuration and resolves each root's real path. Names must be unique and
 * match [A-Za-z0-9][A-Za-z0-9_.-]{0,63}; paths must be absolute existing directories.
 */
export async function prepareRoots(roots: readonly (Root | ResolvedRoot)[]): Promise<ResolvedRoot[]> {
  if (!Array.isArray(roots) || roots.length === 0) {
    throw badConfig('expected at least one root, found none', { expected: 'one or more roots', found: 0 })
  }
  const names = new Set<string>()
  const prepared: ResolvedRoot[] = []
  for (const [index, root] of roots.entries()) {
    if (isResolvedRoot(root) && root.index === index) {
      names.add(root.name)
      prepared.push(root)
      continue
    }
    if (typeof root.name !== 'string' || !ROOT_NAME.test(root.name)) {
      throw badConfig(`expected root names of letters, digits, ".", "_" or "-" (1–64, starting with a letter or digit), found ${JSON.stringify(root.name)}`, { expected: ROOT_NAME.source, found: root.name ?? null })
    }
    if (names.has(root.name)) throw badConfig(`expected unique root names, found "${root.name}" twice`, { expected: 'unique names', found: root.name })
    names.add(root.name)
    if (typeof root.path !== 'string' || !isAbsolute(root.path) || root.path.includes('\0')) {
      throw badConfig(`expected root "${root.name}" to have an absolute host path`, { root: root.name, expected: 'absolute path' })
    }
    let cached = realRoots.get(root)
    if (cached === undefined || cached.path !== root.path) {
      let real: string
      try {
        real = await realpath(root.path)
        if (!(await stat(real)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' })
      } catch (error) {
        throw badConfig(`expected root "${root.name}" to be an existing directory, found ${errnoOf(error) ?? 'an error'}`, { root: root.name, expected: 'existing directory', found: errnoOf(error) ?? null })
      }
      cached = { path: root.path, real }
      realRoots.set(root, cached)
    }
    prepared.push({ name: root.name, path: root.path, real: cached.real, readOnly: root.readOnly === true, showsSecrets: root.showsSecrets === true, index })
  }
  return prepared
}

/** How agents write a root-relative path: "/a/b" in the default root, "name:/a/b" in another. */
export function displayPath(root: ResolvedRoot, relative: string): string {
  return root.index === 0 ? `/${relative}` : `${root.name}:/${relative}`
}

/** Is `candidate` (a real host path) the real root or below it? */
export function isInside(candidate: string, rootReal: string): boolean {
  if (rootReal === '/') return candidate.startsWith('/')
  return candidate === rootReal || candidate.startsWith(`${rootReal}/`)
}

function shown(requested: string): string {
  const printable = wellFormed(requested).replace(/[\0-\x1f\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return printable.length > 80 ? `${cutWhole(printable, 80)}…` : printable
}

/**
 * The root a request names (`name:/…`), or whose host path it starts with, or the default
 * root; and the rest of the request, relative to that root.
 */
export function chooseRoot(roots: readonly ResolvedRoot[], requested: string): { root: ResolvedRoot; rest: string } {
  let root = roots[0] as ResolvedRoot
  let rest = requested
  let explicit = false
  const colon = requested.indexOf(':')
  if (colon > 0) {
    const named = roots.find((candidate) => candidate.name === requested.slice(0, colon))
    if (named !== undefined) {
      root = named
      rest = requested.slice(colon + 1)
      explicit = true
    }
  }
  if (rest === '~' || rest.startsWith('~/')) {
    throw new TesseraError('invalid_request', `expected a path relative to a root ("/" is the root of "${root.name}"), found "${shown(requested)}": "~" is not expanded to a home directory`, { expected: 'root-relative path', found: '~' })
  }
  // An absolute host path that lies inside a root is accepted as that root's path;
  // any other leading "/" simply means "the root".
  if (rest.startsWith('/')) {
    for (const candidate of explicit ? [root] : roots) {
      const base = [candidate.real, candidate.path.replace(/\/+$/, '')].find((b) => b !== '' && b !== '/' && (rest === b || rest.startsWith(`${b}/`)))
      if (base !== undefined) {
        root = candidate
        rest = rest.slice(base.length)
        break
      }
    }
  }

  return { root, rest }
}

/** Checks the text of a requested path and picks its root; no file system access. */
function parseRequest(roots: readonly ResolvedRoot[], requested: unknown): { root: ResolvedRoot; components: string[] } {
  if (typeof requested !== 'string') {
    throw new TesseraError('invalid_request', `expected a path string, found ${requested === null ? 'null' : typeof requested}`, { expected: 'string', found: requested === null ? 'null' : typeof requested })
  }
  if (requested.includes('\0')) {
    throw new TesseraError('invalid_request', `expected a path without NUL bytes, found one in "${shown(requested)}"`, { expected: 'no NUL bytes', found: 'NUL byte' })
  }
  const bytes = Buffer.byteLength(requested, 'utf8')
  if (bytes > MAX_PATH_BYTES) {
    throw new TesseraError('invalid_request', `expected a path of at most ${MAX_PATH_BYTES} bytes, found ${bytes} bytes`, { expected: `≤ ${MAX_PATH_BYTES} bytes`, found: bytes })
  }
  if (!requested.isWellFormed()) {
    throw new TesseraError('invalid_request', `expected a path of well-formed Unicode, found a lone surrogate in "${shown(requested)}"`, { expected: 'well-formed Unicode', found: 'lone surrogate' })
  }
  if (requested.includes('\\')) {
    throw new TesseraError('invalid_request', `expected "/" as the only path separator, found a backslash in "${shown(requested)}" (Windows-style paths are not accepted)`, { expected: '"/"-separated path', found: 'backslash' })
  }

  const { root, rest } = chooseRoot(roots, requested)
  const components = rest.split('/')
  for (const component of components) {
    const length = Buffer.byteLength(component, 'utf8')
    if (length > MAX_COMPONENT_BYTES) {
      throw new TesseraError('invalid_request', `expected path components of at most ${MAX_COMPONENT_BYTES} bytes, found one of ${length} bytes in "${shown(requested)}"`, { expected: `≤ ${MAX_COMPONENT_BYTES} bytes per component`, found: length })
    }
    if (component.includes('%')) {
      let decoded = component
      try {
        decoded = decodeURIComponent(component)
      } catch {
        // Not valid percent-encoding: a literal name.
      }
      if (decoded !== component && (decoded === '.' || decoded === '..' || /[/\\\0]/.test(decoded))) {
        throw new TesseraError('invalid_request', `expected literal path components (paths are not URL-decoded), found "${shown(component)}", which decodes to ${JSON.stringify(decoded)}`, { expected: 'literal names', found: component })
      }
    }
  }
  return { root, components }
}

function escapeError(root: ResolvedRoot, requested: string): TesseraError {
  return new TesseraError('forbidden', `expected a path inside root "${root.name}", found "${shown(requested)}", which climbs above the root with ".."`, { expected: `a path inside root "${root.name}"`, found: shown(requested), root: root.name })
}

function symlinkEscape(root: ResolvedRoot, relative: string): TesseraError {
  const display = displayPath(root, relative)
  return new TesseraError('forbidden', `expected a path inside root "${root.name}", found that "${display}" is a symlink pointing outside the root`, { expected: `a path inside root "${root.name}"`, found: 'symlink leaving the root', path: display, root: root.name })
}

/**
 * Resolves a requested path against the roots. The path is relative to a root ("/" and ""
 * are the root itself); a leading "name:" picks a root by name; an absolute host path
 * inside a root is accepted too. Refused: NUL bytes, paths over 4096 bytes or with a
 * component over 255, backslashes, "~", percent-encoded "."/".."/separators, ".." above
 * the root, and symlinks (followed by hand, at most 40) whose target leaves the root.
 * A path that does not exist yet resolves as far as it exists; the rest is `missing`.
 */
export async function resolveInRoot(roots: readonly (Root | ResolvedRoot)[], requested: string): Promise<ResolvedPath> {
  const prepared = await prepareRoots(roots)
  const { root, components } = parseRequest(prepared, requested)
  const real: string[] = []
  // Components still to resolve, last one first, so a symlink's target can be pushed on.
  const pending = components.slice().reverse()
  let hops = 0
  // Escapes through a chain of links are reported at the first link, the one the agent named.
  let firstLink: string | null = null
  let kind: ResolvedPath['kind'] = 'directory'
  while (pending.length > 0) {
    const component = pending.pop() as string
    if (component === '' || component === '.') continue
    if (component === '..') {
      // Physical, like the kernel: `real` holds resolved components, so this is the real parent.
      if (real.length === 0) throw firstLink === null ? escapeError(root, requested) : symlinkEscape(root, firstLink)
      real.pop()
      kind = 'directory'
      continue
    }
    if (kind !== 'directory') {
      const display = displayPath(root, real.join('/'))
      throw new TesseraError('not_found', `expected "${display}" to be a directory in root "${root.name}" (it is followed by more of "${shown(requested)}"), found a ${kind}`, { expected: 'directory', found: kind, path: display, root: root.name })
    }
    const here = real.length === 0 ? joinReal(root.real, component) : joinReal(root.real, `${real.join('/')}/${component}`)
    let stats: Stats
    try {
      stats = await lstat(here)
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw fsFailure(error, displayPath(root, [...real, component].join('/')), root.name, 'resolve')
      const missing = [component, ...pending.reverse()].filter((c) => c !== '' && c !== '.')
      if (missing.includes('..')) {
        const display = displayPath(root, [...real, component].join('/'))
        throw new TesseraError('not_found', `expected "${display}" to exist in root "${root.name}" (".." follows it in "${shown(requested)}"), found nothing`, { expected: 'existing directory', found: 'nothing', path: display, root: root.name })
      }
      const relative = [...real, ...missing].join('/')
      return { root, absolute: joinReal(root.real, relative), relative, display: displayPath(root, relative), exists: false, missing: missing.length, kind: null }
    }
    if (stats.isSymbolicLink()) {
      hops += 1
      const linkRelative = [...real, component].join('/')
      firstLink ??= linkRelative
      if (hops > MAX_SYMLINK_HOPS) {
        const display = displayPath(root, linkRelative)
        throw new TesseraError('invalid_request', `expected at most ${MAX_SYMLINK_HOPS} symlinks while resolving "${shown(requested)}", found more (a loop at "${display}"?)`, { expected: `≤ ${MAX_SYMLINK_HOPS} symlinks`, found: 'more', path: display, root: root.name })
      }
      let target: string
      try {
        target = await readlink(here)
      } catch (error) {
        throw fsFailure(error, displayPath(root, linkRelative), root.name, 'read the symlink')
      }
      if (target.startsWith('/')) {
        // Absolute targets must name the root by its real path; they are then walked
        // like any other path, so a ".." in them is physical and checked too.
        if (!isInside(target, root.real)) throw symlinkEscape(root, firstLink)
        real.length = 0
        pushComponents(pending, root.real === '/' ? target : target.slice(root.real.length))
      } else {
        pushComponents(pending, target)
      }
      kind = 'directory'
      continue
    }
    real.push(component)
    kind = stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other'
  }
  const relative = real.join('/')
  return { root, absolute: joinReal(root.real, relative), relative, display: displayPath(root, relative), exists: true, missing: 0, kind }
}

function pushComponents(pending: string[], path: string): void {
  const parts = path.split('/')
  for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i] as string)
}

function joinReal(rootReal: string, relative: string): string {
  if (relative === '') return rootReal
  return rootReal === '/' ? `/${relative}` : `${rootReal}/${relative}`
}

function splitRelative(relative: string): { parent: string; name: string } {
  const slash = relative.lastIndexOf('/')
  return slash === -1 ? { parent: '', name: relative } : { parent: relative.slice(0, slash), name: relative.slice(slash + 1) }
}

/** A directory opened inside a root; `base` reaches it by handle (Linux) or by real path. */
export interface SafeDirectory {
  readonly root: ResolvedRoot
  readonly relative: string
  /** Prefix for paths of entries: `${base}/${name}`. */
  readonly base: string
  readonly handle: FileHandle
  close(): Promise<void>
}

async function verifyOpened(handle: FileHandle, root: ResolvedRoot, expected: string, display: string): Promise<void> {
  let actual: string
  try {
    actual = USES_PROC_FD ? await readlink(`/proc/self/fd/${handle.fd}`) : await realpath(expected)
  } catch (error) {
    throw fsFailure(error, display, root.name, 'verify')
  }
  if (!isInside(actual, root.real)) {
    throw new TesseraError('forbidden', `expected "${display}" to stay inside root "${root.name}" while it was opened, found it outside (a directory on the path was swapped for a symlink or moved)`, { expected: `inside root "${root.name}"`, found: 'outside the root', path: display, root: root.name })
  }
  if (!USES_PROC_FD) {
    // Without /proc the best check left: the path we verified is the object we opened.
    const [opened, named] = await Promise.all([handle.stat(), stat(actual)])
    if (opened.ino !== named.ino || opened.dev !== named.dev) {
      throw new TesseraError('forbidden', `expected "${display}" to be unchanged while it was opened, found it replaced`, { path: display, root: root.name })
    }
  }
}

/** open(O_DIRECTORY | O_NOFOLLOW), with its failures told apart for the agent. */
async function openDirectoryHandle(path: string, display: string, rootName: string): Promise<FileHandle> {
  try {
    return await open(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
  } catch (error) {
    if (errnoOf(error) === 'ENOTDIR') {
      // With O_DIRECTORY, Linux reports a symlink in the final place as ENOTDIR, not ELOOP.
      const swapped = await lstat(path).then((stats) => stats.isSymbolicLink(), () => false)
      if (swapped) throw fsFailure(Object.assign(new Error('symlink'), { code: 'ELOOP' }), display, rootName, 'open the directory')
      throw new TesseraError('invalid_request', `expected "${display}" in root "${rootName}" to be a directory, found a file`, { expected: 'directory', found: 'file', path: display, root: rootName })
    }
    throw fsFailure(error, display, rootName, 'open the directory')
  }
}

/**
 * Opens a directory inside a root: the final component with O_NOFOLLOW, then its real
 * location checked through the open handle. Entries are then reached through `base`.
 */
export async function openDirectory(root: ResolvedRoot, relative: string): Promise<SafeDirectory> {
  const display = displayPath(root, relative)
  const path = joinReal(root.real, relative)
  const handle = await openDirectoryHandle(path, display, root.name)
  try {
    await verifyOpened(handle, root, path, display)
  } catch (error) {
    await handle.close()
    throw error
  }
  return { root, relative, base: USES_PROC_FD ? `/proc/self/fd/${handle.fd}` : path, handle, close: () => handle.close() }
}

/**
 * Opens (and with `create`, first makes) the directory `name` inside an open directory.
 * With /proc the parent handle pins the location and O_NOFOLLOW refuses a symlink, so no
 * further check is needed; without it the new handle is verified like any other.
 */
export async function openSubdirectory(dir: SafeDirectory, name: string, create: boolean): Promise<SafeDirectory> {
  const relative = dir.relative === '' ? name : `${dir.relative}/${name}`
  const display = displayPath(dir.root, relative)
  const path = `${dir.base}/${name}`
  if (create) {
    try {
      await mkdir(path, 0o777)
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw fsFailure(error, display, dir.root.name, 'create the directory')
    }
  }
  const handle = await openDirectoryHandle(path, display, dir.root.name)
  if (!USES_PROC_FD) {
    try {
      await verifyOpened(handle, dir.root, joinReal(dir.root.real, relative), display)
    } catch (error) {
      await handle.close()
      throw error
    }
  }
  return { root: dir.root, relative, base: USES_PROC_FD ? `/proc/self/fd/${handle.fd}` : joinReal(dir.root.real, relative), handle, close: () => handle.close() }
}

/** Opens the parent directory of a resolved path and names the final component in it. */
export async function openParent(resolved: ResolvedPath): Promise<{ dir: SafeDirectory; name: string }> {
  if (resolved.relative === '') {
    throw new TesseraError('invalid_request', `expected a file path, found the root of "${resolved.root.name}" itself`, { expected: 'file path', found: resolved.display })
  }
  const { parent, name } = splitRelative(resolved.relative)
  return { dir: await openDirectory(resolved.root, parent), name }
}

/** The type tests Stats and BigIntStats share. */
export interface StatsLike {
  isFile(): boolean
  isDirectory(): boolean
  isSymbolicLink(): boolean
  isFIFO(): boolean
  isSocket(): boolean
  isCharacterDevice(): boolean
  isBlockDevice(): boolean
}

const TYPE_NAMES: Array<[(stats: StatsLike) => boolean, string]> = [
  [(s) => s.isDirectory(), 'directory'],
  [(s) => s.isSymbolicLink(), 'symlink'],
  [(s) => s.isFIFO(), 'named pipe'],
  [(s) => s.isSocket(), 'socket'],
  [(s) => s.isCharacterDevice(), 'character device'],
  [(s) => s.isBlockDevice(), 'block device'],
]

export function describeStats(stats: StatsLike): string {
  if (stats.isFile()) return 'regular file'
  return TYPE_NAMES.find(([test]) => test(stats))?.[1] ?? 'special file'
}

/**
 * Opens an existing regular file for reading: its directory through a verified handle,
 * the file itself with O_NOFOLLOW (a symlink swapped in is refused) and O_NONBLOCK (a
 * named pipe cannot hang the open), then anything but a regular file is refused.
 */
export async function openFileForReading(resolved: ResolvedPath): Promise<{ handle: FileHandle; stats: Stats }> {
  const { root, display } = resolved
  if (!resolved.exists) throw notFound(resolved, 'a file')
  if (resolved.kind === 'directory') {
    throw new TesseraError('invalid_request', `expected a file at "${display}" in root "${root.name}", found a directory`, { expected: 'file', found: 'directory', path: display, root: root.name })
  }
  const { dir, name } = await openParent(resolved)
  let handle: FileHandle
  try {
    handle = await open(`${dir.base}/${name}`, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
  } catch (error) {
    // A Unix socket (or a device with nothing behind it) cannot be opened at all (ENXIO):
    // it is the caller's wrong kind of file, said as such, not the hub's failure.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') {
      const found = await lstat(`${dir.base}/${name}`).then(describeStats, () => 'special file')
      throw new TesseraError('invalid_request', `expected a regular file at "${display}" in root "${root.name}", found a ${found}`, { expected: 'regular file', found, path: display, root: root.name })
    }
    throw fsFailure(error, display, root.name, 'open')
  } finally {
    await dir.close()
  }
  try {
    if (!USES_PROC_FD) await verifyOpened(handle, root, resolved.absolute, display)
    const stats = await handle.stat()
    if (!stats.isFile()) {
      const found = describeStats(stats)
      throw new TesseraError('invalid_request', `expected a regular file at "${display}" in root "${root.name}", found a ${found}`, { expected: 'regular file', found, path: display, root: root.name })
    }
    return { handle, stats }
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** The error for a path that does not exist, saying how paths are read. */
export function notFound(resolved: ResolvedPath, what: string): TesseraError {
  const { root, display } = resolved
  return new TesseraError(
    'not_found',
    `expected ${what} at "${display}" in root "${root.name}", found nothing (paths are relative to the root: "/" is the root itself; host paths outside the roots are not reachable)`,
    { expected: what, found: 'nothing', path: display, root: root.name },
  )
}
