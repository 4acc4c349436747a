import { defineKind } from '@tessera/kit'
import { TesseraError } from '@tessera/protocol'
import { z } from 'zod'
import { DESKTOP_ACTIONS } from './desktop-actions.js'
import { appSchemaFor } from './app-schemas.js'
import { KNOWN_APPS, knownApp, packagesMissing, selectBackend } from './desktop-apps.js'
import { missingSessionPackages } from './desktop-session.js'
import { DesktopTile } from './desktop-tile.js'
import { outlineDesktop } from './desktop-outline.js'
import { parkedApps } from './parked-apps.js'
import { GUI_TOOLS } from './gui-tools.js'
import { VncTile } from './vnc-tile.js'

const AppName = z.enum(KNOWN_APPS.map((app) => app.name) as [string, ...string[]])

export const DesktopConfig = z
  .strictObject({
    title: z.string().max(200).optional(),
    /** An app Tessera has a schema for, by name (`gnome-calculator`, `mousepad`, `libreoffice-calc`, `gimp`, `inkscape`). */
    app: AppName.optional(),
    /** How a named app runs: its native build, its web build in Chromium (`wasm`), or `auto` (the web build when it has one installed, as the roadmap's select_backend). */
    backend: z.enum(['native', 'wasm', 'auto']).optional(),
    /** A file a web build opens at start (PDF.js: the PDF), served to it alone. Configuration only. */
    document: z.string().min(1).max(4096).optional(),
    /** Or any program, as its command and arguments: configuration only, an agent can never start a program this way. */
    command: z.array(z.string().min(1).max(4096)).min(1).max(64).optional(),
    /** Or a VNC server to attach to (the `vnc` backend: a virtual machine's console): pixels and input over RFB, no widget tree. Configuration only. */
    vnc: z.strictObject({ host: z.string().min(1).max(255).default('127.0.0.1'), port: z.number().int().min(1).max(65_535) }).optional(),
    width: z.number().int().min(320).max(7680).optional(),
    height: z.number().int().min(240).max(4320).optional(),
  })
  .refine((config) => [config.app, config.command, config.vnc].filter((one) => one !== undefined).length === 1, 'expected exactly one of app, command or vnc')
  .refine((config) => config.app !== undefined || (config.backend === undefined && config.document === undefined), 'backend and document go with app')
export type DesktopConfig = z.infer<typeof DesktopConfig>

/** Parked copies are numbered: each one's parts (a web build's page) have ids of their own. */
let parkedCount = 0

/** The desktop kind: a private X display and accessibility bus per tile, an app's widgets as a frame. */
export const desktopKind = defineKind<DesktopConfig>({
  kind: 'desktop',
  title: 'Desktop app',
  idPrefix: 'desktop',
  configSchema: DesktopConfig,
  // An agent names a known app; a command only a person configures.
  openSchema: z.strictObject({ app: AppName, title: z.string().max(200).optional(), backend: z.enum(['native', 'wasm', 'auto']).optional() }),
  // A VNC tile's actions (key, type_text, click_at) are a part of these.
  contracts: DESKTOP_ACTIONS.contracts,
  facadeTools: GUI_TOOLS,
  guide: 'gui_*: tile argument tile_id.',
  outline: (frame, request) => outlineDesktop(frame, request),
  async open(config, env) {
    const missing = missingSessionPackages()
    if (missing.length > 0) throw new TesseraError('not_found', `desktop tiles need the Debian packages ${missing.join(', ')}: apt-get install ${missing.join(' ')}`, { expected: missing, found: null })
    if (config.vnc !== undefined) return new VncTile({ id: env.id, title: config.title ?? `VNC ${config.vnc.host}:${config.vnc.port}`, host: config.vnc.host, port: config.vnc.port }).open()
    const known = config.app === undefined ? undefined : knownApp(config.app)
    const backend = known === undefined ? 'native' : selectBackend(known, config.backend ?? 'auto')
    // A known app that is not installed says which package brings it, before a session starts.
    const missingApp = known === undefined ? [] : packagesMissing(known, backend)
    if (known !== undefined && missingApp.length > 0) throw new TesseraError('not_found', `${known.title} (${backend}) is not installed here: apt-get install ${missingApp.join(' ')}`, { expected: missingApp, found: null })
    const web = backend === 'wasm' && known?.web !== undefined ? { build: known.web, document: config.document === undefined ? undefined : env.resolvePath(config.document) } : undefined
    const command = config.command ?? (backend === 'native' ? known?.command : undefined) ?? []
    const appName = known?.name ?? command[0]?.split('/').pop() ?? 'app'
    const title = config.title ?? known?.title ?? appName
    const options = {
      command,
      appName,
      // A command that starts a program Tessera has a schema for (inkscape) gets it too.
      schema: appSchemaFor(appName),
      env: known?.env,
      profileArg: known?.profileArg,
      profileEnv: known?.profileEnv,
      ...(config.width === undefined ? {} : { width: config.width }),
      ...(config.height === undefined ? {} : { height: config.height }),
      openPart: env.openPart,
      web,
    }
    // Only a known app at the default size with no document is parked: a parked copy is the same for everyone who asks.
    if (known?.keepReady === true && config.command === undefined && config.document === undefined && config.width === undefined && config.height === undefined) {
      const key = `${known.name}:${backend}`
      const parked = await parkedApps.take(key)
      const tile = parked?.claim(env.id, title) ?? (await new DesktopTile({ ...options, id: env.id, title }).open())
      // The next copy starts once this one is up, not while it is still starting.
      parkedApps.refillLater(key, () => new DesktopTile({ ...options, id: `parked-${known.name}-${++parkedCount}` }).open())
      return tile
    }
    return new DesktopTile({ ...options, id: env.id, title }).open()
  },
  dispose: () => parkedApps.closeAll(),
})
