import { type LeanForm, leanFields, leanForm, outputFields } from '@tessera/kit'
import { CommandResult, type JsonObject, type JsonValue, type TerminalInfo } from '@tessera/protocol'
import { z } from 'zod'

/*
 * What the terminal tools answer as structuredContent (see LeanForm): a field is sent only
 * when it says something, output text without its final newline. `success` is left out (it
 * is `exit_code === 0`), and so are a tile's place and size. The protocol's CommandResult and
 * TerminalInfo are what the trace and the project's client get.
 */

const exitCode = z.number().int().nullable()

export const LeanCommandResult = CommandResult.omit({ success: true }).extend({
  stdout: z.string().optional().describe('without its final newline; left out when empty'),
  stderr: z.string().optional(),
})

export function leanCommandResult(output: JsonValue): JsonObject {
  const result = outputFields<CommandResult>(output)
  // As in the text: a timeout or a new shell is said by its fields; the hint would repeat them.
  const hintRepeats = result.timed_out === true || result.shell_restarted === true
  return leanFields(output, { drop: ['success', ...(hintRepeats ? ['hint'] : [])], always: ['exit_code'], trim: ['stdout', 'stderr'] })
}

export const commandAnswer: LeanForm = leanForm(LeanCommandResult, leanCommandResult)

export const startAnswer: LeanForm = leanForm(z.object({ offset: z.number(), running: z.boolean(), exit_code: exitCode.optional() }), (output) =>
  leanFields(output, { always: ['offset', 'running'] }),
)

/** Read and wait_for: the text, where to read on, and only the states that hold. */
const outputRead = { text: z.string().optional(), next_offset: z.number(), more: z.literal(true).optional(), busy: z.literal(true).optional(), exit_code: exitCode.optional() }

export const readAnswer: LeanForm = leanForm(z.object({ ...outputRead, dropped: z.number().optional() }), (output) =>
  leanFields(output, { drop: ['offset', 'prompt_ready'], always: ['next_offset'], trim: ['text'] }),
)

export const waitAnswer: LeanForm = leanForm(
  z.object({ matched: z.boolean(), timed_out: z.literal(true).optional(), match: z.string().optional(), ...outputRead }),
  (output) => leanFields(output, { drop: ['offset', 'prompt_ready'], always: ['matched', 'next_offset'], trim: ['text'] }),
)

export const killAnswer: LeanForm = leanForm(
  z.object({ killed: z.array(z.number()).optional(), restarted: z.literal(true).optional(), signal: z.string(), note: z.string().optional() }),
  (output) => leanFields(output, { always: ['signal'] }),
)

/** A terminal in a list: which, where, doing what, and the last command; the screen is terminal_read's. */
export const LeanTerminal = z.object({
  id: z.string(),
  working_dir: z.string(),
  status: z.string(),
  focused: z.literal(true).optional(),
  busy: z.literal(true).optional(),
  last_command: z.string().optional(),
})
export const LeanTerminalList = z.object({ terminals: z.array(LeanTerminal) })

export function leanTerminalList(terminals: readonly TerminalInfo[]): JsonObject {
  return {
    terminals: terminals.map((t) =>
      leanFields({ id: t.id, working_dir: t.working_dir, status: t.status, focused: t.focused, busy: t.busy, last_command: t.command_history.at(-1) ?? null }),
    ),
  }
}
