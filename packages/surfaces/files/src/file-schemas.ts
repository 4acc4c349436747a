import { z } from 'zod'
import { MAX_PATTERN_LENGTH } from './glob.js'
import { LIMITS } from './operations.js'
import { MAX_PATH_BYTES } from './safe-path.js'

/** The schemas of the file actions' inputs and outputs: one source for the contracts' JSON Schemas and for validation. */

const FileType = z.enum(['file', 'directory', 'symlink', 'other'])

export const PathInput = z
  .string()
  .max(MAX_PATH_BYTES)
  .describe('Path relative to a root ("/" is the root; "name:/x" picks another root). Not relative to the current directory.')

const wholeFrom = (min: number, max: number = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max)

export const FileInfoSchema = z.object({
  name: z.string(),
  path: z.string().describe('Root-relative display path: "/src/a.ts", or "docs:/a.md" in another root.'),
  file_type: FileType,
  size: z.number(),
  permissions: z.string(),
  modified: z.string(),
  x: z.number(),
  y: z.number(),
  color: z.number().describe('0xRRGGBB by type and extension.'),
})

export const ListInput = z.strictObject({
  path: PathInput.optional().describe('Directory to list; default: the directory the tile shows.'),
  offset: wholeFrom(0).optional().describe('Skip this many entries of the sorted listing (directories first, then by name).'),
  limit: wholeFrom(1, LIMITS.listMaxLimit).optional().describe(`Entries to return; default ${LIMITS.listDefaultLimit}. A page as long as the limit may have more after it.`),
})
export const ListOutput = z.array(FileInfoSchema)

export const NavigateInput = z.strictObject({ path: PathInput })
export const NavigateOutput = z.object({ success: z.literal(true), files_count: z.number().int(), path: z.string() })

export const FindInput = z.strictObject({
  pattern: z.string().min(1).max(MAX_PATTERN_LENGTH).describe('Glob relative to path: *, ?, [a-z], **, {a,b}. Without "/" it matches names at any depth (as **/pattern).'),
  path: PathInput.optional().describe('Directory to search; default: the directory the tile shows.'),
  max_results: wholeFrom(1, LIMITS.findMaxResults).optional().describe(`Default ${LIMITS.findDefaultResults}; "truncated" says when more exist.`),
  max_depth: wholeFrom(1, LIMITS.findMaxDepth).optional().describe(`Directory levels below path; default ${LIMITS.findDefaultDepth}.`),
  include_hidden: z.boolean().optional().describe('Let wildcards match names starting with "." and search hidden directories; default false.'),
})
export const FindOutput = z.object({
  base: z.string(),
  matches: z.array(z.object({ name: z.string(), path: z.string(), type: FileType })),
  count: z.number().int(),
  truncated: z.boolean(),
  limits: z.array(z.enum(['max_results', 'max_depth', 'max_scanned'])),
  scanned: z.number().int(),
  skipped_directories: z.number().int(),
})

export const ReadInput = z.strictObject({
  path: PathInput,
  max_bytes: wholeFrom(1, LIMITS.readMaxBytes).optional().describe(`Default ${LIMITS.readDefaultBytes} (256 KiB); at most ${LIMITS.readMaxBytes} (16 MiB).`),
  offset: wholeFrom(0).optional().describe('Byte offset to start at; continue with next_offset.'),
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
  content: z.string().describe(`The new contents; at most ${LIMITS.writeMaxBytes} bytes once decoded.`),
  encoding: z.enum(['utf8', 'base64']).optional().describe('How content is encoded; default utf8.'),
  create_dirs: z.boolean().optional().describe('Create missing parent directories; default false.'),
})
export const WriteOutput = z.object({ success: z.literal(true), path: z.string(), bytes_written: z.number(), created: z.boolean() })

export const EditInput = z.strictObject({
  path: PathInput,
  old_text: z.string().min(1).describe('Exact text to replace (non-overlapping occurrences).'),
  new_text: z.string(),
  expected_count: wholeFrom(1).optional().describe('How many occurrences must exist; default 1. Nothing changes otherwise.'),
})
export const EditOutput = z.object({ success: z.literal(true), path: z.string(), replacements: z.number(), bytes_written: z.number() })
