import { type LeanForm, leanFields, leanForm, outputFields as fields } from '@tessera/kit'
import type { FileInfo, JsonValue } from '@tessera/protocol'
import { z } from 'zod'

/*
 * What the file tools answer as structuredContent (see LeanForm). A listing names entries
 * by kind — files with their sizes — rather than one FileInfo each: a tile's cell place and
 * colour, permissions and times are for the map and the project's client, which get the
 * whole FileInfo. `success: true` is never sent: a completed call succeeded.
 */

const names = z.array(z.string())

export const LeanListing = z.object({
  path: z.string(),
  dirs: names.optional(),
  /** File name → size in bytes. */
  files: z.record(z.string(), z.number()).optional(),
  links: names.optional().describe('symbolic links (never followed)'),
  other: names.optional().describe('sockets, FIFOs, devices'),
  total: z.number().int().optional().describe('entries in the directory, when this page is not all'),
})

export const listAnswer: LeanForm = leanForm(LeanListing, (output) => {
  const listed = fields<{ path: string; files: FileInfo[]; total: number }>(output)
  const entries = listed.files ?? []
  const named = (type: FileInfo['file_type']) => entries.filter((f) => f.file_type === type).map((f) => f.name)
  return leanFields({
    path: listed.path ?? '',
    dirs: named('directory'),
    // fromEntries defines own properties: a file named __proto__ stays a file.
    files: Object.fromEntries(entries.filter((f) => f.file_type === 'file').map((f) => [f.name, f.size])),
    links: named('symlink'),
    other: named('other'),
    total: listed.total ?? null,
  })
})

export const findAnswer: LeanForm = leanForm(
  z.object({
    matches: names.describe('root-relative paths; a directory ends in /'),
    truncated: z.literal(true).optional(),
    limits: names.optional(),
    skipped_directories: z.number().int().optional(),
  }),
  (output) => {
    const found = fields<{ matches: Array<{ path: string; type: string }> }>(output)
    const matches = (found.matches ?? []).map((m) => (m.type === 'directory' ? `${m.path}/` : m.path))
    return { ...leanFields(output, { drop: ['base', 'matches'] }), matches }
  },
)

export const readAnswer: LeanForm = leanForm(
  z.object({
    content: z.string(),
    encoding: z.literal('base64').optional(),
    truncated: z.literal(true).optional(),
    size: z.number().optional(),
    offset: z.number().optional(),
    bytes_read: z.number().optional(),
    next_offset: z.number().optional(),
  }),
  (output) => {
    const read = fields<{ truncated: boolean; offset: number; encoding: string }>(output)
    // A whole file read from its start is its content; positions matter for a part of one.
    const whole = read.truncated !== true && (read.offset ?? 0) === 0
    const drop = ['path', ...(whole ? ['size', 'offset', 'bytes_read', 'next_offset'] : []), ...(read.encoding === 'base64' ? [] : ['encoding'])]
    return leanFields(output, { drop, always: ['content'] })
  },
)

export const writeAnswer: LeanForm = leanForm(z.object({ path: z.string(), bytes_written: z.number(), created: z.literal(true).optional() }), (output) =>
  leanFields(output, { drop: ['success'], always: ['bytes_written'] }),
)

export const editAnswer: LeanForm = leanForm(z.object({ path: z.string(), replacements: z.number() }), (output) =>
  leanFields(output, { drop: ['success', 'bytes_written'], always: ['replacements'] }),
)

export const navigateAnswer: LeanForm = leanForm(z.object({ path: z.string(), files_count: z.number().int() }), (output) =>
  leanFields(output, { drop: ['success'], always: ['files_count'] }),
)
