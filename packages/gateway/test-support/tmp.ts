import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TempDir {
  path: string
  remove(): Promise<void>
}

/** A fresh directory under the OS temp folder; remove() deletes it and everything in it. */
export async function makeTempDir(prefix = 'tessera-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix))
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}
