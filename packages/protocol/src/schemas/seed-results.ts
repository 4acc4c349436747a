import { z } from 'zod'

/**
 * The result types the seed's tools answer with (`CommandResult`, `FileInfo`,
 * `TerminalInfo`): one source for the surfaces that produce them, the client that reads
 * them and the MCP tools' `outputSchema`. Fields that usually say nothing (`truncated`,
 * `timed_out`, a changed `cwd`) are present only when they do, so a plain call stays short.
 */

export const CommandResult = z.object({
  stdout: z.string(),
  stderr: z.string(),
  /** null when the command has not finished (it timed out). */
  exit_code: z.number().int().nullable(),
  /** exit_code is 0. */
  success: z.boolean(),
  /** The middle of stdout or stderr was left out (the capture limit); `hint` says how much. */
  truncated: z.literal(true).optional(),
  omitted_bytes: z.number().int().optional(),
  /** Still running after timeout_ms, and left running; its output starts at `offset`. */
  timed_out: z.literal(true).optional(),
  timeout_ms: z.number().optional(),
  offset: z.number().int().optional(),
  /** The new working directory, when the command changed it. */
  cwd: z.string().optional(),
  signal: z.string().optional(),
  /** The shell exited (`exit 4`); a new one started in the same directory. */
  shell_restarted: z.literal(true).optional(),
  incomplete: z.literal(true).optional(),
  hint: z.string().optional(),
  notes: z.array(z.string()).optional(),
})
export type CommandResult = z.infer<typeof CommandResult>

export const FileType = z.enum(['file', 'directory', 'symlink', 'other'])
export type FileType = z.infer<typeof FileType>

export const FileInfo = z.object({
  name: z.string(),
  /** Root-relative display path: "/src/a.ts", or "docs:/a.md" in a root other than the default. */
  path: z.string(),
  /** From lstat: a symlink is reported as one, never followed. */
  file_type: FileType,
  /** Bytes (lstat size: for a symlink, the length of its target text). */
  size: z.number(),
  /** "rwxr-xr-x" style, with s/S and t/T for setuid, setgid and sticky as ls shows them. */
  permissions: z.string(),
  /** Last modification, ISO 8601 UTC. */
  modified: z.string(),
  /** Position of the entry's cell on the tile, in the frame's coordinates. */
  x: z.number(),
  y: z.number(),
  /** 0xRRGGBB by type and extension. */
  color: z.number(),
})
export type FileInfo = z.infer<typeof FileInfo>

export const TerminalInfo = z.object({
  id: z.string(),
  working_dir: z.string(),
  focused: z.boolean(),
  busy: z.boolean(),
  status: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  /** Command lines run or started, oldest first (the last 100). */
  command_history: z.array(z.string()),
  /** The visible screen, one string per row. */
  lines: z.array(z.string()),
})
export type TerminalInfo = z.infer<typeof TerminalInfo>
