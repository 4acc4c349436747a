/** What a command run in a terminal returns (CommandResult, docs/terminal.md). */
export interface CommandResult {
  stdout: string
  stderr: string
  exit_code: number | null
  success: boolean
  duration_ms: number
  truncated: boolean
  timed_out?: boolean
  cwd?: string
  [extra: string]: unknown
}

/** One entry of a directory listing (FileInfo, docs/files.md). */
export interface FileInfo {
  name: string
  path: string
  file_type: 'file' | 'directory' | 'symlink' | 'other'
  size: number
  permissions: string
  modified: string
  x: number
  y: number
  color: number
}

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
