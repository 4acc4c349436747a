#!/usr/bin/env node
import { Command } from 'commander'
import { registerApprovalsCommands } from './commands/approvals.js'
import { registerConformCommand } from './commands/conform.js'
import { registerLoginCommand } from './commands/login.js'
import { registerMcpCommand } from './commands/mcp.js'
import { registerTokenCommands } from './commands/token.js'
import { registerUpCommand } from './commands/up.js'
import { registerReplayCommand } from './commands/replay.js'
import { registerTraceCommands } from './commands/trace.js'
import { reportError } from './output.js'

const program = new Command()
  .name('tessera')
  .description('Tessera: one policy gateway between AI agents and every user interface')
  .version('0.1.0')
  .showHelpAfterError()

registerUpCommand(program)
registerMcpCommand(program)
registerApprovalsCommands(program)
registerTokenCommands(program)
registerLoginCommand(program)
registerTraceCommands(program)
registerReplayCommand(program)
registerConformCommand(program)

program.parseAsync(process.argv).catch(reportError)
