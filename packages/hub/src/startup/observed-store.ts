import type { TraceStore } from '@tessera/gateway'
import type { Approval, ApprovalStatus, TraceEvent, TraceEventDraft } from '@tessera/protocol'
import type { HubEvents } from './hub-events.js'

/**
 * The trace store as the hub uses it: every committed append and approval change is also
 * announced, so clients see the trace and approvals live without polling.
 */
export function observeStore(store: TraceStore, events: HubEvents): TraceStore {
  return {
    get kind() {
      return store.kind
    },
    async append(drafts: readonly TraceEventDraft[]): Promise<TraceEvent[]> {
      const appended = await store.append(drafts)
      if (appended.length > 0) events.emit('trace', appended)
      return appended
    },
    read: (session, options) => store.read(session, options),
    // The store's own fast verification (threads for long SQLite chains), when it has one.
    ...(store.verifyChain ? { verifyChain: (session, options) => store.verifyChain!(session, options) } : {}),
    readRaw: (session) => store.readRaw(session),
    head: (session) => store.head(session),
    sessions: () => store.sessions(),
    async putApproval(approval: Approval): Promise<void> {
      await store.putApproval(approval)
      events.emit('approval', approval)
    },
    async transitionApproval(next: Approval, from: ApprovalStatus): Promise<boolean> {
      const written = await store.transitionApproval(next, from)
      if (written) events.emit('approval', next)
      return written
    },
    getApproval: (id) => store.getApproval(id),
    putBlobs: (blobs) => store.putBlobs(blobs),
    getBlob: (hash) => store.getBlob(hash),
    listApprovals: (filter) => store.listApprovals(filter),
    close: () => store.close(),
  }
}
