import { FileInfo, FileType } from '@tessera/protocol'
import { z } from 'zod'
import { MAX_PATTERN_LENGTH } from './glob.js'
import { LIMITS } from './operations.js'
import { MAX_PATH_BYTES } from './safe-path.js'

/** The schemas of the file actions' inputs and outputs: one source for the contracts' JSON Schemas and for validation. */

export const PathInput = z
  .string()
  .max(MAX_PATH_BYTES)
  .describe('"/" is the root; "name:/x" another root')

const wholeFrom = (min: number, max: number = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max)

/** The protocol's FileInfo: the same schema the client and file_list's outputSchema use. */
export const FileInfoSchema = FileInfo

export const ListInput = z.strictObject({
  path: PathInput.optional().describe('default: the directory shown'),
  offset: wholeFrom(0).optional().describe('entries to skip (directories first, then by name)'),
  limit: wholeFrom(1, LIMITS.listMaxLimit).optional().describe(`default ${LIMITS.listDefaultLimit}`),
})
export const ListOutput = z.object({
  path: z.string(),
  files: z.array(FileInfoSchema),
  /** Entries in the directory, when this page is not all of them. */
  total: z.number().int().optional(),
})

export const NavigateInput = z.strictObject({ path: PathInput })
export const NavigateOutput = z.object({ success: z.literal(true), files_count: z.number().int(), path: z.string() })

export const FindInput = z.strictObject({
  pattern: z.string().min(1).max(MAX_PATTERN_LENGTH).describe('Glob: *, ?, [a-z], **, {a,b}'),
  path: PathInput.optional().describe('default: the directory shown'),
  max_results: wholeFrom(1, LIMITS.findMaxResults).optional().describe(`default ${LIMITS.findDefaultResults}`),
  max_depth: wholeFrom(1, LIMITS.findMaxDepth).optional().describe(`default ${LIMITS.findDefaultDepth}`),
  include_hidden: z.boolean().optional().describe('match and enter dot-names'),
})
export const FindOutput = z.object({
  base: z.string(),
  matches: z.array(z.object({ name: z.string(), path: z.string(), type: FileType })),
  truncated: z.boolean(),
  /** What stopped the search, when it was stopped. */
  limits: z.array(z.enum(['max_results', 'max_depth', 'max_scanned'])).optional(),
  /** Directories that could not be read. */
  skipped_directories: z.number().int().optional(),
})

export const ReadInput = z.strictObject({
  path: PathInput,
  max_bytes: wholeFrom(1, LIMITS.readMaxBytes).optional().describe(`default ${LIMITS.readDefaultBytes}`),
  offset: wholeFrom(0).optional().describe('byte offset; continue at next_offset'),
})
export const ReadOutput = z.object({
  path: z.string(),
  content: z.string(),
  encoding: z.enum(['utf8', 'base64']),
  truncated: z.boolean(),
  size: z.number(),
  offset: z.number(),
  bytes_read: z.number(),
  next_offset: z.number().nullable(),
})

export const WriteInput = z.strictObject({
  path: PathInput,
  content: z.string(),
  encoding: z.enum(['utf8', 'base64']).optional(),
  create_dirs: z.boolean().optional(),
})
export const WriteOutput = z.object({ success: z.literal(true), path: z.string(), bytes_written: z.number(), created: z.boolean() })

export const EditInput = z.strictObject({
  path: PathInput,
  old_text: z.string().min(1),
  new_text: z.string(),
  expected_count: wholeFrom(1).optional(),
})
export const EditOutput = z.object({ success: z.literal(true), path: z.string(), replacements: z.number(), bytes_written: z.number() })
