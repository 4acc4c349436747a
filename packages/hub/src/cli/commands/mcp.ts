import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { printable, sessionFetch, TesseraError } from '@tessera/protocol'
import type { Command } from 'commander'
import { readLocalToken } from '../../auth/token-store.js'
import { loadHubConfig } from '../../config/hub-config.js'
import { runningHub } from '../../startup/hub-file.js'
import { startHub } from '../../startup/start-hub.js'
import { McpSession } from '../../mcp/mcp-session.js'
import { ToolScope } from '../../mcp/tool-scope.js'

/**
 * Runs `stop` once when the client goes away: stdin ends (the SDK's stdio server transport
 * does not notice that by itself, so the process would linger until its client kills it,
 * leaving hub.json and a half-open session behind) or a signal arrives.
 */
function onClientGone(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | null = null
  const once = (): Promise<void> => {
    // Set before stop() runs: stop() closes transports whose onclose calls back here.
    stopping ??= Promise.resolve()
      .then(stop)
      .catch((error: unknown) => void process.stderr.write(`tessera mcp: stopping: ${error instanceof Error ? error.message : String(error)}\n`))
      // Whatever still holds the event loop (a socket the hub did not close) must not keep
      // a process its client has left; the timer itself does not hold it.
      .finally(() => setTimeout(() => process.exit(), 2_000).unref())
    return stopping
  }
  process.stdin.once('end', () => void once())
  process.stdin.once('close', () => void once())
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void once())
  return once
}

/**
 * `tessera mcp`: MCP over stdio for clients that spawn a command. With a hub already
 * running on the data folder it bridges to that hub's /mcp (so the console a human
 * watches is the same); otherwise it starts a hub in this process. Stdout carries only
 * MCP messages; everything else goes to stderr.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .option('--data <dir>', 'data folder of the hub')
    .option('--token <token>', 'token to use against a running hub (default: the local agent token)')
    .option('--tools <list>', 'list only the generic tools and these kinds or tools, comma-separated (browser,files,terminal,desktop,map,app); default all')
    .action(async (options: { data?: string; token?: string; tools?: string }) => {
      const config = loadHubConfig({ overrides: { ...(options.data ? { dataDir: options.data } : {}), port: 0 } })
      const running = runningHub(config.dataDir)
      const stdio = new StdioServerTransport()
      if (running !== null) {
        const token = options.token ?? process.env.TESSERA_TOKEN ?? (await readLocalToken(config.dataDir, 'agent'))
        if (!token) throw new TesseraError('unauthorized', `no agent token found in ${config.dataDir}; pass --token`)
        const url = new URL(running.mcpUrl)
        // The running hub checks the choice when the session opens, as for any HTTP client.
        if (options.tools !== undefined) url.searchParams.set('tools', options.tools)
        const http = new StreamableHTTPClientTransport(url, { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } })
        const stop = onClientGone(async () => {
          // End the hub-side session too, or it would outlive this bridge.
          await http.terminateSession().catch(() => undefined)
          await http.close().catch(() => undefined)
          await stdio.close().catch(() => undefined)
        })
        // A request the hub refused (a revoked token, a stopped hub) still gets an answer,
        // so the client does not wait for a timeout.
        const forward = (message: JSONRPCMessage): void =>
          void http.send(message).catch((error: unknown) => {
            const text = error instanceof Error ? error.message : String(error)
            process.stderr.write(`tessera mcp: ${printable(text)}\n`)
            if (isJSONRPCRequest(message)) void stdio.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `the hub at ${running.mcpUrl} refused or failed: ${text}` } })
          })
        stdio.onmessage = forward
        http.onmessage = (message) => void stdio.send(message)
        http.onerror = (error) => process.stderr.write(`tessera mcp: hub connection: ${printable(error.message)}\n`)
        stdio.onclose = () => void stop()
        await http.start()
        await stdio.start()
        process.stderr.write(`tessera mcp: bridging stdio to ${running.mcpUrl}\n`)
        return
      }
      const hub = await startHub(config)
      let tools: ToolScope
      try {
        tools = ToolScope.parse(options.tools, hub.ctx.tools, '--tools')
      } catch (error) {
        await hub.stop()
        throw error
      }
      const agent = { id: 'agent', roles: ['agent' as const] }
      const session = new McpSession(hub.ctx, agent, `mcp-stdio-${process.pid}`, tools)
      const stop = onClientGone(async () => {
        await session.close().catch(() => undefined)
        await hub.stop()
      })
      stdio.onclose = () => void stop()
      await session.server.connect(stdio)
      process.stderr.write(`tessera mcp: started a hub at ${hub.url} (console ${hub.consoleUrl}); serving MCP on stdio\n`)
    })
}
