#!/usr/bin/env node
import { Command } from 'commander'
import { reportError } from './output.js'

/**
 * The commands, each in its own module, loaded only when it runs: `tessera --help` and a
 * short command such as `tessera approvals list` start without loading the hub, the
 * gateway or the schemas. The descriptions here are the ones `--help` shows.
 */
const COMMANDS: Record<string, { description: string; load: () => Promise<(program: Command) => void> }> = {
  up: { description: 'start the hub: surfaces, gateway, trace, HTTP + WebSocket API and MCP endpoint', load: async () => (await import('./commands/up.js')).registerUpCommand },
  mcp: { description: 'serve MCP over stdio (bridging to a running hub, or starting one)', load: async () => (await import('./commands/mcp.js')).registerMcpCommand },
  approvals: { description: 'list, approve or deny pending actions on a running hub', load: async () => (await import('./commands/approvals.js')).registerApprovalsCommands },
  token: { description: 'create, list and revoke access tokens', load: async () => (await import('./commands/token.js')).registerTokenCommands },
  login: { description: 'print a one-time console login link for a running hub', load: async () => (await import('./commands/login.js')).registerLoginCommand },
  trace: { description: 'inspect and verify a trace store', load: async () => (await import('./commands/trace.js')).registerTraceCommands },
  replay: { description: 'reconstruct a session from its trace, or re-execute it on fresh surfaces', load: async () => (await import('./commands/replay.js')).registerReplayCommand },
  conform: { description: 'run the agent-native conformance checklist against an app module', load: async () => (await import('./commands/conform.js')).registerConformCommand },
}

async function main(): Promise<void> {
  const program = new Command()
    .name('tessera')
    .description('Tessera: one policy gateway between AI agents and every user interface')
    .version('0.1.0')
    .showHelpAfterError()
  const words = process.argv.slice(2).filter((arg) => !arg.startsWith('-'))
  // `tessera help approvals` shows the help of approvals: that module is loaded too.
  const named = words[0] === 'help' ? words[1] : words[0]
  const chosen = named !== undefined && Object.hasOwn(COMMANDS, named) ? named : undefined
  for (const [name, command] of Object.entries(COMMANDS)) {
    if (name === chosen) {
      ;(await command.load())(program)
      program.commands.find((registered) => registered.name() === name)?.description(command.description)
    } else {
      // Listed for --help and for "unknown command" suggestions; never run.
      program.command(name).description(command.description)
    }
  }
  await program.parseAsync(process.argv)
}

main().catch(reportError)
