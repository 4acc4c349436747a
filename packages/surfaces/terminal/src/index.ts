export { TerminalSurface, type TerminalSurfaceOptions } from './terminal-surface.js'
export {
  ShellSession,
  KEYS,
  DEFAULT_CAPTURE_BYTES,
  DEFAULT_COLS,
  DEFAULT_ROWS,
  DEFAULT_SCROLLBACK,
  DEFAULT_TIMEOUT_MS,
  type CommandResult,
  type ExecuteOptions,
  type KillOptions,
  type KillResult,
  type ReadOptions,
  type ReadResult,
  type SessionStatus,
  type ShellSessionOptions,
  type StartResult,
  type WaitForOptions,
  type WaitForResult,
} from './shell-session.js'
export { TERMINAL_ACTIONS } from './terminal-actions.js'
export { classifyCommand, type CommandClassification, type CommandRisk } from './command-policy.js'
export { scanShell, type ScannedShell } from './shell-scan.js'
export { sandboxCommand, sandboxAvailable, type SandboxCommand, type SandboxLayout, type SandboxOptions } from './sandbox.js'
export { OutputLog, type LogSlice } from './output-log.js'
export { Screen, type ScreenCursor, type ScreenStream } from './screen.js'
export { keystrokes, type Keystroke } from './keystrokes.js'
export { terminalKind, TerminalConfig } from './terminal-kind.js'
export { CommandResultSchema } from './terminal-actions.js'
