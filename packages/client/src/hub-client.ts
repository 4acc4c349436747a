import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type ActionResult, type JsonObject, sessionFetch, TesseraError } from '@tessera/protocol'
import { ActionNotCompleted } from './action-error.js'
import type { CommandResult, FileInfo, FoundFile, ReadResult, TerminalInfo } from './types.js'

export interface ConnectOptions {
  /** The hub's MCP URL; or give `dataDir` to read it from DATA/hub.json. */
  mcpUrl?: string
  dataDir?: string
  /** An agent token; default DATA/agent.token when dataDir is given, else TESSERA_TOKEN. */
  token?: string
}

/**
 * A terminal tile, as the scripting API of docs/hub.md has it (seed 004's MapTerminal): its
 * place and size on the map, directory, command history and screen lines, as of the last
 * `refresh()` — which every call that changes the terminal does for you.
 */
export class Terminal implements TerminalInfo {
  working_dir = ''
  focused = false
  busy = false
  status = 'unknown'
  x = 0
  y = 0
  width = 0
  height = 0
  command_history: string[] = []
  lines: string[] = []

  constructor(
    private readonly hub: HubClient,
    readonly id: string,
  ) {}

  /** Reads this terminal's current state from the hub. */
  async refresh(): Promise<this> {
    const info = (await this.hub.listTerminals()).find((terminal) => terminal.id === this.id)
    if (info === undefined) throw new TesseraError('not_found', `no terminal "${this.id}" on the hub; it was closed`, { found: this.id })
    const { id: _id, ...fields } = info
    Object.assign(this, fields)
    return this
  }

  async execute(command: string, options: { timeoutMs?: number } = {}): Promise<CommandResult> {
    const result = await this.hub.runCommand(command, { terminalId: this.id, ...options })
    await this.refresh()
    return result
  }

  async read(options: { since?: number | 'last'; tail?: number } = {}): Promise<{ text: string; next_offset: number }> {
    return (await this.hub.tool('terminal_read', { terminal_id: this.id, ...options })) as { text: string; next_offset: number }
  }

  /** Types into the terminal (to a running program, or a line for the shell with enter: true). */
  async input(text: string, options: { enter?: boolean } = {}): Promise<void> {
    await this.hub.tool('terminal_input', { terminal_id: this.id, text, ...options })
    await this.refresh()
  }

  /** Clears the screen (Ctrl-L: bash redraws its prompt at the top; a running program gets the key). */
  async clear(): Promise<void> {
    await this.hub.tool('terminal_input', { terminal_id: this.id, keys: ['ctrl-l'] })
    await this.refresh()
  }

  async interrupt(): Promise<void> {
    await this.hub.tool('terminal_interrupt', { terminal_id: this.id })
  }

  async close(): Promise<void> {
    await this.hub.tool('terminal_close', { terminal_id: this.id })
  }
}

/**
 * A small scripting client for a Tessera hub, over MCP: every call goes through the hub's
 * gateway exactly as an agent's would, and lands in the trace.
 */
export class HubClient {
  private constructor(private readonly client: Client) {}

