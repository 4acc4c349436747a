import type { ActionContract } from '@tessera/protocol'
import { agentAction } from '@tessera/ui'
import { KEYS } from './shell-session.js'

const since = {
  description: 'An output offset, or "last": where the previous read or wait_for ended (the default).',
  oneOf: [{ type: 'integer', minimum: 0 }, { const: 'last' }],
}
const timeout = { type: 'integer', minimum: 1, description: 'Milliseconds; any positive value, no upper bound. Default 30000.' }

/**
 * The terminal's action contracts. Risks are the floor: `assess` raises execute, start and
 * input to destructive when the classifier finds a destructive command, so the gateway
 * asks a human first.
 *
 * `kill` is write, not destructive: it only ends processes this terminal started, which
 * the agent could end anyway with interrupt or with a `kill` command of its own.
 */
export const TERMINAL_ACTIONS: readonly ActionContract[] = [
  agentAction({
    id: 'execute',
    kind: 'execute',
    title: 'Run a command and wait for its result',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1 }, timeout_ms: timeout },
      required: ['command'],
      additionalProperties: false,
    },
  }),
  agentAction({
    id: 'start',
    kind: 'execute',
    title: 'Start a long-running or interactive command without waiting',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1 } },
      required: ['command'],
      additionalProperties: false,
    },
  }),
  agentAction({
    id: 'read',
    // Runs beside a command that holds the terminal: reading it, feeding it, stopping it.
    exclusive: false,
    kind: 'read',
    title: 'Read output: new since the last read, from an offset or line, or the tail',
    risk: 'read',
    inputSchema: {
      type: 'object',
      properties: {
        since,
        line: { type: 'integer', minimum: 0, description: 'Absolute line number, 0-based, counted from the terminal start.' },
        tail: { type: 'integer', minimum: 0, description: 'Only the last N lines.' },
        max_chars: { type: 'integer', minimum: 1, description: 'At most this many characters (default 65536); `more` says when output was left for the next read.' },
      },
      additionalProperties: false,
    },
  }),
  agentAction({
    id: 'input',
    // Runs beside a command that holds the terminal: reading it, feeding it, stopping it.
    exclusive: false,
    kind: 'type',
    title: 'Type text or keys into the terminal',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        enter: { type: 'boolean', description: 'Press Enter after the text.' },
        keys: { type: 'array', items: { type: 'string', enum: Object.keys(KEYS) }, maxItems: 64, description: 'Named keys pressed after the text.' },
      },
      additionalProperties: false,
    },
  }),
  agentAction({
    id: 'wait_for',
    // Runs beside a command that holds the terminal: reading it, feeding it, stopping it.
    exclusive: false,
    kind: 'wait',
    title: 'Wait for output matching a pattern, or for the shell prompt',
    risk: 'read',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: 1000, description: 'Plain text, or /regex/flags.' },
        prompt: { type: 'boolean', description: 'Wait until the shell is back at its prompt.' },
        timeout_ms: timeout,
        since,
        screen: { type: 'boolean', description: 'Match the visible screen instead of the output stream.' },
      },
      additionalProperties: false,
    },
  }),
  agentAction({
    id: 'interrupt',
    // Runs beside a command that holds the terminal: reading it, feeding it, stopping it.
    exclusive: false,
    kind: 'interrupt',
    title: 'Interrupt the running program (Ctrl-C)',
    risk: 'write',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  }),
  agentAction({
    id: 'kill',
    // Runs beside a command that holds the terminal: reading it, feeding it, stopping it.
    exclusive: false,
    kind: 'kill',
    title: 'Kill the foreground program, all programs of this terminal, or restart the shell',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: {
        restart: { type: 'boolean' },
        all: { type: 'boolean' },
        signal: { type: 'string', enum: ['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'] },
      },
      additionalProperties: false,
    },
  }),
  agentAction({
    id: 'close',
    kind: 'close',
    title: 'Close the terminal and end everything it started',
    risk: 'write',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  }),
]
