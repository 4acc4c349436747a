export { FileSurface, createFileSurface, type FileSurfaceOptions } from './file-surface.js'
export { FILE_ACTIONS, type FileActionId } from './file-actions.js'
export * from './file-schemas.js'
export {
  resolveInRoot,
  prepareRoots,
  displayPath,
  isInside,
  openDirectory,
  openSubdirectory,
  openParent,
  openFileForReading,
  notFound,
  USES_PROC_FD,
  MAX_PATH_BYTES,
  MAX_COMPONENT_BYTES,
  MAX_SYMLINK_HOPS,
  type Root,
  type ResolvedRoot,
  type ResolvedPath,
  type SafeDirectory,
} from './safe-path.js'
export {
  type FileInfo,
  type FileType,
  type GridOptions,
  type ColorCategory,
  type ColorEntry,
  COLOR_TABLE,
  DEFAULT_GRID,
  colorCategory,
  colorOf,
  compareEntries,
  fileTypeOf,
  gridPosition,
  permissionString,
  toFileInfo,
} from './file-info.js'
export {
  LIMITS,
  listDirectory,
  readFile,
  writeFile,
  editFile,
  scanDirectory,
  resolveDirectory,
  type Listing,
  type ListOptions,
  type DirectoryEntry,
  type DirectoryScan,
  type ReadResult,
  type ReadOptions,
  type WriteResult,
  type WriteOptions,
  type EditResult,
  type EditOptions,
} from './operations.js'
export { writeFileAtomic, versionOf, type AtomicWriteOptions, type AtomicWriteOutcome, type FileVersion } from './atomic-write.js'
export { compileGlob, expandBraces, MAX_PATTERN_LENGTH, MAX_BRACE_ALTERNATIVES, type CompiledGlob, type GlobOptions, type GlobState } from './glob.js'
export { filesKind, FilesConfig } from './file-kind.js'
export { findFiles, type FindLimit, type FindMatch, type FindOptions, type FindResult } from './find-files.js'
