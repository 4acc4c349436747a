import { GENESIS_HASH, type Approval, type ApprovalStatus, type TraceEvent, type TraceEventDraft } from '@tessera/protocol'
import { chainBatch, validateDrafts } from './append-batch.js'
import { approvalFromJson, compareApprovals, validApproval } from './approval-records.js'
import { type StoredBlob, checkBlobs } from './blobs.js'
import { closedStoreError } from './store-errors.js'
import { ChainWalker } from './chain-walker.js'
import { deepBodyProblem, eventFromBody, type ChainVerification, type StoredEvent, type VerifyOptions } from './hash-chain.js'
import { readWindow, type ApprovalFilter, type ChainHead, type ReadOptions, type SessionSummary, type TraceStore } from './store.js'

interface SessionChain {
  links: StoredEvent[]
  firstTime: string
  lastTime: string
}

/**
 * A trace that lives as long as the process: for tests and throwaway hubs. It keeps the same
 * canonical bodies as the persistent stores, so the same verification applies.
 */
export class MemoryTraceStore implements TraceStore {
  readonly kind = 'memory' as const
  private readonly chains = new Map<string, SessionChain>()
  /** JSON text, so callers never share objects with the store. */
  private readonly approvals = new Map<string, string>()
  private readonly blobs = new Map<string, string>()
  private closed = false

  async append(drafts: readonly TraceEventDraft[]): Promise<TraceEvent[]> {
    this.assertOpen()
    const valid = validateDrafts(drafts)
    const links: StoredEvent[] = []
    const { events, heads } = chainBatch(
      valid,
      (session) => {
        const last = this.chains.get(session)?.links.at(-1)
        return last ? { seq: last.seq, hash: last.hash } : null
      },
      (event, body) => links.push({ seq: event.seq, prevHash: event.prevHash, hash: event.hash, body }),
    )
    // Everything above may throw; nothing below does, which is what makes the batch atomic.
    links.forEach((link, index) => {
      const event = events[index] as TraceEvent
      let chain = this.chains.get(event.session)
      if (chain === undefined) {
        chain = { links: [], firstTime: event.time, lastTime: event.time }
        this.chains.set(event.session, chain)
      }
      chain.links.push(link)
    })
    for (const head of heads.values()) {
      const chain = this.chains.get(head.session)
      if (chain) chain.lastTime = head.lastTime
    }
    return events
  }

  async *read(session: string, options: ReadOptions = {}): AsyncIterable<TraceEvent> {
    this.assertOpen()
    const { fromSeq, limit } = readWindow(options)
    const links = this.chains.get(session)?.links ?? []
    const end = Math.min(links.length, fromSeq + limit)
    for (let seq = fromSeq; seq < end; seq += 1) {
      const link = links[seq] as StoredEvent
      yield eventFromBody(link.body, link.hash, { session, seq })
    }
  }

  async *readRaw(session: string): AsyncIterable<StoredEvent> {
    this.assertOpen()
    for (const link of this.chains.get(session)?.links ?? []) yield { ...link }
  }

  /** verifyEvents(readRaw(session)) without a copy and a promise per link. */
  async verifyChain(session: string, options: VerifyOptions = {}): Promise<ChainVerification> {
    this.assertOpen()
    const walker = new ChainWalker(options, deepBodyProblem)
    for (const link of this.chains.get(session)?.links ?? []) if (!walker.accept(link)) break
    return walker.result()
  }

  async head(session: string): Promise<ChainHead | null> {
    this.assertOpen()
    const last = this.chains.get(session)?.links.at(-1)
    return last ? { seq: last.seq, hash: last.hash } : null
  }

  async sessions(): Promise<SessionSummary[]> {
    this.assertOpen()
    return [...this.chains.entries()]
      .map(([session, chain]) => ({
        session,
        events: chain.links.length,
        firstTime: chain.firstTime,
        lastTime: chain.lastTime,
        headHash: chain.links.at(-1)?.hash ?? GENESIS_HASH,
      }))
      .sort((a, b) => (a.session < b.session ? -1 : a.session > b.session ? 1 : 0))
  }

  async putApproval(approval: Approval): Promise<void> {
    this.assertOpen()
    const valid = validApproval(approval)
    this.approvals.set(valid.id, JSON.stringify(valid))
  }

  async transitionApproval(next: Approval, from: ApprovalStatus): Promise<boolean> {
    this.assertOpen()
    const valid = validApproval(next)
    const stored = this.approvals.get(valid.id)
    if (stored === undefined || approvalFromJson(stored, valid.id).status !== from) return false
    this.approvals.set(valid.id, JSON.stringify(valid))
    return true
  }

  async putBlobs(blobs: readonly StoredBlob[]): Promise<void> {
    this.assertOpen()
    checkBlobs(blobs)
    for (const blob of blobs) if (!this.blobs.has(blob.hash)) this.blobs.set(blob.hash, blob.text)
  }

  async getBlob(hash: string): Promise<string | null> {
    this.assertOpen()
    return this.blobs.get(hash) ?? null
  }

  async getApproval(id: string): Promise<Approval | null> {
    this.assertOpen()
    const text = this.approvals.get(id)
    return text === undefined ? null : approvalFromJson(text, id)
  }

  async listApprovals(filter: ApprovalFilter = {}): Promise<Approval[]> {
    this.assertOpen()
    return [...this.approvals.entries()]
      .map(([id, text]) => approvalFromJson(text, id))
      .filter((a) => (filter.status === undefined || a.status === filter.status) && (filter.session === undefined || a.session === filter.session))
      .sort(compareApprovals)
  }

  async close(): Promise<void> {
    this.closed = true
  }

  private assertOpen(): void {
    if (this.closed) throw closedStoreError(this.kind)
  }
}

export function openMemoryStore(): MemoryTraceStore {
  return new MemoryTraceStore()
}
