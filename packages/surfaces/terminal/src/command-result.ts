import { CaptureBuffer } from './capture-buffer.js'
import type { CommandResult, Execution } from './shell-types.js'
import { cleanTerminalText } from './text-cleaner.js'

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 4: 'SIGILL', 5: 'SIGTRAP', 6: 'SIGABRT', 7: 'SIGBUS', 8: 'SIGFPE',
  9: 'SIGKILL', 10: 'SIGUSR1', 11: 'SIGSEGV', 12: 'SIGUSR2', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM',
}

/** What a finished `execute` answers: its captured output, exit code and what went unusually. */
export function commandResult(exec: Execution, context: { captureBytes: number; cwd: string }): CommandResult {
  const finished = exec.finished as NonNullable<Execution['finished']>
  let stdout = exec.stdout.result()
  let stderr = exec.stderr.result()
  if (!exec.sawStart && !finished.shellExited) {
    // Nothing started: bash rejected the line itself (a syntax error) and said why on the terminal.
    let said = cleanTerminalText(exec.beforeStart)
    if (said.startsWith(exec.command)) said = said.slice(exec.command.length).replace(/^\n/, '')
    const capture = new CaptureBuffer(context.captureBytes)
    capture.append(said)
    stderr = capture.result()
    stdout = new CaptureBuffer(context.captureBytes).result()
  }
  const exitCode = finished.exitCode
  const result: CommandResult = {
    stdout: stdout.text,
    stderr: stderr.text,
    exit_code: exitCode,
    success: exitCode === 0,
    duration_ms: round(finished.at - exec.startedAt),
    truncated: stdout.truncated || stderr.truncated,
    timed_out: false,
    stdout_bytes: stdout.bytes,
    stderr_bytes: stderr.bytes,
    offset: exec.offset,
    cwd: context.cwd,
  }
  if (stdout.truncated || stderr.truncated) {
    result.omitted_bytes = stdout.omittedBytes + stderr.omittedBytes
    result.capture_limit_bytes = context.captureBytes
  }
  if (exitCode !== null && exitCode > 128 && SIGNALS[exitCode - 128] !== undefined) {
    // bash reports death by signal n as 128 + n; a program that exits with such a code itself looks the same.
    result.signal = SIGNALS[exitCode - 128] as string
  }
  if (finished.shellExited) {
    result.shell_exited = true
    result.hint = 'the shell itself exited; kill with restart: true starts a new one'
  }
  if (exec.incomplete) {
    result.incomplete = true
    result.hint = 'bash asked for more input partway through the line (an unterminated quote, here-document or block); the rest was cancelled'
  }
  if (exec.shared) result.notes = ['stderr may include output of background processes started by earlier commands']
  return result
}

export function timedOutResult(exec: Execution, timeoutMs: number, cwd: string): CommandResult {
  const stdout = exec.stdout.result()
  const stderr = exec.stderr.result()
  return {
    stdout: stdout.text,
    stderr: stderr.text,
    exit_code: null,
    success: false,
    duration_ms: round(performance.now() - exec.startedAt),
    truncated: stdout.truncated || stderr.truncated,
    timed_out: true,
    stdout_bytes: stdout.bytes,
    stderr_bytes: stderr.bytes,
    offset: exec.offset,
    cwd,
    timeout_ms: timeoutMs,
    hint: `still running after ${timeoutMs} ms and left running: read its further output (read from offset ${exec.offset}), wait_for the prompt, interrupt or kill it`,
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}
