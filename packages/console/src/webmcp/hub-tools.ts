import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'

/** The part of WebMCP's `document.modelContext` the console uses (native Chromium or the @mcp-b polyfill). */
interface ModelContext {
  registerTool(tool: WebTool, options?: { signal?: AbortSignal }): Promise<void> | void
}

interface WebTool {
  name: string
  description: string
  inputSchema: object
  annotations?: { readOnlyHint?: boolean; consequentialHint?: boolean }
  execute: (args: Record<string, unknown>) => Promise<unknown>
}

function modelContext(): ModelContext | undefined {
  return (document as Document & { modelContext?: ModelContext }).modelContext
}

/** Without a native `document.modelContext`, @mcp-b/global installs one, reachable only from this origin. */
async function ensureModelContext(): Promise<ModelContext> {
  if (modelContext() === undefined) {
    // Set before the import: the package initialises itself on load unless told not to.
    ;(window as Window & { __webModelContextOptions?: object }).__webModelContextOptions = { autoInitialize: false }
    const { initializeWebModelContext } = await import('@mcp-b/global')
    initializeWebModelContext({ transport: { tabServer: { allowedOrigins: [location.origin] } } })
  }
  const context = modelContext()
  if (context === undefined) throw new Error('no document.modelContext, even after the WebMCP polyfill loaded')
  return context
}

/**
 * Offers the hub's MCP tools to an agent running in this browser through WebMCP: each one a
 * call over the hub's MCP endpoint with the page's session cookie, so it runs through the
 * gateway as the signed-in person — whose own requests that person can never approve (the
 * hub requires a second principal). Follows the hub's tool list as it changes.
 */
export async function offerHubTools(): Promise<{ count(): number; stop(): void }> {
  const context = await ensureModelContext()
  // A validator that compiles no code: the console's CSP forbids eval, which Ajv needs.
  const client = new Client({ name: 'tessera-console', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.origin)))
  let registered = new AbortController()
  let count = 0
  const register = async (): Promise<void> => {
    const { tools } = await client.listTools()
    registered.abort()
    registered = new AbortController()
    const signal = registered.signal
    count = tools.length
    for (const tool of tools) await context.registerTool(asWebTool(client, tool), { signal })
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void register().catch((error: unknown) => console.error('tessera console: the hub tools could not be offered again', error)))
  await register()
  return {
    count: () => count,
    stop() {
      registered.abort()
      void client.close()
    },
  }
}

function asWebTool(client: Client, tool: Tool): WebTool {
  return {
    name: tool.name,
    description: tool.description ?? tool.title ?? tool.name,
    inputSchema: tool.inputSchema,
    // WebMCP's word for "a person should know before this runs".
    annotations: { readOnlyHint: tool.annotations?.readOnlyHint === true, consequentialHint: tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint !== false },
    execute: async (args) => client.callTool({ name: tool.name, arguments: args }),
  }
}
