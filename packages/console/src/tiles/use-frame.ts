import type { Frame } from '@tessera/protocol'
import { useEffect, useState } from 'react'
import { hubApi } from '../api/hub-api'
import { useHub } from '../HubProvider'

/**
 * The tile's current frame from the hub's frame cache, fetched again whenever the hub says it
 * changed (however many consoles watch, the hub takes one snapshot).
 */
export function useFrame(surface: string, enabled = true): { frame: Frame | null; error: string | null } {
  const { state } = useHub()
  const version = state.frameVersions[surface] ?? 0
  const [answer, setAnswer] = useState<{ frame: Frame | null; error: string | null }>({ frame: null, error: null })
  useEffect(() => {
    if (!enabled) return
    let current = true
    hubApi.frame(surface).then(
      ({ frame }) => current && setAnswer({ frame, error: null }),
      (error: unknown) => current && setAnswer((previous) => ({ frame: previous.frame, error: error instanceof Error ? error.message : String(error) })),
    )
    return () => {
      current = false
    }
  }, [surface, version, enabled])
  return answer
}
