import { openStore, type TraceStore, verifyStore } from '@tessera/gateway'
import { TesseraError } from '@tessera/protocol'
import type { Command } from 'commander'
import { EXIT_CHECK_FAILED, paint, progress } from '../output.js'

async function withStore<T>(spec: string, use: (store: TraceStore) => Promise<T>): Promise<T> {
  const store = await openStore(spec)
  try {
    return await use(store)
  } finally {
    await store.close()
  }
}

export function registerTraceCommands(program: Command): void {
  const trace = program.command('trace').description('inspect and verify a trace store')

  trace
    .command('verify')
    .description('prove every session chain intact, or name the first broken link')
    .argument('<store>', 'SQLite file, postgres://… URL')
    .option('--session <id>', 'verify only this session')
    .action(async (spec: string, options: { session?: string }) => {
      await withStore(spec, async (store) => {
        const spinner = progress(`verifying ${spec}`)
        const results = await verifyStore(store, options.session)
        spinner.stop()
        if (results.length === 0) throw new TesseraError('not_found', options.session ? `no session "${options.session}" in ${spec}` : `${spec} holds no sessions`)
        let broken = 0
        for (const result of results) {
          if (result.ok) {
            process.stdout.write(`${paint(32, 'ok')}      ${result.session}: ${result.count} events, head ${result.headHash.slice(0, 16)}…\n`)
          } else {
            broken += 1
            const link = result.firstBroken
            process.stdout.write(`${paint(31, 'BROKEN')}  ${result.session}: first broken link at seq ${link.seq} (${link.reason}); expected ${link.expected}, found ${link.found}\n`)
          }
        }
        if (broken > 0) process.exitCode = EXIT_CHECK_FAILED
      })
    })

  trace
    .command('export')
    .description('write a session as JSON Lines, one event per line')
    .argument('<store>', 'SQLite file, postgres://… URL')
    .requiredOption('--session <id>', 'the session to export')
    .action(async (spec: string, options: { session: string }) => {
      await withStore(spec, async (store) => {
        let count = 0
        for await (const event of store.read(options.session)) {
          if (!process.stdout.write(`${JSON.stringify(event)}\n`)) await new Promise((resolve) => process.stdout.once('drain', resolve))
          count += 1
        }
        if (count === 0) throw new TesseraError('not_found', `no session "${options.session}" in ${spec}`, { found: options.session })
      })
    })

  trace
    .command('sessions')
    .description('list the sessions in a store')
    .argument('<store>', 'SQLite file, postgres://… URL')
    .action(async (spec: string) => {
      await withStore(spec, async (store) => {
        for (const s of await store.sessions()) process.stdout.write(`${s.session}\t${s.events} events\t${s.firstTime} → ${s.lastTime}\n`)
      })
    })
}
