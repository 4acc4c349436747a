import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { TesseraError } from '@tessera/protocol'
import type { Command } from 'commander'
import { readLocalToken } from '../../auth/token-store.js'
import { loadHubConfig } from '../../config/hub-config.js'
import { runningHub } from '../../hub/hub-file.js'
import { startHub } from '../../hub/start-hub.js'
import { McpSession } from '../../mcp/mcp-session.js'

/**
 * `tessera mcp`: MCP over stdio for clients that spawn a command. With a hub already
 * running on the data folder it bridges to that hub's /mcp (so the console a human
 * watches is the same); otherwise it starts a hub in this process. Stdout carries only
 * MCP messages; everything else goes to stderr.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve MCP over stdio (bridging to a running hub, or starting one)')
    .option('--data <dir>', 'data folder of the hub')
    .option('--token <token>', 'token to use against a running hub (default: the local agent token)')
    .action(async (options: { data?: string; token?: string }) => {
      const config = loadHubConfig({ overrides: { ...(options.data ? { dataDir: options.data } : {}), port: 0 } })
      const running = runningHub(config.dataDir)
      const stdio = new StdioServerTransport()
      if (running !== null) {
        const token = options.token ?? process.env.TESSERA_TOKEN ?? (await readLocalToken(config.dataDir, 'agent'))
        if (!token) throw new TesseraError('unauthorized', `no agent token found in ${config.dataDir}; pass --token`)
        const http = new StreamableHTTPClientTransport(new URL(running.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
        stdio.onmessage = (message) => void http.send(message).catch((error: unknown) => process.stderr.write(`tessera mcp: ${String(error)}\n`))
        http.onmessage = (message) => void stdio.send(message)
        http.onerror = (error) => process.stderr.write(`tessera mcp: hub connection: ${error.message}\n`)
        stdio.onclose = () => void http.close()
        http.onclose = () => void stdio.close()
        await http.start()
        await stdio.start()
        process.stderr.write(`tessera mcp: bridging stdio to ${running.mcpUrl}\n`)
        return
      }
      const hub = await startHub(config)
      const agent = { id: 'agent', roles: ['agent' as const] }
      const session = new McpSession(hub.ctx, agent, `mcp-stdio-${process.pid}`)
      stdio.onclose = () => void session.close().then(() => hub.stop())
      await session.server.connect(stdio)
      process.stderr.write(`tessera mcp: started a hub at ${hub.url} (console ${hub.consoleUrl}); serving MCP on stdio\n`)
    })
}
