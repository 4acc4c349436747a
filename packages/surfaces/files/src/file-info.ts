import type { StatsLike } from './safe-path.js'

/** One directory entry: the protocol's FileInfo (docs/files.md says what each field holds). */
export type { FileInfo, FileType } from '@tessera/protocol'
import type { FileInfo, FileType } from '@tessera/protocol'

/**
 * The tile's spatial grid: entries in sorted order (directories first, then by name) fill
 * `columns` cells of `cell` × `cell` px per row, starting `top` px below the tile's top
 * edge (under the header and toolbar). Entry i sits at
 * x = (i mod columns) × cell, y = top + floor(i / columns) × cell.
 */
export interface GridOptions {
  columns: number
  cell: number
  top: number
}

export const DEFAULT_GRID: Readonly<GridOptions> = Object.freeze({ columns: 8, cell: 120, top: 80 })

export function gridPosition(index: number, grid: Readonly<GridOptions> = DEFAULT_GRID): { x: number; y: number } {
  return { x: (index % grid.columns) * grid.cell, y: grid.top + Math.floor(index / grid.columns) * grid.cell }
}

export function fileTypeOf(stats: Pick<StatsLike, 'isFile' | 'isDirectory' | 'isSymbolicLink'>): FileType {
  if (stats.isSymbolicLink()) return 'symlink'
  if (stats.isDirectory()) return 'directory'
  if (stats.isFile()) return 'file'
  return 'other'
}

/** "rwxr-xr-x" from a mode, as ls prints it (s/S, t/T for the special bits). */
export function permissionString(mode: number): string {
  const bit = (mask: number, char: string): string => (mode & mask ? char : '-')
  const exec = (execMask: number, specialMask: number, lower: string, upper: string): string =>
    mode & specialMask ? (mode & execMask ? lower : upper) : bit(execMask, 'x')
  return (
    bit(0o400, 'r') + bit(0o200, 'w') + exec(0o100, 0o4000, 's', 'S') +
    bit(0o040, 'r') + bit(0o020, 'w') + exec(0o010, 0o2000, 's', 'S') +
    bit(0o004, 'r') + bit(0o002, 'w') + exec(0o001, 0o1000, 't', 'T')
  )
}

export type ColorCategory = 'directory' | 'symlink' | 'other' | 'code' | 'config' | 'text' | 'image' | 'media' | 'archive' | 'binary' | 'document' | 'file'

export interface ColorEntry {
  readonly color: number
  readonly hex: string
  readonly description: string
  /** Lower-case extensions (after the last ".") and exact file names that map here. */
  readonly extensions: readonly string[]
  readonly names: readonly string[]
}

function entry(color: number, description: string, extensions: string[] = [], names: string[] = []): ColorEntry {
  return Object.freeze({ color, hex: `#${color.toString(16).padStart(6, '0')}`, description, extensions: Object.freeze(extensions), names: Object.freeze(names) })
}

/**
 * The colour of an entry encodes its type. Types first (directory, symlink, other), then
 * a regular file's extension (case-insensitive, after the last "."; a leading dot alone is
 * not an extension) or exact name. Documented in docs/files.md; the test checks the two agree.
 */
