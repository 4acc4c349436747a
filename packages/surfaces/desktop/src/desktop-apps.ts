import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { TesseraError } from '@tessera/protocol'
import type { Toolkit } from './app-schema.js'
import { APP_SCHEMAS } from './app-schemas.js'
import { installed, missingSessionPackages } from './desktop-session.js'

/** How an app runs in a tile: its native build on a display of its own, or its web build in Chromium on one. */
export type AppBackend = 'native' | 'wasm'

/** An app's web or WASM build: static files, the page to open, and how a document is handed to it. */
export interface WebBuild {
  root: string
  entry: string
  documentParam: string | undefined
}

/** An app a desktop tile knows how to start, by name: an agent may only name these. */
export interface KnownApp {
  name: string
  title: string
  /** Its native build's command, when it has one. */
  command: readonly string[] | undefined
  /** Variables its schema sets for it. */
  env: Readonly<Record<string, string>>
  /** Its profile-folder argument, when its schema has one. */
  profileArg: string | undefined
  /** Or the variables that set its profile folder. */
  profileEnv: Readonly<Record<string, string>> | undefined
  /** The Debian package that brings it. */
  pkg: string
  /** Other packages its native build needs, each with a file that says it is installed. */
  requires: ReadonlyArray<{ package: string; file: string }>
  toolkit: Toolkit
  /** Whether a copy is kept started once it has been opened (parked-apps.ts). */
  keepReady: boolean
  /** Its web build, when it has one. */
  web: WebBuild | undefined
}

/** The apps Tessera starts by name: those it has a schema for. Anything else only a person can configure, as a command. */
export const KNOWN_APPS: readonly KnownApp[] = APP_SCHEMAS.map((schema) => ({
  name: schema.app,
  title: schema.title,
  command: schema.launch?.command,
  env: schema.launch?.env ?? {},
  profileArg: schema.launch?.profile_arg,
  profileEnv: schema.launch?.profile_env,
  pkg: schema.package,
  requires: schema.requires ?? [],
  toolkit: schema.toolkit,
  keepReady: schema.keep_ready === true,
  web: schema.web === undefined ? undefined : { root: schema.web.root, entry: schema.web.entry, documentParam: schema.web.document_param },
}))

export function knownApp(name: string): KnownApp | undefined {
  return KNOWN_APPS.find((app) => app.name === name)
}

/** Debian's Chromium runs web builds; `TESSERA_CHROMIUM` names another build, as for browser tiles. */
export function webRuntime(): string {
  return process.env.TESSERA_CHROMIUM ?? '/usr/lib/chromium/chromium'
}

/** The packages missing for one backend of an app: its own, and Chromium for a web build. */
export function packagesMissing(app: KnownApp, backend: AppBackend): string[] {
  if (backend === 'native') return [...(app.command !== undefined && installed(app.command[0] as string) ? [] : [app.pkg]), ...app.requires.filter((need) => !existsSync(need.file)).map((need) => need.package)]
  const missing: string[] = []
  if (app.web === undefined || !existsSync(join(app.web.root, app.web.entry.split('?')[0] as string))) missing.push(app.pkg)
  if (!installed(webRuntime())) missing.push('chromium')
  return missing
}

/** The backends an app has a build for, in the order `auto` tries them: a web build first, as the roadmap's select_backend does. */
export function backendsOf(app: KnownApp): AppBackend[] {
  return [...(app.web === undefined ? [] : ['wasm' as const]), ...(app.command === undefined ? [] : ['native' as const])]
}

/**
 * select_backend: the backend asked for if the app has that build, or with `auto` the first
 * of its builds that is installed here (else the first, whose error says what to install).
 */
export function selectBackend(app: KnownApp, requested: AppBackend | 'auto'): AppBackend {
  const builds = backendsOf(app)
  if (requested !== 'auto') {
    if (!builds.includes(requested)) throw new TesseraError('invalid_input', `${app.title} has no ${requested === 'wasm' ? 'web (wasm)' : 'native'} build; its backends: ${builds.join(', ')}`, { expected: builds, found: requested })
    return requested
  }
  return builds.find((backend) => packagesMissing(app, backend).length === 0) ?? (builds[0] as AppBackend)
}

/** The Debian packages missing here to run a known app in a tile (by the backend auto picks, or the one named): the session's and the app's own. */
export function missingPackagesFor(name: string, backend: AppBackend | 'auto' = 'auto'): string[] {
  const app = knownApp(name)
  const missing = missingSessionPackages()
  if (app !== undefined) missing.push(...packagesMissing(app, selectBackend(app, backend)))
  return missing
}
