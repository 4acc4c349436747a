import type { TraceStore } from '@tessera/gateway'
import type { Checkpoint } from './checkpoint-log.js'

/** A session whose store no longer matches what the hub signed when it committed. */
export interface AnchorProblem {
  session: string
  kind: 'truncated' | 'rewritten' | 'missing'
  message: string
}

/**
 * Checks each session's chain in the store against its newest signed checkpoint: the
 * store must still hold the checkpointed event (same seq, same hash). Fewer events is a cut
 * tail; another hash at that seq is a rewritten chain; no session at all, a removed one.
 * Events after the newest checkpoint are fine (a hub may stop before it flushes).
 */
export async function checkAnchors(store: TraceStore, latest: ReadonlyMap<string, Checkpoint>, only?: string): Promise<AnchorProblem[]> {
  const problems: AnchorProblem[] = []
  for (const [session, checkpoint] of latest) {
    if (only !== undefined && session !== only) continue
    const head = await store.head(session)
    if (head === null) {
      problems.push({ session, kind: 'missing', message: `signed at seq ${checkpoint.seq} (${checkpoint.time}), but the store has no such session` })
      continue
    }
    if (head.seq < checkpoint.seq) {
      problems.push({ session, kind: 'truncated', message: `signed at seq ${checkpoint.seq} (${checkpoint.time}), but the store ends at seq ${head.seq}: ${checkpoint.seq - head.seq} event(s) cut from the tail` })
      continue
    }
    let found: string | null = null
    for await (const event of store.read(session, { fromSeq: checkpoint.seq, limit: 1 })) found = event.hash
    if (found !== checkpoint.hash) {
      problems.push({ session, kind: 'rewritten', message: `signed seq ${checkpoint.seq} with hash ${checkpoint.hash.slice(0, 16)}…, but the store holds ${found === null ? 'nothing' : `${found.slice(0, 16)}…`} there` })
    }
  }
  return problems
}
