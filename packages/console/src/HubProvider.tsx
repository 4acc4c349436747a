import type { Principal } from '@tessera/protocol'
import { type ReactNode, createContext, useContext, useEffect, useMemo } from 'react'
import { useStore } from 'zustand'
import { type StoreApi, createStore } from 'zustand/vanilla'
import { hubApi } from './api/hub-api'
import { useHubEvents } from './api/hub-events'
import { type HubAction, type HubState, INITIAL_STATE, hubReducer } from './api/hub-state'

interface HubContextValue {
  principal: Principal
  /** What the hub lets this person do; the console only reflects it (the hub enforces it). */
  can: { approve: boolean; act: boolean; type: boolean }
  dispatch: (action: HubAction) => void
  store: StoreApi<HubState>
}

const OFFER_TOOLS_AFTER_MS = 2_000

const HubContext = createContext<HubContextValue | null>(null)

/** Who is signed in and what they may do: fixed for the page's life. */
export function useHub(): HubContextValue {
  const value = useContext(HubContext)
  if (value === null) throw new Error('useHub outside HubProvider')
  return value
}

/**
 * A slice of the hub's live state. Components read only what they show, so a trace event
 * re-renders the trace, not fifty tiles.
 */
export function useHubState<T>(select: (state: HubState) => T): T {
  return useStore(useHub().store, select)
}

/** One live connection to the hub for the whole console: tiles, approvals, trace, the shared view. */
export function HubProvider({ principal, children }: { principal: Principal; children: ReactNode }) {
  const value = useMemo<HubContextValue>(() => {
    const store = createStore<HubState>(() => INITIAL_STATE)
    const roles = new Set(principal.roles)
    return {
      principal,
      can: { approve: roles.has('approver'), act: roles.has('agent') || roles.has('admin'), type: roles.has('admin') },
      store,
      dispatch: (action) => store.setState((state) => hubReducer(state, action), true),
    }
  }, [principal])
  const { dispatch } = value
  useHubEvents(dispatch, (live) => {
    dispatch({ type: 'live', live })
    // After a reconnect the pending list may have changed while nobody listened.
    if (live) void hubApi.approvals().then(({ approvals }) => dispatch({ type: 'approvals', approvals }), () => undefined)
  })
  useEffect(() => {
    // Loaded apart from the page, after its first draw: an in-browser agent is optional, the
    // map is not (offering 56 tools took a few hundred milliseconds of the first draw).
    let offered: { stop(): void } | null = null
    let cancelled = false
    const offer = (): void =>
      void import('./webmcp/hub-tools').then(({ offerHubTools }) => offerHubTools()).then(
        (handle) => (cancelled ? handle.stop() : (offered = handle)),
        (error: unknown) => console.warn('tessera console: the hub tools are not offered over WebMCP:', error),
      )
    const later = setTimeout(offer, OFFER_TOOLS_AFTER_MS)
    return () => {
      cancelled = true
      clearTimeout(later)
      offered?.stop()
    }
  }, [])
  useEffect(() => {
    void hubApi.tiles().then(({ tiles }) => {
      for (const tile of tiles) dispatch({ type: 'tile', tile })
    })
  }, [dispatch])
  return <HubContext.Provider value={value}>{children}</HubContext.Provider>
}
