/** CommandResult, FileInfo and TerminalInfo are the protocol's: one schema for the hub and its clients. */
export type { CommandResult, FileInfo, TerminalInfo } from '@tessera/protocol'

export interface FoundFile {
  name: string
  path: string
  type: string
}

export interface ReadResult {
  content: string
  truncated: boolean
  encoding: 'utf8' | 'base64'
  [extra: string]: unknown
}
