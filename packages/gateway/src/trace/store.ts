import { TesseraError, type Approval, type ApprovalStatus, type TraceEvent, type TraceEventDraft } from '@tessera/protocol'
import type { StoredBlob } from './blobs.js'
import type { ChainVerification, StoredEvent, VerifyOptions } from './hash-chain.js'

export type { StoredBlob } from './blobs.js'

export type { StoredEvent } from './hash-chain.js'

export type TraceStoreKind = 'memory' | 'sqlite' | 'postgres'

export interface ChainHead {
  seq: number
  hash: string
}

export interface SessionSummary {
  session: string
  events: number
  /** `time` of the session's first and latest events, as their authors wrote them. */
  firstTime: string
  lastTime: string
  headHash: string
}

export interface ReadOptions {
  /** First seq to return (default 0). */
  fromSeq?: number
  /** Most events to return (default: all). */
  limit?: number
}

/** ReadOptions with defaults applied; rejects what is not a whole, non-negative number. */
export function readWindow(options: ReadOptions): { fromSeq: number; limit: number } {
  const fromSeq = options.fromSeq ?? 0
  const limit = options.limit ?? Infinity
  const whole = (value: number): boolean => value === Infinity || (Number.isInteger(value) && value >= 0)
  if (!whole(fromSeq) || !whole(limit) || fromSeq === Infinity) {
    throw new TesseraError('invalid_request', 'read options fromSeq and limit must be whole numbers of at least 0', {
      expected: '{ fromSeq?: integer >= 0, limit?: integer >= 0 }',
      found: { fromSeq: options.fromSeq, limit: options.limit },
    })
  }
  return { fromSeq, limit }
}

export interface ApprovalFilter {
  status?: ApprovalStatus
  session?: string
}

/**
 * Where a hub keeps its trace. Every backend passes the same contract suite
 * (store-contract.ts); errors are TesseraErrors: 'invalid_request' for bad input (nothing
 * written), 'store_error' when the backend fails.
 */
export interface TraceStore {
  readonly kind: TraceStoreKind
  /**
   * Appends a batch atomically: every draft is validated, and all are chained and written in
   * one transaction, or none is (an invalid draft fails the batch before anything is
   * committed). Drafts may span sessions; each session's seq and prevHash continue from its
   * own head. Returns the events in the order of the drafts; each carries its draft's `data`
   * as given (not a copy), which equals what read() returns up to RFC 8785 canonical form
   * (e.g. -0 is stored, and read back, as 0).
   */
  append(drafts: readonly TraceEventDraft[]): Promise<TraceEvent[]>
  /** Streams a session's events in seq order, page by page; never the whole table at once. */
  read(session: string, options?: ReadOptions): AsyncIterable<TraceEvent>
  /** Streams the links as stored, for verification. */
  readRaw(session: string): AsyncIterable<StoredEvent>
  /**
   * Optional: verifies a session's chain the store's own faster way (SQLite: in parallel),
   * with exactly the result of verifyEvents(readRaw(session), options). verifyStore uses it
   * when present; a store that wraps another should pass it through.
   */
  verifyChain?(session: string, options?: VerifyOptions): Promise<ChainVerification>
  head(session: string): Promise<ChainHead | null>
  sessions(): Promise<SessionSummary[]>
  /** Approvals persist beside the trace so a restart keeps the pending ones. Upsert by id. */
  putApproval(approval: Approval): Promise<void>
  /**
   * Writes `next` only if the stored approval is still in status `from`, as one atomic
   * conditional update (compare-and-set): true when written, false when another resolver got
   * there first (or there is no such approval). Two approvers, or an approve and a deny,
   * racing on one approval: exactly one wins, whatever the store.
   */
  transitionApproval(next: Approval, from: ApprovalStatus): Promise<boolean>
  getApproval(id: string): Promise<Approval | null>
  /** Oldest first (createdAt, then id). */
  listApprovals(filter?: ApprovalFilter): Promise<Approval[]>
  /**
   * Stores content-addressed texts once (a frame seen a thousand times is stored once and
   * referenced by hash). Each blob's hash is checked against its text; a bad one fails the
   * call with 'invalid_request' and nothing of it is written. A blob already held is skipped.
   */
  putBlobs(blobs: readonly StoredBlob[]): Promise<void>
  /** The text stored under `hash`, or null. */
  getBlob(hash: string): Promise<string | null>
  close(): Promise<void>
}
