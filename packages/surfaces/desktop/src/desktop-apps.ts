import { installed, missingSessionPackages } from './desktop-session.js'

/** An app a desktop tile knows how to start, by name: an agent may only name these. */
export interface KnownApp {
  name: string
  title: string
  command: readonly string[]
  /** The Debian package that brings it. */
  pkg: string
  toolkit: 'gtk3' | 'gtk4' | 'qt' | 'vcl' | 'electron'
}

/** The apps Tessera starts by name. Anything else only a person can configure, as a command. */
export const KNOWN_APPS: readonly KnownApp[] = [
  { name: 'gnome-calculator', title: 'Calculator', command: ['gnome-calculator'], pkg: 'gnome-calculator', toolkit: 'gtk4' },
  { name: 'mousepad', title: 'Mousepad', command: ['mousepad', '--disable-server'], pkg: 'mousepad', toolkit: 'gtk3' },
  { name: 'libreoffice-calc', title: 'LibreOffice Calc', command: ['libreoffice', '--calc', '--norestore', '--nologo', '--nofirststartwizard'], pkg: 'libreoffice-calc', toolkit: 'vcl' },
]

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
