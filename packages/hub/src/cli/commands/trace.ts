import { existsSync } from 'node:fs'
import { openStore, type SessionSummary, type TraceStore, verifyStore } from '@tessera/gateway'
import { printable, printableJson, TesseraError, type TraceEvent } from '@tessera/protocol'
import { hubRequest } from '../hub-client.js'
import type { Command } from 'commander'
import { EXIT_CHECK_FAILED, paint } from '../output.js'
import { progress } from '../progress.js'

async function withStore<T>(spec: string, use: (store: TraceStore) => Promise<T>): Promise<T> {
  const store = await openStore(spec)
  try {
    return await use(store)
  } finally {
    await store.close()
  }
}

/** The store `tessera up --data DIR` would open, so `trace verify` checks the same trace with no argument. */
async function defaultStore(options: { data: string; config?: string }): Promise<string> {
  const { loadHubConfig, storeSpec } = await import('../../config/hub-config.js')
  const spec = storeSpec(loadHubConfig({ ...(options.config ? { file: options.config } : {}), overrides: { dataDir: options.data } }))
  if (!/^postgres(ql)?:\/\//.test(spec) && spec !== 'memory:' && !existsSync(spec)) {
    throw new TesseraError('not_found', `no trace store at ${spec}; name one, or point --data at a hub's data folder`, { expected: 'an existing SQLite file or a postgres:// URL', found: spec })
  }
  return spec
}

/** Compares the store with DATA/checkpoints.jsonl; prints one line per session in doubt and returns how many. */
async function verifyAnchors(store: TraceStore, dataDir: string, session: string | undefined): Promise<number> {
  const { readCheckpointPublicKey } = await import('../../anchors/checkpoint-key.js')
  const { readCheckpoints } = await import('../../anchors/checkpoint-log.js')
  const { checkAnchors } = await import('../../anchors/anchor-check.js')
  const publicKey = readCheckpointPublicKey(dataDir)
  if (publicKey === null) {
    process.stdout.write(`${paint(33, 'unanchored')}  ${printable(dataDir)} has no checkpoint key: only the chains were checked\n`)
    return 0
  }
  const { latest, bad } = readCheckpoints(dataDir, publicKey)
  for (const line of bad) process.stdout.write(`${paint(31, 'FORGED')}  checkpoints.jsonl line ${line}: not signed by this hub's key\n`)
  const problems = await checkAnchors(store, latest, session)
  for (const problem of problems) process.stdout.write(`${paint(31, problem.kind.toUpperCase())}  ${printable(`${problem.session}: ${problem.message}`)}\n`)
  if (problems.length === 0 && bad.length === 0) process.stdout.write(`${paint(32, 'anchored')}  ${latest.size} session head(s) match the hub's signed checkpoints\n`)
  return problems.length + bad.length
}

export function registerTraceCommands(program: Command): void {
  const trace = program.command('trace')

  trace
    .command('verify')
    .description('prove every session chain intact, or name the first broken link')
    .argument('[store]', 'SQLite file or postgres://… URL (default: the store of the hub in --data, as `tessera up` finds it)')
    .option('--data <dir>', 'data folder of the hub', '.tessera')
    .option('--config <file>', 'hub configuration file (default tessera.config.json when present)')
    .option('--session <id>', 'verify only this session')
    .action(async (given: string | undefined, options: { data: string; config?: string; session?: string }) => {
      const spec = given ?? (await defaultStore(options))
      await withStore(spec, async (store) => {
        const spinner = progress(`verifying ${spec}`)
        // An unknown session is not_found, from the store API itself.
        const results = await verifyStore(store, options.session).finally(() => spinner.stop())
        if (results.length === 0) throw new TesseraError('not_found', options.session ? `no session "${options.session}" in ${spec}` : `${spec} holds no sessions`)
        let broken = 0
        for (const result of results) {
          if (result.ok) {
            process.stdout.write(`${paint(32, 'ok')}      ${printable(result.session)}: ${result.count} events, head ${result.headHash.slice(0, 16)}…\n`)
          } else {
            broken += 1
            const link = result.firstBroken
            process.stdout.write(`${paint(31, 'BROKEN')}  ${printable(`${result.session}: first broken link at seq ${link.seq} (${link.reason}); expected ${link.expected}, found ${link.found}`)}\n`)
          }
        }
        // The hub's own store is also checked against the heads it signed outside it.
        if (given === undefined) broken += await verifyAnchors(store, options.data, options.session)
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
          if (!process.stdout.write(`${printableJson(event)}\n`)) await new Promise((resolve) => process.stdout.once('drain', resolve))
          count += 1
        }
        if (count === 0) throw new TesseraError('not_found', `no session "${options.session}" in ${spec}`, { found: options.session })
      })
    })

  trace
    .command('tail')
    .description('print the latest events of a running hub, and follow new ones')
    .option('--data <dir>', 'data folder of the hub', '.tessera')
    .option('--session <id>', 'session to tail (default: the most recent)')
    .option('-n, --lines <n>', 'how many past events to show', '20')
    .option('-f, --follow', 'keep printing new events until interrupted')
    .option('--token <token>', 'a token (default: the local admin token)')
    .action(async (options: { data: string; session?: string; lines: string; follow?: boolean; token?: string }) => {
      const auth = options.token ? { token: options.token } : {}
      let session = options.session
      if (session === undefined) {
        const { sessions } = await hubRequest<{ sessions: SessionSummary[] }>(options.data, '/api/sessions', auth)
        session = [...sessions].sort((a, b) => a.lastTime.localeCompare(b.lastTime)).at(-1)?.session
        if (session === undefined) throw new TesseraError('not_found', 'the hub has no trace sessions yet')
      }
      const print = (e: TraceEvent): void => {
        // The actor, surface and action of a refused request are what an agent sent.
        process.stdout.write(`${printable(`${String(e.seq).padStart(6)}  ${e.time}  ${e.type.padEnd(17)}  ${e.actor}  ${e.surface ?? ''}${e.action ? `/${e.action}` : ''}${typeof (e.data as { status?: unknown })?.status === 'string' ? `  ${(e.data as { status: string }).status}` : ''}`)}\n`)
      }
      const path = `/api/trace/${encodeURIComponent(session)}`
      const first = await hubRequest<{ events: TraceEvent[]; head: { seq: number } }>(options.data, `${path}?limit=${Number(options.lines) || 20}`, auth)
      first.events.forEach(print)
      let next = first.head.seq + 1
      while (options.follow) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        const page = await hubRequest<{ events: TraceEvent[] }>(options.data, `${path}?fromSeq=${next}&limit=500`, auth)
        page.events.forEach(print)
        next += page.events.length
      }
    })

  trace
    .command('sessions')
    .description('list the sessions in a store')
    .argument('<store>', 'SQLite file, postgres://… URL')
    .action(async (spec: string) => {
      await withStore(spec, async (store) => {
        for (const s of await store.sessions()) process.stdout.write(`${printable(s.session)}\t${s.events} events\t${printable(s.firstTime)} → ${printable(s.lastTime)}\n`)
      })
    })
}
