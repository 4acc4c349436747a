import { CaptureBuffer } from './capture-buffer.js'
import type { CommandResult, Execution } from './shell-types.js'
import { cleanTerminalText } from './text-cleaner.js'

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 4: 'SIGILL', 5: 'SIGTRAP', 6: 'SIGABRT', 7: 'SIGBUS', 8: 'SIGFPE',
  9: 'SIGKILL', 10: 'SIGUSR1', 11: 'SIGSEGV', 12: 'SIGUSR2', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM',
}

/**
 * What a finished `execute` answers: its output and exit code, and only what went unusually
 * (a capture limit, a signal, a changed directory, a shell that exited).
 */
export function commandResult(exec: Execution, context: { captureBytes: number; cwd: string; cwdBefore: string; restarted: boolean }): CommandResult {
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
  // An interactive bash says "exit" on stderr as it ends: its own words, not the command's output.
  const stderrText = finished.shellExited ? stderr.text.replace(/(^|\n)exit\n$/, '$1') : stderr.text
  const result: CommandResult = { stdout: stdout.text, stderr: stderrText, exit_code: exitCode, success: exitCode === 0 }
  if (stdout.truncated || stderr.truncated) {
    result.truncated = true
    result.omitted_bytes = stdout.omittedBytes + stderr.omittedBytes
    result.hint = `stdout was ${stdout.bytes} bytes and stderr ${stderr.bytes}; each keeps its first and last ${Math.floor(context.captureBytes / 2)} bytes. Redirect to a file and read it for all of it`
  }
  if (context.cwd !== context.cwdBefore) result.cwd = context.cwd
  if (exitCode !== null && exitCode > 128 && SIGNALS[exitCode - 128] !== undefined && !finished.shellExited) {
    // bash reports death by signal n as 128 + n; a program that exits with such a code itself looks the same.
    result.signal = SIGNALS[exitCode - 128] as string
  }
  if (finished.shellExited) {
    if (context.restarted) {
      result.shell_restarted = true
      result.cwd = context.cwd
      result.hint = `the shell exited${exitCode === null ? '' : ` with ${exitCode}`}; a new shell started in ${context.cwd} (variables and functions of the old one are gone)`
    } else {
      result.hint = 'the shell itself exited; kill with restart: true starts a new one'
    }
  }
  if (exec.incomplete) {
    result.incomplete = true
    result.hint = 'bash asked for more input partway through the line (an unterminated quote, here-document or block); the rest was cancelled'
  }
  if (exec.shared) result.notes = ['stderr may include output of background processes started by earlier commands']
  return result
}

export function timedOutResult(exec: Execution, timeoutMs: number): CommandResult {
  const stdout = exec.stdout.result()
  const stderr = exec.stderr.result()
  const result: CommandResult = {
    stdout: stdout.text,
    stderr: stderr.text,
    exit_code: null,
    success: false,
    timed_out: true,
    timeout_ms: timeoutMs,
    offset: exec.offset,
    hint: `still running after ${timeoutMs} ms and left running: read its further output (read from offset ${exec.offset}), wait_for the prompt, interrupt or kill it`,
  }
  if (stdout.truncated || stderr.truncated) result.truncated = true
  return result
}
