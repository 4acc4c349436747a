import { cpSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { claimsReview } from '@tessera/example-claims-review'
import { AppSurface } from '@tessera/surface-app'
import { FileSurface } from '@tessera/surface-files'
import type { SurfaceManager } from '../tiles/surface-manager.js'

const DEMO_FILES = fileURLToPath(new URL('../../../../examples/demo-files', import.meta.url))

/**
 * What `npm start` shows: the agent-native claims-review app and a file tile. The file
 * tile is rooted at a copy of examples/demo-files inside the data folder, so what an agent
 * writes there never touches the repository.
 */
export async function addDemoSurfaces(surfaces: SurfaceManager, dataDir: string): Promise<void> {
  await surfaces.add(new AppSurface(claimsReview), { x: 0, y: 0, width: 1024, height: 768 })
  const root = join(dataDir, 'demo-files')
  if (!existsSync(root) && existsSync(DEMO_FILES)) cpSync(DEMO_FILES, root, { recursive: true })
  if (existsSync(root)) {
    await surfaces.add(new FileSurface({ roots: [{ name: 'demo', path: root }], id: 'files', title: 'Demo files' }), { x: 1088, y: 0, width: 1024, height: 768 })
  }
}
