import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { PolicyConfig } from '@tessera/gateway'
import { parseOrThrow, TesseraError } from '@tessera/protocol'
import { z } from 'zod'

export const HubConfig = z.object({
  /** Loopback by default: a hub is reachable from this machine only unless told otherwise. */
  host: z.string().default('127.0.0.1'),
  /** 0 picks a free port. */
  port: z.number().int().min(0).max(65_535).default(7300),
  dataDir: z.string().default('.tessera'),
  /** A SQLite file (relative to dataDir), `memory:`, or a postgres:// URL. */
  store: z.string().default('trace.db'),
  /** Open the configured tiles at start (the demo: claims review, a demo folder, a terminal). */
  demo: z.boolean().default(true),
  /**
   * Tiles the hub opens at start and agents may open by name (`open {preset}`): a kind and
   * that kind's configuration. Relative paths resolve against the config file's folder;
   * `data:x` is inside the data folder. Default: the demo tiles (see DEFAULT_TILES).
   */
  tiles: z.array(z.looseObject({ kind: z.string().min(1), name: z.string().optional(), id: z.string().optional(), title: z.string().optional(), x: z.number().optional(), y: z.number().optional(), width: z.number().optional(), height: z.number().optional() })).optional(),
  /** More surface kinds, as installed package names or paths to built ES modules exporting a kind module. */
  kindModules: z.array(z.string()).default([]),
  /** The folder relative paths in this configuration are relative to; set by loadHubConfig. */
  baseDir: z.string().optional(),
  policy: PolicyConfig.default({ rules: [], approvalRisks: ['destructive', 'external'], approvalTtlMs: 600_000 }),
  approvals: z
    .object({
      /**
       * Ask the MCP client's user through elicitation. Off by default: a client that
       * auto-accepts would let the model approve its own action.
       */
      elicitation: z.boolean().default(false),
      /**
       * How long an acting tool call stays open for a person to decide when the call does not
       * say (`wait_ms`): decided in time, the agent gets the final result in the same call.
       */
      waitMs: z.number().int().min(0).max(600_000).default(5_000),
    })
    .default({ elicitation: false, waitMs: 5_000 }),
  tools: z
    .object({
      /**
       * Tool families or tools an MCP client does not see: a kind (`terminal`, `files`,
       * `app`: its façade tools and its tiles' action tools) or a tool's exact name.
       */
      exclude: z.array(z.string().min(1)).default([]),
    })
    .default({ exclude: [] }),
  limits: z
    .object({
      bodyBytes: z.number().int().positive().default(1_048_576),
      requestsPerMinute: z.number().int().positive().default(6000),
      dispatchTimeoutMs: z.number().int().positive().default(30_000),
      /**
       * An MCP session with no request and no open stream for this long is closed: many
       * clients never send the DELETE that ends a session, and each one holds memory.
       */
      mcpSessionIdleMs: z.number().int().positive().default(1_800_000),
      /**
       * Open MCP sessions one principal may hold. At the limit a new session replaces that
       * principal's longest-idle one; when every one is in use (a call running, a stream
       * open) it is refused: no token, a viewer's included, can make the hub hold sessions
       * without bound.
       */
      mcpSessionsPerPrincipal: z.number().int().positive().default(32),
      /** Open `/api/events` WebSockets one principal may hold; more are refused. */
      eventSocketsPerPrincipal: z.number().int().positive().default(16),
      /** Tiles one principal may have open at once (each terminal is a shell and a PTY); an open past it is refused, rate_limited. */
      tilesPerPrincipal: z.number().int().positive().default(16),
      /**
       * The most of one action's output the trace keeps (JSON characters). Outputs over 64 KiB
       * are stored once by content hash and referenced from their event; longer than this,
       * they are cut and the event says so. The agent always gets the whole output.
       */
      traceOutputChars: z.number().int().min(65_536).default(1_048_576),
    })
    .default({ bodyBytes: 1_048_576, requestsPerMinute: 6000, dispatchTimeoutMs: 30_000, mcpSessionIdleMs: 1_800_000, mcpSessionsPerPrincipal: 32, eventSocketsPerPrincipal: 16, tilesPerPrincipal: 16, traceOutputChars: 1_048_576 }),
  terminals: z
    .object({
      /**
       * Run terminal shells inside bubblewrap: 'auto' when bwrap is installed. A shell
       * cannot be made safe by classifying commands; the sandbox is the real boundary.
       */
      sandbox: z.union([z.boolean(), z.literal('auto')]).default('auto'),
      /** Writable inside the sandbox besides the demo folder; everything else is read-only. */
      writableRoots: z.array(z.string()).default([]),
      network: z.boolean().default(true),
      /** Open one terminal tile at start (with the demo surfaces). */
      openAtStart: z.boolean().default(true),
    })
    .default({ sandbox: 'auto', writableRoots: [], network: true, openAtStart: true }),
  /** Extra Host / Origin values allowed besides loopback (e.g. behind a proxy). */
  allowedHosts: z.array(z.string()).default([]),
  allowedOrigins: z.array(z.string()).default([]),
})
export type HubConfig = z.infer<typeof HubConfig>
export type HubConfigInput = z.input<typeof HubConfig>

