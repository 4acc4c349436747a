import { TesseraError } from '@tessera/protocol'
import { verifyEvents, type ChainVerification } from './hash-chain.js'
import type { TraceStore } from './store.js'

export type SessionVerification = ChainVerification & { session: string }

export interface VerifyStoreOptions {
  /** Parse and validate every body in full (slower); see VerifyOptions.deep. */
  deep?: boolean
}

/**
 * Verifies one session's chain, or every session's; a named session that does not exist is
 * `not_found`. Beyond the chain itself, the result is
 * held against the head the store recorded when it last appended, which the chain alone
 * cannot prove: a truncated tail, or a last event rewritten with a fresh hash, is reported.
 */
export async function verifyStore(
  store: TraceStore,
  session?: string,
  options: VerifyStoreOptions = {},
): Promise<SessionVerification[]> {
  const sessions = session === undefined ? (await store.sessions()).map((summary) => summary.session) : [session]
  const results: SessionVerification[] = []
  for (const name of sessions) {
    const chainOptions = { session: name, deep: options.deep ?? false }
    const chain = store.verifyChain
      ? await store.verifyChain(name, chainOptions)
      : await verifyEvents(store.readRaw(name), chainOptions)
    const head = await store.head(name)
    // A named session with no events and no recorded head does not exist: not "intact".
    if (session !== undefined && head === null && chain.count === 0) throw new TesseraError('not_found', `no session "${name}" in the trace store`, { found: name })
    results.push({ session: name, ...againstRecordedHead(chain, head) })
  }
  return results
}

function againstRecordedHead(
  chain: ChainVerification,
  head: { seq: number; hash: string } | null,
): ChainVerification {
  if (!chain.ok) return chain
  const recordedCount = head === null ? 0 : head.seq + 1
  const recorded = head === null ? 'no events recorded for this session' : `a head recorded at seq ${head.seq}`
  if (chain.count < recordedCount) {
    // Events at the end are missing: the chain stops before the head the store recorded.
    return {
      ok: false,
      count: chain.count,
      firstBroken: { seq: chain.count, reason: 'seq_gap', expected: String(chain.count), found: `end of chain (${recorded})` },
    }
  }
  if (chain.count > recordedCount) {
    // Events beyond the recorded head were written behind the store's back.
    return {
      ok: false,
      count: recordedCount,
      firstBroken: { seq: recordedCount, reason: 'seq_gap', expected: `end of chain (${recorded})`, found: String(recordedCount) },
    }
  }
  if (head !== null && head.hash !== chain.headHash) {
    return {
      ok: false,
      count: head.seq,
      firstBroken: { seq: head.seq, reason: 'hash_mismatch', expected: head.hash, found: chain.headHash },
    }
  }
  return chain
}
