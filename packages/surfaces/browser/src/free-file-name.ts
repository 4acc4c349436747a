import { existsSync } from 'node:fs'
import { extname, join } from 'node:path'

/** How many numbered names are tried before the name takes the time too. */
const MAX_NUMBERED = 999

/**
 * A path in `folder` for a file named `name` that writes over nothing: the name itself, else as
 * a browser numbers a second download of one name (`report (1).csv`, `report (2).csv`). `taken`
 * holds paths being written now, which may not be on disk yet.
 */
export function freeFileName(folder: string, name: string, taken: ReadonlySet<string> = new Set()): string {
  const free = (path: string): boolean => !taken.has(path) && !existsSync(path)
  const first = join(folder, name)
  if (free(first)) return first
  // A compressed archive's two extensions stay together (`logs (1).tar.gz`).
  const last = extname(name)
  const extension = extname(name.slice(0, name.length - last.length)) === '.tar' ? `.tar${last}` : last
  const stem = name.slice(0, name.length - extension.length)
  for (let n = 1; n <= MAX_NUMBERED; n++) {
    const numbered = join(folder, `${stem} (${n})${extension}`)
    if (free(numbered)) return numbered
  }
  return join(folder, `${stem} (${Date.now()})${extension}`)
}
