import { checkConformance, formatChecklist } from '@tessera/gateway'
import { AppSurface } from '@tessera/surface-app'
import { AppRuntime } from '@tessera/ui'
import type { Command } from 'commander'
import type { Frame } from '@tessera/protocol'
import { loadAppModule } from '@tessera/surface-app'
import { EXIT_CHECK_FAILED } from '../output.js'
import { progress } from '../progress.js'

export function registerConformCommand(program: Command): void {
  program
    .command('conform')
    .argument('<module>', 'built ES module or package folder whose default export is an agent app')
    .action(async (spec: string) => {
      const loaded = await loadAppModule(spec)
      const spinner = progress(`checking ${loaded.app.title}`)
      const report = await checkConformance({
        name: `${loaded.app.title} (${spec})`,
        createSurface: async () => new AppSurface(loaded.app),
        runWithoutGateway: async (script) => {
          const runtime = new AppRuntime(loaded.app)
          const frames: Frame[] = [runtime.frame()]
          for (const step of script) {
            await runtime.dispatch(step.action, step.input ?? {}, 'human', step.target)
            frames.push(runtime.frame())
          }
          return frames
        },
        ...(loaded.script ? { script: loaded.script } : {}),
      })
      spinner.stop()
      process.stdout.write(`${formatChecklist(report, process.stdout.isTTY === true)}\n`)
      if (!report.ok) process.exitCode = EXIT_CHECK_FAILED
    })
}
