import { actionSet, defineAction } from '@tessera/kit'
import { CommandResult } from '@tessera/protocol'
import { z } from 'zod'
import { commandRisk, inputRisk } from './input-risk.js'
import type { TerminalSurface } from './terminal-surface.js'

const terminalAction = defineAction<TerminalSurface>()

/**
 * Always true; it is here for the value it reads. An approval holds while the values its
 * preconditions read stay the same, so one given for `rm -rf ./build` no longer holds once a
 * sourced script has redefined `rm` (the shell's functions and aliases, hashed; see
 * ShellSession.definitions) — and the person sees which value moved.
 */
const BOUND_TO_DEFINITIONS = 'shellDefinitions !== ""'

const Since = z.union([z.number().int().min(0), z.literal('last')]).describe('an output offset; default "last": where the last read ended')
const Timeout = z.number().int().min(1).describe('default 30000')
const Signal = z.enum(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'])
const exitCode = z.number().int().nullable()

/** The protocol's CommandResult: the same schema the client and the tools' outputSchema use. */
export const CommandResultSchema = CommandResult

/**
 * The terminal's actions. Risks are the floor: `assess` raises execute, start and input to
 * destructive when the classifier finds a destructive command, so the gateway asks a human
 * first. Reading, typing, waiting, interrupting and killing run beside a command that holds
 * the terminal (`exclusive: false`).
 *
 * `kill` is write, not destructive: it only ends processes this terminal started, which the
 * agent could end anyway with interrupt or with a `kill` command of its own. Closing a
 * terminal is the map's `close`, like any tile.
 */
export const TERMINAL_ACTIONS = actionSet<TerminalSurface>([
  terminalAction({
    id: 'execute',
    title: 'Run a command and wait for its result',
    summary: 'Run {input.command} in {cwd}',
    preconditions: [BOUND_TO_DEFINITIONS],
    risk: 'write',
    input: z.strictObject({ command: z.string().min(1), timeout_ms: Timeout.optional() }),
    output: CommandResultSchema,
    timeout: (input) => input.timeout_ms ?? null,
    assess: (input) => commandRisk(input.command),
    run: (input, { surface, signal }) => surface.session.execute(input.command, { timeoutMs: input.timeout_ms, signal }),
  }),
  terminalAction({
    id: 'start',
    kind: 'execute',
    title: 'Start a long-running or interactive command without waiting',
    summary: 'Start {input.command} in {cwd}',
    preconditions: [BOUND_TO_DEFINITIONS],
    risk: 'write',
    input: z.strictObject({ command: z.string().min(1) }),
    output: z.object({ offset: z.number(), running: z.boolean(), exit_code: exitCode }).loose(),
    assess: (input) => commandRisk(input.command),
    run: (input, { surface, signal }) => surface.session.start(input.command, { signal }),
  }),
  terminalAction({
    id: 'read',
    exclusive: false,
    title: 'Read output: new since the last read, from an offset or line, or the tail',
    risk: 'read',
    input: z.strictObject({
      since: Since.optional(),
      line: z.number().int().min(0).optional().describe('0-based, from the terminal start'),
      tail: z.number().int().min(0).optional().describe('the last N lines'),
      max_chars: z.number().int().min(1).optional().describe('default 65536'),
    }),
    output: z.object({ text: z.string(), offset: z.number(), next_offset: z.number(), more: z.boolean(), busy: z.boolean(), prompt_ready: z.boolean(), exit_code: exitCode }).loose(),
    run: (input, { surface }) => surface.session.read({ since: input.since, line: input.line, tail: input.tail, maxChars: input.max_chars }),
  }),
  terminalAction({
    id: 'input',
    exclusive: false,
    kind: 'type',
    title: 'Type text or keys into the terminal',
    summary: 'Type {input.text ?? ""}{(input.enter ?? false) ? " ⏎" : ""} {input.keys ?? ""} into the terminal (running: {running ?? "the shell"}, in {cwd})',
    risk: 'write',
    input: z.strictObject({
      text: z.string().optional(),
      enter: z.boolean().optional(),
      // Named in the description, not as an enum of 42: the session names them all when one is unknown.
      keys: z.array(z.string()).max(64).optional().describe('pressed after the text: enter, tab, escape, backspace, delete, up, down, left, right, home, end, pageup, pagedown, ctrl-a … ctrl-z'),
    }),
    output: z.looseObject({}),
    // At the prompt, keys decide what runs: see input-risk.ts.
    assess: (input, _call, surface) => inputRisk(input, { atShellPrompt: surface.session.current === null, lineEdited: surface.session.lineEdited }),
    run: (input, { surface }) => surface.session.input(input.text ?? '', { enter: input.enter, keys: input.keys }),
  }),
  terminalAction({
    id: 'wait_for',
    exclusive: false,
    kind: 'wait',
    title: 'Wait for output matching a pattern, or for the shell prompt',
    risk: 'read',
    input: z.strictObject({
      pattern: z.string().min(1).max(1000).optional().describe('text or /regex/flags'),
      prompt: z.boolean().optional(),
      timeout_ms: Timeout.optional(),
      since: Since.optional(),
      screen: z.boolean().optional().describe('match the screen, not the output'),
    }),
    output: z.object({ matched: z.boolean(), timed_out: z.boolean(), match: z.string().nullable(), text: z.string(), next_offset: z.number(), busy: z.boolean(), prompt_ready: z.boolean(), exit_code: exitCode }).loose(),
    timeout: (input) => input.timeout_ms ?? null,
    run: (input, { surface, signal }) =>
      surface.session.waitFor({ pattern: input.pattern, prompt: input.prompt, timeoutMs: input.timeout_ms, since: input.since, screen: input.screen, signal }),
  }),
  terminalAction({
    id: 'describe',
    exclusive: false,
    kind: 'read',
    title: 'Describe the terminal: directory, status, command history and the visible screen',
    risk: 'read',
    input: z.strictObject({}),
    output: z.object({
      working_dir: z.string(),
      busy: z.boolean(),
      status: z.string(),
      cols: z.number().int(),
      rows: z.number().int(),
      command_history: z.array(z.string()),
      lines: z.array(z.string()),
    }),
    run: (_input, { surface }) => ({
      working_dir: surface.session.cwd,
      busy: surface.session.busy,
      status: surface.session.status,
      cols: surface.session.screen.cols,
      rows: surface.session.screen.rows,
      command_history: [...surface.session.history],
      lines: surface.session.screen.lines(),
    }),
  }),
  terminalAction({
    id: 'interrupt',
    exclusive: false,
    title: 'Interrupt the running program (Ctrl-C)',
    risk: 'write',
    input: z.strictObject({}),
    output: z.object({ offset: z.number() }).loose(),
    run: (_input, { surface }) => surface.session.interrupt(),
  }),
  terminalAction({
    id: 'kill',
    exclusive: false,
    title: 'Kill the foreground program, all programs of this terminal, or restart the shell',
    risk: 'write',
    input: z.strictObject({ restart: z.boolean().optional(), all: z.boolean().optional(), signal: Signal.optional() }),
    output: z.object({ killed: z.array(z.number()), restarted: z.boolean(), signal: z.string(), note: z.string().optional() }),
    run: (input, { surface }) => surface.session.kill({ restart: input.restart, all: input.all, signal: input.signal }),
  }),
])
