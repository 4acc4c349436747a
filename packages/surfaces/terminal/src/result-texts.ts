import { outputFields as fields, withoutFinalNewline } from '@tessera/kit'
import type { CommandResult, JsonValue } from '@tessera/protocol'

/**
 * How the terminal tools' completed results read to a model: the output itself, and one
 * bracketed line with what a caller needs next (exit code, and only what went unusually).
 * The lean structured answer (lean-answers.ts) carries the same facts as fields.
 */

export function commandText(output: JsonValue): string {
  const result = fields<CommandResult>(output)
  const lines: string[] = []
  if (result.stdout) lines.push(withoutFinalNewline(result.stdout))
  if (result.stderr) lines.push(`stderr:\n${withoutFinalNewline(result.stderr)}`)
  const status: string[] = []
  if (result.timed_out) status.push(`timed out after ${result.timeout_ms} ms, still running; read from offset ${result.offset}`)
  else status.push(`exit ${result.exit_code ?? '?'}`)
  if (result.signal) status.push(result.signal)
  if (result.truncated) status.push(`truncated: ${result.omitted_bytes ?? 'some'} bytes left out`)
  if (result.shell_restarted) status.push(`new shell in ${result.cwd}`)
  else if (result.cwd) status.push(`cwd ${result.cwd}`)
  lines.push(`[${status.join(' · ')}]`)
  // The hint says what the bracket cannot: an incomplete line, a shell that did not come back.
  if (result.hint && !result.timed_out && !result.shell_restarted) lines.push(result.hint)
  for (const note of result.notes ?? []) lines.push(note)
  return lines.join('\n')
}

export function startText(output: JsonValue): string {
  const result = fields(output)
  if (result.running === true) return `started; running. Its output starts at offset ${result.offset}: terminal_read, terminal_wait_for.`
  return `finished at once [exit ${result.exit_code ?? '?'}]; its output starts at offset ${result.offset}`
}

export function readText(output: JsonValue): string {
  const result = fields(output)
  const status = [`next_offset ${result.next_offset}`]
  if (result.more === true) status.push('more held')
  if (typeof result.dropped === 'number' && result.dropped > 0) status.push(`${result.dropped} characters no longer held`)
  status.push(result.busy === true ? 'running' : `at prompt, last exit ${result.exit_code ?? '-'}`)
  const text = typeof result.text === 'string' ? withoutFinalNewline(result.text) : ''
  return `${text}${text ? '\n' : ''}[${status.join(' · ')}]`
}

export function waitText(output: JsonValue): string {
  const result = fields(output)
  const text = typeof result.text === 'string' ? withoutFinalNewline(result.text) : ''
  const head = result.matched === true ? (typeof result.match === 'string' ? `matched ${JSON.stringify(result.match)}` : 'at prompt') : 'timed out without a match'
  const state = result.busy === true ? 'running' : `at prompt, last exit ${result.exit_code ?? '-'}`
  return `${text}${text ? '\n' : ''}[${head} · next_offset ${result.next_offset} · ${state}]`
}

export function killText(output: JsonValue): string {
  const result = fields(output)
  const killed = Array.isArray(result.killed) ? result.killed : []
  const parts = [killed.length > 0 ? `killed ${killed.join(', ')} (${result.signal})` : 'killed nothing']
  if (result.restarted === true) parts.push('started a new shell')
  if (typeof result.note === 'string') parts.push(result.note)
  return parts.join('; ')
}
