import type { Toolkit } from './app-schema.js'
import { APP_SCHEMAS } from './app-schemas.js'
import { installed, missingSessionPackages } from './desktop-session.js'

/** An app a desktop tile knows how to start, by name: an agent may only name these. */
export interface KnownApp {
  name: string
  title: string
  command: readonly string[]
  /** Variables its schema sets for it. */
  env: Readonly<Record<string, string>>
  /** Its profile-folder argument, when its schema has one. */
  profileArg: string | undefined
  /** The Debian package that brings it. */
  pkg: string
  toolkit: Toolkit
  /** Whether a copy is kept started once it has been opened (parked-apps.ts). */
  keepReady: boolean
}

/** The apps Tessera starts by name: those it has a schema for. Anything else only a person can configure, as a command. */
export const KNOWN_APPS: readonly KnownApp[] = APP_SCHEMAS.map((schema) => ({
  name: schema.app,
  title: schema.title,
  command: schema.launch.command,
  env: schema.launch.env ?? {},
  profileArg: schema.launch.profile_arg,
  pkg: schema.package,
  toolkit: schema.toolkit,
  keepReady: schema.launch.keep_ready === true,
}))

export function knownApp(name: string): KnownApp | undefined {
  return KNOWN_APPS.find((app) => app.name === name)
}

/** The Debian packages missing here to run a known app in a tile: the session's and the app's own. */
export function missingPackagesFor(name: string): string[] {
  const app = knownApp(name)
  const missing = missingSessionPackages()
  if (app !== undefined && !installed(app.command[0] as string)) missing.push(app.pkg)
  return missing
}
