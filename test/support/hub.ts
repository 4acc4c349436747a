import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type HubConfigInput, loadHubConfig, type StartedHub, startHub } from '@tessera/hub'
import type { ActionResult } from '@tessera/protocol'
import { afterAll, beforeAll } from 'vitest'

export interface TestHub {
  hub: StartedHub
  dataDir: string
  agentToken: string
  adminToken: string
  stop(): Promise<void>
}

/**
 * A real hub on a free loopback port, with its own data folder and SQLite trace. A risky call
 * answers `awaiting_approval` at once (`approvals.waitMs: 0`) unless the test sets
 * `approvals`: only the tests of waiting should wait.
 */
export async function startTestHub(overrides: Partial<HubConfigInput> = {}, dataDir = mkdtempSync(join(tmpdir(), 'tessera-hub-'))): Promise<TestHub> {
  const config = loadHubConfig({ file: undefined, overrides: { dataDir, port: 0, approvals: { waitMs: 0 }, ...overrides }, env: {} })
  const hub = await startHub(config)
  const agentToken = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
  const adminToken = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim()
  return {
    hub,
    dataDir,
    agentToken,
    adminToken,
    async stop() {
      await hub.stop()
    },
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

/** The official SDK client over Streamable HTTP, authenticated with `token`. */
export async function connectHttpClient(mcpUrl: string, token: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: 'tessera-test', version: '1.0.0' }, { capabilities })
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  await client.connect(transport)
  return client
}

export async function api<T = unknown>(hub: Pick<StartedHub, 'url'>, path: string, options: { token?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; json: T }> {
  const response = await fetch(`${hub.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  })
  const text = await response.text()
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {
    // Not JSON (an HTML page, say): the caller asserts on the text.
  }
  return { status: response.status, json: json as T }
}

/**
 * One hub for a whole describe block: started before its tests, stopped and removed after.
 * The returned object is filled in by beforeAll, so tests read `t.hub`, `t.agentToken`…
 */
export function useTestHub(overrides: Partial<HubConfigInput> = {}): TestHub {
  const t = {} as TestHub
  beforeAll(async () => {
    Object.assign(t, await startTestHub(overrides))
  })
  afterAll(async () => {
    await t.stop()
    removeDir(t.dataDir)
  })
  return t
}

/**
 * An MCP client connected as the agent to a suite's hub (useTestHub) for the suite's life:
 * `call` answers a tool's whole answer (callToolFully). Declare it after useTestHub.
 */
export function useAgentClient(t: TestHub): { call: (name: string, args: Record<string, unknown>) => ReturnType<typeof callToolFully> } {
  let client: Client | undefined
  beforeAll(async () => {
    client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await client?.close()
  })
  return { call: (name, args) => callToolFully(client as Client, name, args) }
}

/** The text of a tool result, all content blocks joined. */
export function resultText(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n')
}

/** Calls a tool as an agent does: the text it reads, whether it is an error, and the gateway's result when the call carries one. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; result?: ActionResult }> {
  const answer = await client.callTool({ name, arguments: args })
  const structured = answer.structuredContent as { result?: ActionResult } | undefined
  return { text: resultText(answer), isError: answer.isError === true, ...(structured?.result === undefined ? {} : { result: structured.result }) }
}

/** A tool's whole answer as a test reads it: the text, the structured content (with the gateway's result when the call carries one), whether it is an error, and the content blocks (images). */
export async function callToolFully(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; json: (Record<string, unknown> & { result?: ActionResult }) | undefined; isError: boolean; content: Array<{ type: string; mimeType?: string; data?: string }> }> {
  const answer = await client.callTool({ name, arguments: args })
  return { text: resultText(answer), json: answer.structuredContent as (Record<string, unknown> & { result?: ActionResult }) | undefined, isError: answer.isError === true, content: answer.content as Array<{ type: string; mimeType?: string; data?: string }> }
}

/** The gateway's ActionResult a hub tool call carries. */
export function actionResult(result: unknown): ActionResult {
  return (result as { structuredContent: { result: ActionResult } }).structuredContent.result
}

/**
 * What a seed tool (terminal_*, file_*) answered: its output when the call completed (the
 * structuredContent itself), or the gateway's envelope (in `_meta`) as `{status, result}` otherwise.
 */
export function toolAnswer<T = Record<string, unknown>>(call: unknown): { status: string; output: T; text: string; result?: ActionResult } {
  const answer = call as { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> }
  const envelope = (answer._meta?.['tessera/result'] ?? answer.structuredContent?.result) as ActionResult | undefined
  if (envelope !== undefined && typeof envelope === 'object' && 'status' in envelope) return { status: envelope.status, output: envelope.output as T, text: resultText(call), result: envelope }
  if (answer.isError) throw new Error(`the tool failed: ${resultText(call)}`)
  return { status: 'completed', output: answer.structuredContent as T, text: resultText(call) }
}
