import { openStore, reconstructSession, reexecuteSession } from '@tessera/gateway'
import { printable, printableJson, TesseraError } from '@tessera/protocol'
import { AppSurface } from '@tessera/surface-app'
import type { Command } from 'commander'
import { loadAppModule } from '@tessera/surface-app'
import { EXIT_CHECK_FAILED, paint } from '../output.js'
import { progress } from '../progress.js'

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .argument('<store>', 'SQLite file, postgres://… URL')
    .requiredOption('--session <id>', 'the session to replay')
    .option('--execute', 'drive fresh surfaces with the recorded requests and report the first divergence')
    .option('--app <module...>', 'app modules that provide the surfaces to re-execute on')
    .option('--json', 'print steps as JSON Lines')
    .action(async (spec: string, options: { session: string; execute?: boolean; app?: string[]; json?: boolean }) => {
      const store = await openStore(spec)
      try {
        if (!options.execute) {
          let steps = 0
          for await (const step of reconstructSession(store, options.session)) {
            steps += 1
            if (options.json) process.stdout.write(`${printableJson(step)}\n`)
            else if (step.kind === 'frame') process.stdout.write(`${String(step.seq).padStart(6)}  frame   ${printable(`${step.frame.surface} ${step.frame.route}`)} ${step.frame.id.slice(0, 12)} (${step.frame.targets.length} action targets)\n`)
            else {
              const a = step.action
              const color = a.status === 'completed' ? 32 : a.status === 'awaiting_approval' || a.status === 'pending' ? 33 : 31
              process.stdout.write(`${String(step.seq).padStart(6)}  action  ${printable(`${a.surface}/${a.action} by ${a.actor}`)} → ${paint(color, printable(a.status))}${a.nextFrameId ? ` → ${a.nextFrameId.slice(0, 12)}` : ''}\n`)
            }
          }
          if (steps === 0) throw new TesseraError('not_found', `no session "${options.session}" in ${spec}`, { found: options.session })
          return
        }
        const apps = await Promise.all((options.app ?? []).map(loadAppModule))
        if (apps.length === 0) throw new TesseraError('invalid_request', 're-execution needs the app that ran the session', { expected: '--app <module>' })
        const spinner = progress('re-executing')
        const report = await reexecuteSession(store, options.session, async (surfaceId) => {
          const loaded = apps.find((m) => m.app.id === surfaceId) ?? (apps.length === 1 ? apps[0] : undefined)
          if (loaded === undefined) throw new TesseraError('not_found', `no --app provides surface "${surfaceId}"`, { expected: surfaceId, found: apps.map((m) => m.app.id) })
          return new AppSurface(loaded.app, { id: surfaceId })
        })
        spinner.stop()
        if (report.ok) process.stdout.write(`${paint(32, 'identical')}: ${report.steps} actions re-executed with the recorded diffs and frames\n`)
        else {
          const d = report.divergence
          process.stdout.write(`${paint(31, 'diverged')} at step ${d?.step} (${printable(`${d?.action}, request ${d?.requestId}): ${d?.what}`)}\n  expected ${printableJson(d?.expected)}\n  found    ${printableJson(d?.found)}\n`)
          process.exitCode = EXIT_CHECK_FAILED
        }
      } finally {
        await store.close()
      }
    })
}
