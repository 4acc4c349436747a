#!/usr/bin/env node
import { Command } from 'commander'
import { registerConformCommand } from './commands/conform.js'
import { registerReplayCommand } from './commands/replay.js'
import { registerTraceCommands } from './commands/trace.js'
import { reportError } from './output.js'

const program = new Command()
  .name('tessera')
  .description('Tessera: one policy gateway between AI agents and every user interface')
  .version('0.1.0')
  .showHelpAfterError()

registerTraceCommands(program)
registerReplayCommand(program)
registerConformCommand(program)

program.parseAsync(process.argv).catch(reportError)
