import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type ActionResult, type JsonObject, TesseraError } from '@tessera/protocol'
import { ActionNotCompleted } from './action-error.js'
import type { CommandResult, FileInfo, FoundFile, ReadResult } from './types.js'

export interface ConnectOptions {
  /** The hub's MCP URL; or give `dataDir` to read it from DATA/hub.json. */
  mcpUrl?: string
  dataDir?: string
  /** An agent token; default DATA/agent.token when dataDir is given, else TESSERA_TOKEN. */
  token?: string
}

/** A terminal tile, as the scripting API of docs/hub.md has it. */
export class Terminal {
  constructor(
    private readonly hub: HubClient,
    readonly id: string,
  ) {}

  execute(command: string, options: { timeoutMs?: number } = {}): Promise<CommandResult> {
    return this.hub.runCommand(command, { terminalId: this.id, ...options })
  }

  async read(options: { since?: number | 'last'; tail?: number } = {}): Promise<{ text: string; next_offset: number }> {
    return (await this.hub.tool('terminal_read', { terminal_id: this.id, ...options })) as { text: string; next_offset: number }
  }

  async input(text: string, options: { enter?: boolean } = {}): Promise<void> {
    await this.hub.tool('terminal_input', { terminal_id: this.id, text, ...options })
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
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    return new HubClient(client)
  }

  /** Calls a hub tool and returns the action's output; throws unless it completed. */
  async tool(name: string, args: JsonObject): Promise<unknown> {
    const response = await this.client.callTool({ name, arguments: args })
    const structured = response.structuredContent as { result?: ActionResult; error?: { code: string; message: string } } | undefined
    if (structured?.result) {
      if (structured.result.status !== 'completed') throw new ActionNotCompleted(structured.result)
      return structured.result.output
    }
    if (response.isError) {
      const text = (response.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n')
      throw new TesseraError((structured?.error?.code as never) ?? 'internal', structured?.error?.message ?? text)
    }
    return structured
  }

  async runCommand(command: string, options: { terminalId?: string; timeoutMs?: number } = {}): Promise<CommandResult> {
    const args: JsonObject = { command }
    if (options.terminalId) args.terminal_id = options.terminalId
    if (options.timeoutMs) args.timeout_ms = options.timeoutMs
    return (await this.tool('terminal_execute', args)) as CommandResult
  }

  async createTerminal(options: { x?: number; y?: number; cwd?: string } = {}): Promise<Terminal> {
    const created = (await this.tool('terminal_create', options as JsonObject)) as { terminal_id: string }
    return new Terminal(this, created.terminal_id)
  }

  async listFiles(path = '/'): Promise<FileInfo[]> {
    return (await this.tool('file_list', { path })) as FileInfo[]
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
