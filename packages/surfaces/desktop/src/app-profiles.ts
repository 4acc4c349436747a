import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Profile templates: an app that builds a profile on its first start (LibreOffice: ~5 s of its
 * ~9 s start) gets, in every tile after the first, a copy of the profile a fresh start made.
 * Taken right after the first window shows, before any agent acted, so no tile's work reaches
 * another. Kept in the user's cache folder; a missing template is made again.
 */
/** A running app's lock files (LibreOffice's `.lock`) would make the next tile's app think its profile is in use. */
const notALock = (source: string): boolean => !/(^|\/)(\.lock|\.~lock[^/]*|lock)$/.test(source)

function templateDir(app: string): string {
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache')
  return join(cache, 'tessera', 'profiles', app.replace(/[^a-z0-9_-]/gi, '_'))
}

/** The tile's profile folder, seeded from the template when there is one; whether it was. */
export function seedProfile(app: string, profile: string): boolean {
  const template = templateDir(app)
  mkdirSync(profile, { recursive: true })
  if (!existsSync(template)) return false
  cpSync(template, profile, { recursive: true, filter: notALock })
  return true
}

/**
 * Keeps a fresh profile as the app's template. Copied beside the template's place and renamed
 * into it, so a tile starting meanwhile never copies half a template. A failure leaves no
 * template, and the next tile simply starts slower.
 */
export function keepTemplate(app: string, profile: string): void {
  const template = templateDir(app)
  if (existsSync(template)) return
  const partial = `${template}.${process.pid}.partial`
  try {
    mkdirSync(join(template, '..'), { recursive: true })
    cpSync(profile, partial, { recursive: true, filter: notALock })
    renameSync(partial, template)
  } catch {
    // A cache that cannot be written costs the next start time, nothing else.
    rmSync(partial, { recursive: true, force: true })
  }
}
