export { HubClient, Terminal, type ConnectOptions } from './hub-client.js'
export { ActionNotCompleted } from './action-error.js'
export type { CommandResult, FileInfo, FoundFile, ReadResult, TerminalInfo } from './types.js'