export const COLOR_TABLE: Readonly<Record<ColorCategory, ColorEntry>> = Object.freeze({
  directory: entry(0x4a90d9, 'directory'),
  symlink: entry(0x26c6da, 'symbolic link (never followed in listings)'),
  other: entry(0x9e9e9e, 'named pipe, socket or device'),
  code: entry(
    0x66bb6a,
    'source code',
    ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'py', 'rs', 'go', 'c', 'h', 'cc', 'cpp', 'hpp', 'cxx', 'java', 'kt', 'kts', 'scala', 'rb', 'php', 'swift', 'cs', 'fs', 'm', 'mm', 'lua', 'pl', 'r', 'jl', 'hs', 'ml', 'ex', 'exs', 'erl', 'clj', 'dart', 'zig', 'nim', 'sh', 'bash', 'zsh', 'fish', 'ps1', 'sql', 'vue', 'svelte', 'css', 'scss', 'sass', 'less', 'html', 'htm', 'wat'],
    ['Makefile', 'Dockerfile', 'Rakefile', 'Gemfile', 'Justfile', 'CMakeLists.txt'],
  ),
  config: entry(0xffca28, 'configuration and data', ['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'xml', 'ini', 'cfg', 'conf', 'env', 'properties', 'lock', 'plist', 'csv', 'tsv', 'ndjson', 'jsonl', 'proto', 'graphql']),
  text: entry(0xeceff1, 'text and documentation', ['md', 'markdown', 'txt', 'rst', 'adoc', 'org', 'tex', 'log', 'diff', 'patch'], ['README', 'LICENSE', 'CHANGELOG', 'NOTICE', 'AUTHORS']),
  image: entry(0xec407a, 'image', ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp', 'svg', 'ico', 'tif', 'tiff', 'avif', 'heic', 'psd']),
  media: entry(0xab47bc, 'audio and video', ['mp3', 'wav', 'flac', 'ogg', 'opus', 'm4a', 'aac', 'mp4', 'm4v', 'mkv', 'mov', 'avi', 'webm']),
  archive: entry(0xff7043, 'archive or package', ['zip', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'jar', 'war', 'deb', 'rpm', 'apk', 'dmg', 'iso', 'whl', 'gem', 'crate']),
  binary: entry(0xef5350, 'compiled binary or object', ['exe', 'dll', 'so', 'dylib', 'o', 'a', 'lib', 'obj', 'bin', 'wasm', 'class', 'pyc', 'node', 'elf']),
  document: entry(0x8d6e63, 'office document', ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'epub']),
  file: entry(0xbdbdbd, 'any other regular file'),
})

const BY_EXTENSION = new Map<string, ColorCategory>()
const BY_NAME = new Map<string, ColorCategory>()
for (const [category, { extensions, names }] of Object.entries(COLOR_TABLE) as Array<[ColorCategory, ColorEntry]>) {
  for (const extension of extensions) BY_EXTENSION.set(extension, category)
  for (const name of names) BY_NAME.set(name, category)
}

export function colorCategory(name: string, fileType: FileType): ColorCategory {
  if (fileType !== 'file') return fileType
  const byName = BY_NAME.get(name)
  if (byName !== undefined) return byName
  const dot = name.lastIndexOf('.')
  if (dot <= 0 || dot === name.length - 1) return 'file'
  return BY_EXTENSION.get(name.slice(dot + 1).toLowerCase()) ?? 'file'
}

export function colorOf(name: string, fileType: FileType): number {
  return COLOR_TABLE[colorCategory(name, fileType)].color
}

/**
 * Directories first, then by name in UTF-16 code-unit order: the same order on every
 * host and locale, which is what keeps x, y and the frame deterministic.
 */
export function compareEntries(a: { name: string; file_type: FileType }, b: { name: string; file_type: FileType }): number {
  const aDir = a.file_type === 'directory' ? 0 : 1
  const bDir = b.file_type === 'directory' ? 0 : 1
  if (aDir !== bDir) return aDir - bDir
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

export interface StatFields {
  size: number
  mode: number
  mtimeMs: number
}

export function toFileInfo(name: string, path: string, fileType: FileType, stats: StatFields, index: number, grid: Readonly<GridOptions> = DEFAULT_GRID): FileInfo {
  const { x, y } = gridPosition(index, grid)
  return {
    name,
    path,
    file_type: fileType,
    size: stats.size,
    permissions: permissionString(stats.mode),
    modified: new Date(Math.trunc(stats.mtimeMs)).toISOString(),
    x,
    y,
    color: colorOf(name, fileType),
  }
}
