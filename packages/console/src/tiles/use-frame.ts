import type { Frame } from '@tessera/protocol'
import { useEffect, useState } from 'react'
import { hubApi } from '../api/hub-api'
import { useHubState } from '../HubProvider'

// One request per tile and version, however many parts of the page show that tile's frame:
// the latest version's answer is kept until the hub says the tile changed again.
const latest = new Map<string, { version: number; frame: Promise<Frame> }>()

function fetchFrame(surface: string, version: number): Promise<Frame> {
  const known = latest.get(surface)
  if (known !== undefined && known.version === version) return known.frame
  const frame = hubApi.frame(surface).then(({ frame }) => frame)
  latest.set(surface, { version, frame })
  // A failed request is not kept: the next reader asks again.
  frame.catch(() => latest.get(surface)?.frame === frame && latest.delete(surface))
  return frame
}

/**
 * The tile's current frame from the hub's frame cache, fetched again whenever the hub says it
 * changed (however many consoles watch, the hub takes one snapshot).
 */
export function useFrame(surface: string, enabled = true): { frame: Frame | null; error: string | null } {
  const version = useHubState((state) => state.frameVersions[surface] ?? 0)
  const [answer, setAnswer] = useState<{ frame: Frame | null; error: string | null }>({ frame: null, error: null })
  useEffect(() => {
    if (!enabled) return
    let current = true
    fetchFrame(surface, version).then(
      (frame) => current && setAnswer({ frame, error: null }),
      (error: unknown) => current && setAnswer((previous) => ({ frame: previous.frame, error: error instanceof Error ? error.message : String(error) })),
    )
    return () => {
      current = false
    }
  }, [surface, version, enabled])
  return answer
}
