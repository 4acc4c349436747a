import type { Principal } from '@tessera/protocol'
import { type Dispatch, type ReactNode, createContext, useContext, useEffect, useReducer } from 'react'
import { hubApi } from './api/hub-api'
import { useHubEvents } from './api/hub-events'
import { type HubAction, type HubState, INITIAL_STATE, hubReducer } from './api/hub-state'

interface HubContextValue {
  principal: Principal
  state: HubState
  dispatch: Dispatch<HubAction>
  /** What the hub lets this person do; the console only reflects it (the hub enforces it). */
  can: { approve: boolean; act: boolean; type: boolean }
}

const HubContext = createContext<HubContextValue | null>(null)

export function useHub(): HubContextValue {
  const value = useContext(HubContext)
  if (value === null) throw new Error('useHub outside HubProvider')
  return value
}

/** One live connection to the hub for the whole console: tiles, approvals, trace, the shared view. */
export function HubProvider({ principal, children }: { principal: Principal; children: ReactNode }) {
  const [state, dispatch] = useReducer(hubReducer, INITIAL_STATE)
  useHubEvents(dispatch, (live) => {
    dispatch({ type: 'live', live })
    // After a reconnect the pending list may have changed while nobody listened.
    if (live) void hubApi.approvals().then(({ approvals }) => dispatch({ type: 'approvals', approvals }), () => undefined)
  })
  useEffect(() => {
    // Loaded apart from the page: an in-browser agent is optional, the map is not.
    let offered: { stop(): void } | null = null
    let cancelled = false
    void import('./webmcp/hub-tools').then(({ offerHubTools }) => offerHubTools()).then(
      (handle) => (cancelled ? handle.stop() : (offered = handle)),
      (error: unknown) => console.warn('tessera console: the hub tools are not offered over WebMCP:', error),
    )
    return () => {
      cancelled = true
      offered?.stop()
    }
  }, [])
  useEffect(() => {
    void hubApi.tiles().then(({ tiles }) => {
      for (const tile of tiles) dispatch({ type: 'tile', tile })
    })
  }, [])
  const roles = new Set(principal.roles)
  const can = { approve: roles.has('approver'), act: roles.has('agent') || roles.has('admin'), type: roles.has('admin') }
  return <HubContext.Provider value={{ principal, state, dispatch, can }}>{children}</HubContext.Provider>
}
