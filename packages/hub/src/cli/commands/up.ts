import { existsSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { parse as parseShell } from 'shell-quote'
import { fileURLToPath } from 'node:url'
import { localTokenPath } from '../../auth/token-store.js'
import { formatLoginLink } from '../../auth/login-link.js'
import { configuredTiles, loadHubConfig, storeSpec } from '../../config/hub-config.js'
import { HUB_FILE, runningHub } from '../../startup/hub-file.js'
import { startHub } from '../../startup/start-hub.js'
import { TesseraError } from '@tessera/protocol'
import { KNOWN_APPS, missingPackagesFor } from '@tessera/surface-desktop'
import type { Command } from 'commander'
import { clientConfigText } from '../client-config.js'
import { paint } from '../output.js'
import { progress } from '../progress.js'
import { tileStatusLines } from '../tile-status.js'

export interface UpOptions {
  data?: string
  port?: string
  host?: string
  store?: string
  config?: string
  demo?: boolean
  app?: string[]
}

/**
 * `--app "<command>"`: an Electron (or other Chromium-based) app as a browser tile. The
 * person starting the hub types the command; no agent can start a program.
 */
function appTiles(commands: readonly string[]): Array<Record<string, unknown> & { kind: string }> {
  return commands.map((line) => {
    const words = parseShell(line)
    const command = words.filter((word): word is string => typeof word === 'string')
    if (command.length === 0 || command.length !== words.length) {
      throw new TesseraError('invalid_request', `--app expects a command with plain arguments (no pipes or redirections), found "${line}"`, { expected: 'a program and its arguments', found: line })
    }
    return { kind: 'browser', title: basename(command[0] as string), app: { command } }
  })
}

/** `--port abc` must fail naming what it found, not as NaN (and `--port ''` is not port 0). */
function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value.trim()) || Number(value) > 65_535) {
    throw new TesseraError('invalid_request', `--port expects an integer from 0 to 65535 (0 picks a free port), found "${value}"`, { expected: '0–65535', found: value })
  }
  return Number(value)
}

const LABEL_WIDTH = 10

/** A banner line's bold name, padded so the values line up. */
function label(name: string): string {
  return `${paint(1, name)}${' '.repeat(Math.max(1, LABEL_WIDTH - name.length))}`
}

/** The configuration file `up` read, if any (the one given, else ./tessera.config.json when present). */
function configFileIn(given: string | undefined): string | null {
  const file = resolve(given ?? 'tessera.config.json')
  return existsSync(file) ? file : null
}

export function registerUpCommand(program: Command): void {
  program
    .command('up')
    .option('--data <dir>', 'data folder (tokens, trace, hub.json)')
    .option('--port <n>', 'port to listen on; 0 picks a free one')
    .option('--host <address>', 'address to bind (default 127.0.0.1)')
    .option('--store <spec>', 'trace store: SQLite file in the data folder, memory:, or postgres://…')
    .option('--config <file>', 'configuration file (default ./tessera.config.json if present)')
    .option('--no-demo', 'start without the demo surfaces')
    .option('--app <command>', 'an Electron (or other Chromium-based) app to drive as a browser tile; repeatable', (value: string, all: string[] = []) => [...all, value])
    .action(async (options: UpOptions) => {
      const config = loadHubConfig({
        ...(options.config ? { file: options.config } : {}),
        overrides: {
          ...(options.data ? { dataDir: options.data } : {}),
          ...(options.port !== undefined ? { port: parsePort(options.port) } : {}),
          ...(options.host ? { host: options.host } : {}),
          ...(options.store ? { store: options.store } : {}),
          ...(options.demo === false ? { demo: false } : {}),
        },
      })
      if (options.app !== undefined) config.tiles = [...configuredTiles(config), ...appTiles(options.app)]
      // Two hubs on one folder would share tokens, approvals and trace but not surface state.
      const already = runningHub(config.dataDir)
      if (already !== null && already.pid !== process.pid) {
        throw new TesseraError('conflict', `a hub is already running on ${config.dataDir}: ${already.url} (pid ${already.pid}); stop it first, or remove ${join(config.dataDir, HUB_FILE)} if that process is not a hub`, {
          found: { url: already.url, pid: already.pid },
        })
      }
      const spinner = progress('starting the hub')
      const hub = await startHub(config)
      spinner.succeed(`hub ready on ${hub.url}`)
      // The console signs in with a one-time link instead of asking anyone to paste a token.
      const login = formatLoginLink(hub.url, hub.logins.issue({ id: 'admin', roles: ['admin', 'approver'] }))
      const out = [
        '',
        `${label('Console')}${login}   (one-time login link, valid 10 minutes)`,
        `${label('MCP')}${hub.mcpUrl}`,
        ...tileStatusLines(hub.ctx.surfaces.list(), { configFile: configFileIn(options.config), demo: config.demo }).map((line, i) => `${i === 0 ? label('Tiles') : ' '.repeat(LABEL_WIDTH)}${line}`),
        ...desktopHint(),
        `${label('Trace')}${hub.ctx.store.kind} — ${storeSpec(config).replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@')}`,
        '',
        hub.initialTokens
          ? `First start: created tokens (also in ${config.dataDir}/, mode 0600):\n  admin  ${hub.initialTokens.admin}\n  agent  ${hub.initialTokens.agent}\n`
          : `Tokens: ${localTokenPath(config.dataDir, 'agent')} (agent), \`tessera token create --role agent\` for more.\n`,
        clientConfigText({
          mcpUrl: hub.mcpUrl,
          dataDir: config.dataDir,
          agentToken: hub.initialTokens?.agent ?? null,
          agentTokenFile: localTokenPath(config.dataDir, 'agent'),
          cliPath: fileURLToPath(new URL('../main.js', import.meta.url)),
        }),
        '',
        'Press Ctrl-C to stop.',
      ]
      process.stdout.write(`${out.join('\n')}\n`)
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop)
          process.off('SIGTERM', stop)
          process.stderr.write('stopping the hub…\n')
          void hub.stop().then(resolve, resolve)
        }
        process.on('SIGINT', stop)
        process.on('SIGTERM', stop)
      })
    })
}

/**
 * The desktop apps an agent can open here as tiles, or, where the packages are missing, the
 * line that installs them: a desktop tile is offered, not opened, so that start stays quick.
 */
function desktopHint(): string[] {
  const ready = KNOWN_APPS.filter((app) => missingPackagesFor(app.name).length === 0).map((app) => app.name)
  if (ready.length > 0) return [`${label('Desktop')}${ready.join(', ')} — an agent opens one with action_request {surface: "map", action: "open", input: {kind: "desktop", config: {app: "${ready[0]}"}}}`]
  const missing = missingPackagesFor('gnome-calculator')
  return [`${label('Desktop')}apt-get install ${missing.join(' ')} (then start again) lets agents open GNOME Calculator as a tile`]
}