const ENV: Record<string, (value: string) => Partial<HubConfigInput>> = {
  TESSERA_HOST: (v) => ({ host: v }),
  TESSERA_PORT: (v) => ({ port: Number(v) }),
  TESSERA_DATA: (v) => ({ dataDir: v }),
  TESSERA_STORE: (v) => ({ store: v }),
}

/**
 * Configuration in increasing precedence: defaults, `tessera.config.json` (in the working
 * folder, or the file given), environment variables, then command-line flags. A relative
 * data folder is resolved against the working directory.
 */
export function loadHubConfig(options: { file?: string; overrides?: Partial<HubConfigInput>; env?: NodeJS.ProcessEnv } = {}): HubConfig {
  const file = resolve(options.file ?? 'tessera.config.json')
  let fromFile: unknown = {}
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      throw new TesseraError('invalid_request', `${file} is not valid JSON: ${(error as Error).message}`, { expected: 'a JSON object', found: file })
    }
  } else if (options.file !== undefined) {
    throw new TesseraError('not_found', `no configuration file at ${file}`, { found: options.file })
  }
  const env = options.env ?? process.env
  const fromEnv = Object.entries(ENV).reduce<Partial<HubConfigInput>>((acc, [key, map]) => {
    const value = env[key]
    return value === undefined || value === '' ? acc : { ...acc, ...map(value) }
  }, {})
  const baseDir = existsSync(file) ? dirname(file) : process.cwd()
  const merged = { baseDir, ...(fromFile as object), ...fromEnv, ...stripUndefined(options.overrides ?? {}) }
  const config = parseOrThrow(HubConfig, merged, 'hub configuration', 'invalid_request')
  // Once, here: every later join (tokens, trace, `data:` roots, hub.json) sees an absolute
  // folder, whatever the working directory is by then.
  return { ...config, dataDir: resolve(config.dataDir) }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** The demo, as configuration: the claims-review app, a copy of the demo folder, a terminal in it. */
export const DEMO_TILES = [
  { kind: 'app', id: 'claims', module: '@tessera/example-claims-review', x: 0, y: 0, width: 1024, height: 768 },
  { kind: 'files', id: 'files', title: 'Demo files', roots: [{ name: 'demo', path: 'data:demo-files', copyOf: 'examples/demo-files' }], x: 1088, y: 0, width: 1024, height: 768 },
  { kind: 'terminal', name: 'terminal' },
] as const

/** The tiles of a configuration: as written, or the demo's (without its terminal when terminals.openAtStart is off). */
export function configuredTiles(config: HubConfig): Array<Record<string, unknown> & { kind: string }> {
  if (config.tiles !== undefined) return config.tiles
  return DEMO_TILES.filter((tile) => tile.kind !== 'terminal' || config.terminals.openAtStart).map((tile) => JSON.parse(JSON.stringify(tile)) as Record<string, unknown> & { kind: string })
}

/** Where the trace lives: relative SQLite paths are inside the data folder. */
export function storeSpec(config: HubConfig): string {
  const spec = config.store
  if (spec === 'memory:' || /^postgres(ql)?:\/\//.test(spec) || spec.startsWith('/')) return spec
  const path = spec.startsWith('sqlite:') ? spec.slice('sqlite:'.length) : spec
  return resolve(config.dataDir, path)
}
