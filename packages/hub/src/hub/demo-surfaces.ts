import { claimsReview } from '@tessera/example-claims-review'
import { AppSurface } from '@tessera/surface-app'
import type { SurfaceManager } from '../tiles/surface-manager.js'

/** What `npm start` shows: the agent-native claims-review app (later issues add more). */
export async function addDemoSurfaces(surfaces: SurfaceManager): Promise<void> {
  await surfaces.add(new AppSurface(claimsReview), { x: 0, y: 0, width: 1024, height: 768 })
}
