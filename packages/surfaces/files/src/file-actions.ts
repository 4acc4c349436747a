import { defineAction, actionSet } from '@tessera/kit'
import { EditInput, EditOutput, FindInput, FindOutput, ListInput, ListOutput, NavigateInput, NavigateOutput, ReadInput, ReadOutput, WriteInput, WriteOutput } from './file-schemas.js'
import type { FileSurface } from './file-surface.js'
import { findFiles } from './find-files.js'
import { LIMITS, editFile, listDirectory, readFile, writeFile } from './operations.js'

const fileAction = defineAction<FileSurface>()

/**
 * The file surface's actions, each defined once. They belong to the whole tile (no element
 * carries them) and paths are relative to a root, never to the directory the tile shows;
 * that directory only sets the defaults of list and find.
 */
export const FILE_ACTIONS = actionSet<FileSurface>([
  fileAction({
    id: 'list',
    title: 'List a directory',
    risk: 'read',
    input: ListInput,
    output: ListOutput,
    run: async (input, { surface, signal }) => {
      const offset = input.offset ?? 0
      const listing = await listDirectory(await surface.roots(), input.path ?? surface.cwd, { offset, limit: input.limit ?? LIMITS.listDefaultLimit, grid: surface.grid, signal })
      const whole = offset === 0 && listing.files.length === listing.total
      return { path: listing.directory.display, files: listing.files, ...(whole ? {} : { total: listing.total }) }
    },
  }),
  fileAction({
    id: 'navigate',
    title: 'Move the file tile to a directory',
    // Read: it touches no file, is idempotent and undone by navigating back; only the
    // tile's view (state.cwd) moves, as a claims list's "open claim" does.
    risk: 'read',
    input: NavigateInput,
    output: NavigateOutput,
    run: (input, { surface, signal }) => surface.navigate(input.path, signal),
  }),
  fileAction({
    id: 'find',
    kind: 'search',
    title: 'Find files by glob pattern',
    risk: 'read',
    input: FindInput,
    output: FindOutput,
    run: async (input, { surface, signal }) => {
      const found = await findFiles(await surface.roots(), {
        pattern: input.pattern,
        path: input.path ?? surface.cwd,
        maxResults: input.max_results ?? LIMITS.findDefaultResults,
        maxDepth: input.max_depth ?? LIMITS.findDefaultDepth,
        includeHidden: input.include_hidden ?? false,
        signal,
      })
      // What stopped the search, and what could not be searched, only when something did.
      return {
        base: found.base,
        matches: found.matches,
        truncated: found.truncated,
        ...(found.truncated ? { limits: found.limits } : {}),
        ...(found.skipped_directories > 0 ? { skipped_directories: found.skipped_directories } : {}),
      }
    },
  }),
  fileAction({
    id: 'read',
    title: 'Read a file',
    risk: 'read',
    input: ReadInput,
    output: ReadOutput,
    run: async (input, { surface }) => readFile(await surface.roots(), input.path, { maxBytes: input.max_bytes ?? LIMITS.readDefaultBytes, offset: input.offset ?? 0 }),
  }),
  fileAction({
    id: 'write',
    title: 'Write a whole file',
    summary: 'Write {len(input.content)} characters to {input.path}',
    risk: 'write',
    input: WriteInput,
    output: WriteOutput,
    run: async (input, { surface }) => {
      surface.expectOwnWrite(input.path)
      return writeFile(await surface.roots(), input.path, { content: input.content, encoding: input.encoding ?? 'utf8', createDirs: input.create_dirs ?? false })
    },
  }),
  fileAction({
    id: 'edit',
    title: 'Replace exact text in a file',
    summary: 'In {input.path}, replace {input.old_text} with {input.new_text}',
    risk: 'write',
    input: EditInput,
    output: EditOutput,
    run: async (input, { surface }) => {
      surface.expectOwnWrite(input.path)
      return editFile(await surface.roots(), input.path, { oldText: input.old_text, newText: input.new_text, expectedCount: input.expected_count ?? 1 })
    },
  }),
])

export type FileActionId = 'list' | 'navigate' | 'find' | 'read' | 'write' | 'edit'