  static async connect(options: ConnectOptions = {}): Promise<HubClient> {
    const mcpUrl = options.mcpUrl ?? (options.dataDir ? (JSON.parse(readFileSync(join(options.dataDir, 'hub.json'), 'utf8')) as { mcpUrl: string }).mcpUrl : undefined)
    if (mcpUrl === undefined) throw new TesseraError('invalid_request', 'expected mcpUrl or dataDir to find the hub', { expected: 'mcpUrl | dataDir' })
    const token = options.token ?? (options.dataDir ? readFileSync(join(options.dataDir, 'agent.token'), 'utf8').trim() : process.env.TESSERA_TOKEN)
    if (!token) throw new TesseraError('unauthorized', 'expected a token (option, DATA/agent.token or TESSERA_TOKEN)')
    const client = new Client({ name: 'tessera-client', version: '0.1.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    return new HubClient(client)
  }

  /**
   * Calls a hub tool and returns the action's output; throws unless it completed. A seed tool
   * answers a completed call with its output alone, anything else with the gateway's envelope
   * or an error in `_meta` (other tools: `{result}` or `{error}` as structuredContent). A seed
   * tool's structuredContent is the lean form a model reads; this asks for the whole output
   * (the protocol's CommandResult, FileInfo …) in `_meta` as well.
   */
  async tool(name: string, args: JsonObject): Promise<unknown> {
    // The hub reports progress while a call runs (a long command, a person deciding); each
    // report restarts the request timeout, so a call lasts as long as it needs.
    const response = await this.client.callTool({ name, arguments: args, _meta: { 'tessera/output': 'full' } }, undefined, { onprogress: () => undefined, resetTimeoutOnProgress: true })
    const structured = response.structuredContent as { result?: ActionResult; error?: { code: string; message: string } } | undefined
    const meta = response._meta as { 'tessera/result'?: ActionResult; 'tessera/error'?: { code: string; message: string }; 'tessera/output'?: unknown } | undefined
    const envelope = meta?.['tessera/result'] ?? (structured?.result && typeof structured.result === 'object' && 'status' in structured.result ? structured.result : undefined)
    if (envelope !== undefined) {
      if (envelope.status !== 'completed') throw new ActionNotCompleted(envelope)
      return envelope.output
    }
    if (response.isError) {
      const error = meta?.['tessera/error'] ?? structured?.error
      const text = (response.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n')
      throw new TesseraError((error?.code as never) ?? 'internal', error?.message ?? text)
    }
    return meta?.['tessera/output'] ?? structured
  }

  async runCommand(command: string, options: { terminalId?: string; timeoutMs?: number } = {}): Promise<CommandResult> {
    const args: JsonObject = { command }
    if (options.terminalId) args.terminal_id = options.terminalId
    if (options.timeoutMs) args.timeout_ms = options.timeoutMs
    return (await this.tool('terminal_execute', args)) as CommandResult
  }

  async createTerminal(options: { x?: number; y?: number; cwd?: string } = {}): Promise<Terminal> {
    const created = (await this.tool('terminal_create', options as JsonObject)) as { terminal_id: string }
    return new Terminal(this, created.terminal_id).refresh()
  }

  async listTerminals(): Promise<TerminalInfo[]> {
    return ((await this.tool('terminal_list', {})) as { terminals: TerminalInfo[] }).terminals
  }

  /** A terminal already on the map, by id (default: the focused one). */
  async terminal(id?: string): Promise<Terminal> {
    const terminals = await this.listTerminals()
    const found = id === undefined ? (terminals.find((t) => t.focused) ?? terminals[0]) : terminals.find((t) => t.id === id)
    if (found === undefined) throw new TesseraError('not_found', id === undefined ? 'no terminal on the hub' : `no terminal "${id}"`, { expected: terminals.map((t) => t.id), found: id ?? null })
    return new Terminal(this, found.id).refresh()
  }

  async listFiles(path = '/'): Promise<FileInfo[]> {
    return ((await this.tool('file_list', { path })) as { files: FileInfo[] }).files
  }

  async findFiles(pattern: string, path?: string): Promise<FoundFile[]> {
    const found = (await this.tool('file_find', path ? { pattern, path } : { pattern })) as { matches: FoundFile[] }
    return found.matches
  }

  /** The first file matching `pattern`, as FileInfo, or null (find_file in docs/hub.md). */
  async findFile(pattern: string, path?: string): Promise<FileInfo | null> {
    const match = (await this.findFiles(pattern, path)).find((m) => m.type === 'file')
    if (match === undefined) return null
    const slash = match.path.lastIndexOf('/')
    const directory = slash <= 0 ? '/' : match.path.slice(0, slash)
    return (await this.listFiles(directory)).find((info) => info.path === match.path) ?? null
  }

  async readFile(path: string, options: { maxBytes?: number; offset?: number } = {}): Promise<ReadResult> {
    const args: JsonObject = { path }
    if (options.maxBytes) args.max_bytes = options.maxBytes
    if (options.offset) args.offset = options.offset
    return (await this.tool('file_read', args)) as ReadResult
  }

  close(): Promise<void> {
    return this.client.close()
  }
}
