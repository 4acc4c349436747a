import { resolve } from 'node:path'

export interface ClientConfigInput {
  mcpUrl: string
  dataDir: string
  /** Shown only when it was just created; otherwise where to read it. */
  agentToken: string | null
  agentTokenFile: string
  cliPath: string
}

/** Ready-to-paste configuration for Claude Desktop, Claude Code and any MCP client. */
export function clientConfigText(input: ClientConfigInput): string {
  const data = resolve(input.dataDir)
  const token = input.agentToken ?? `$(cat ${input.agentTokenFile})`
  const desktop = {
    mcpServers: { tessera: { command: process.execPath, args: [input.cliPath, 'mcp', '--data', data] } },
  }
  return [
    'Claude Desktop (claude_desktop_config.json), over stdio:',
    JSON.stringify(desktop, null, 2),
    '',
    'Claude Code, over Streamable HTTP:',
    `  claude mcp add --transport http tessera ${input.mcpUrl} --header "Authorization: Bearer ${token}"`,
    '',
    'Any MCP client:',
    `  stdio: ${process.execPath} ${input.cliPath} mcp --data ${data}`,
    `  Streamable HTTP: ${input.mcpUrl}  (header Authorization: Bearer <agent token>)`,
    '',
    'An agent that only browses reads fewer tools:',
    `  ${input.mcpUrl}?tools=browser  (stdio: mcp --tools browser; any kinds, comma-separated)`,
  ].join('\n')
}
