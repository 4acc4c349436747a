import { ReactFlowProvider } from '@xyflow/react'
import { useHub, useHubState } from './HubProvider'
import { Launcher } from './panels/Launcher'
import { MapView } from './map/MapView'
import { ApprovalsPanel } from './panels/ApprovalsPanel'
import { ReplayPanel } from './panels/ReplayPanel'
import { TracePanel } from './panels/TracePanel'
import { Notices } from './panels/Notices'

/** The page: a header with who is signed in and the launcher, the map, and the side panels. */
export function Workspace() {
  const { principal } = useHub()
  const live = useHubState((state) => state.live)
  return (
    <div className="workspace">
      <header className="topbar">
        <h1>Tessera</h1>
        <span className={live ? 'live on' : 'live off'} role="status" aria-label="Connection">
          {live ? 'live' : 'reconnecting…'}
        </span>
        <Launcher />
        <span className="who">
          {principal.id} <small>({principal.roles.join(', ')})</small>
        </span>
      </header>
      <ReactFlowProvider>
        <MapView />
      </ReactFlowProvider>
      <aside className="side" aria-label="Panels">
        <ApprovalsPanel />
        <TracePanel />
        <ReplayPanel />
      </aside>
      <Notices />
    </div>
  )
}
