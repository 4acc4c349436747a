import type { CaptureBuffer } from './capture-buffer.js'
import type { SandboxOptions } from './sandbox.js'
import type { StderrPipe } from './stderr-pipes.js'

/** The vocabulary of a shell session: its options, what each call answers, and the defaults. */

export const DEFAULT_COLS = 120
export const DEFAULT_ROWS = 32
export const DEFAULT_SCROLLBACK = 5000
export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_CAPTURE_BYTES = 1024 * 1024
export const DEFAULT_LOG_CHARS = 8 * 1024 * 1024
export const DEFAULT_READ_CHARS = 64 * 1024

export interface ShellSessionOptions {
  /** Working directory of the shell; default the process's. */
  cwd?: string | undefined
  /** The bash binary; default `bash` on PATH. Only bash is supported: the integration needs PS0, `bind -x` and the DEBUG trap. */
  shell?: string | undefined
  /** Added to the controlled environment (see docs/terminal.md); the host process's environment is not passed through. */
  env?: Record<string, string> | undefined
  cols?: number | undefined
  rows?: number | undefined
  scrollback?: number | undefined
  /** Run the shell inside bubblewrap. */
  sandbox?: SandboxOptions | undefined
  /** Characters of cleaned output kept for `read`; older output is dropped, and reads say so. */
  logChars?: number | undefined
  /** Bytes of stdout and of stderr an `execute` result holds, each; beyond it the middle is left out, and the result says so. */
  captureBytes?: number | undefined
  /** How long the shell may take to show its first prompt. */
  startTimeoutMs?: number | undefined
}

/** What `execute` reports: the protocol's CommandResult (snake_case: it is a tool result). */
export type { CommandResult } from '@tessera/protocol'

export interface ExecuteOptions {
  /** How long to wait for the command to finish; any positive number, no upper bound. Default 30 s. */
  timeoutMs?: number | undefined
  signal?: AbortSignal | undefined
}

export interface StartResult {
  [key: string]: string | number | boolean | null
  /** Output offset just before the command line; `read({since: offset})` returns everything it prints. */
  offset: number
  /** Still running after it started (false when it finished at once). */
  running: boolean
  exit_code: number | null
}

export interface ReadOptions {
  /** An output offset, or 'last' (the default): where the previous read or wait_for ended. */
  since?: number | 'last' | undefined
  /** Start at this absolute line (0-based, counted from the terminal's start). */
  line?: number | undefined
  /** Only the last `tail` lines. */
  tail?: number | undefined
  maxChars?: number | undefined
}

export interface ReadResult {
  [key: string]: string | number | boolean | null
  text: string
  offset: number
  next_offset: number
  /** Characters before `offset` that were asked for but no longer held (the log is bounded). */
  dropped: number
  line: number
  /** More output is held after next_offset (max_chars cut this read short). */
  more: boolean
  busy: boolean
  prompt_ready: boolean
  exit_code: number | null
}

export interface WaitForOptions {
  /** Plain text, or /regex/flags. */
  pattern?: string | undefined
  /** Wait until the shell is back at its prompt (the running program ended). */
  prompt?: boolean | undefined
  timeoutMs?: number | undefined
  since?: number | 'last' | undefined
  /** Match against the visible screen instead of the output stream (for full-screen programs). */
  screen?: boolean | undefined
  signal?: AbortSignal | undefined
}

export interface WaitForResult {
  [key: string]: string | number | boolean | null
  matched: boolean
  timed_out: boolean
  /** The matched text. */
  match: string | null
  /** Output from `since` through the end of the match (at most max read size, its end kept). */
  text: string
  next_offset: number
  busy: boolean
  prompt_ready: boolean
  exit_code: number | null
}

export interface KillOptions {
  /** Kill the whole shell and start a fresh one in the last working directory. */
  restart?: boolean | undefined
  /** Kill every process the shell started (background jobs too), not just the foreground one. */
  all?: boolean | undefined
  signal?: NodeJS.Signals | undefined
}

export type KillResult = {
  killed: number[]
  restarted: boolean
  signal: string
  /** Why nothing was killed. */
  note?: string
}

export type SessionStatus = 'starting' | 'ready' | 'running' | 'waiting-input' | 'exited' | 'closed'

export interface Execution {
  command: string
  pipe: StderrPipe
  shared: boolean
  startedAt: number
  offset: number
  sawStart: boolean
  /** Raw output since the last prompt: what bash printed if the line never started (a syntax error). */
  beforeStart: string
  stdout: CaptureBuffer
  stderr: CaptureBuffer
  finished: { exitCode: number | null; at: number; shellExited: boolean } | null
  incomplete: boolean
  detached: boolean
}

export interface Job {
  command: string
  offset: number
  started: boolean
  finished: boolean
  incomplete: boolean
}

export const KEYS: Readonly<Record<string, string>> = {
  enter: '\r', tab: '\t', escape: '\x1b', backspace: '\x7f', delete: '\x1b[3~', space: ' ',
  up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', left: '\x1b[D', home: '\x1b[H', end: '\x1b[F',
  pageup: '\x1b[5~', pagedown: '\x1b[6~',
  ...Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`ctrl-${String.fromCharCode(97 + i)}`, String.fromCharCode(i + 1)])),
  'ctrl-\\': '\x1c', 'ctrl-]': '\x1d',
}
