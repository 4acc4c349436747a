import { z } from 'zod'
import {
  GENESIS_HASH,
  TesseraError,
  TraceEventDraft,
  TraceEventType,
  canonicalJson,
  describeIssues,
  describeValue,
  type Issue,
  type TraceEvent,
} from '@tessera/protocol'
import { draftText, plainCanonicalJson, type DraftText } from './canonical-body.js'
import { chainDraftText } from './hash-chain.js'
import type { ChainHead } from './store.js'

/** A session's head after a batch, for the store's heads table. */
export interface HeadUpdate {
  session: string
  seq: number
  hash: string
  /** `time` of seq 0 when this batch starts the session; null when it already existed. */
  firstTime: string | null
  lastTime: string
}

/** Receives each link as it is chained, in the order of the drafts. */
export type LinkSink = (event: TraceEvent, body: string) => void

export interface ChainedBatch {
  /** In the order of the drafts. */
  events: TraceEvent[]
  heads: Map<string, HeadUpdate>
}

/** A validated draft with the parts of its body that do not depend on its place in a chain. */
export interface PreparedDraft {
  draft: TraceEventDraft
  text: DraftText
}

/*
 * Full zod validation of `data` (a recursive JSON union) costs about as much as the SQLite
 * insert. The envelope — every field but data — is validated by the protocol's own schema;
 * data is validated by serializing it canonically, which must walk it anyway and declines
 * anything that is not plain JSON. Only a draft the fast path declines pays for the full
 * schema, which then either names the problem or vouches for the value after all.
 */
const DraftEnvelope = TraceEventDraft.extend({ data: z.unknown() })

/**
 * Validates a whole batch before anything is chained, so one bad draft leaves the store
 * untouched. The error names the draft's index and what was wrong with it.
 */
export function validateDrafts(drafts: readonly unknown[]): PreparedDraft[] {
  assertDraftArray(drafts)
  const prepared = new Array<PreparedDraft>(drafts.length)
  for (let index = 0; index < drafts.length; index += 1) {
    prepared[index] = prepareDraft(drafts[index], index)
  }
  return prepared
}

export function assertDraftArray(drafts: unknown): asserts drafts is readonly unknown[] {
  if (!Array.isArray(drafts)) {
    throw new TesseraError('invalid_request', 'expected an array of trace event drafts', {
      expected: 'TraceEventDraft[]',
      found: describeValue(drafts),
    })
  }
}

/** Validates one draft; the error names `index`, its place in the batch. */
export function prepareDraft(input: unknown, index: number): PreparedDraft {
  try {
    const plain = plainEnvelope(input)
    const plainData = plain === undefined ? undefined : plainCanonicalJson(plain.data)
    if (plain !== undefined && plainData !== undefined) return { draft: plain, text: draftText(plain, plainData) }
    const envelope = DraftEnvelope.safeParse(input)
    const dataJson = envelope.success ? plainCanonicalJson(envelope.data.data) : undefined
    if (envelope.success && dataJson !== undefined) {
      const draft = envelope.data as TraceEventDraft
      return { draft, text: draftText(draft, dataJson) }
    }
    const full = TraceEventDraft.safeParse(input)
    if (!full.success) throw invalidDraft(index, describeIssues(full.error))
    return { draft: full.data, text: draftText(full.data, canonicalJson(full.data.data)) }
  } catch (error) {
    if (error instanceof TesseraError) throw error
    // A cyclic or absurdly deep `data` overflows the stack rather than failing validation.
    throw invalidDraft(index, [{ path: 'data', message: error instanceof Error ? error.message : String(error) }])
  }
}

const DraftTime = TraceEventDraft.shape.time
const DRAFT_TYPES: ReadonlySet<unknown> = new Set(TraceEventType.options)

/**
 * The envelope of a draft that plainly satisfies the schema, as a new object of exactly the
 * draft's fields; undefined for anything else, which then goes through zod. Checks what
 * TraceEventDraft checks, field by field (time with the schema's own datetime check), reading
 * each field once; accepts only plain objects, so it is never more lenient than the schema.
 * Costs a third of the schema's object parse, which copies through zod's machinery.
 */
function plainEnvelope(input: unknown): TraceEventDraft | undefined {
  if (typeof input !== 'object' || input === null) return undefined
  const prototype: unknown = Object.getPrototypeOf(input)
  if (prototype !== Object.prototype && prototype !== null) return undefined
  const { session, time, type, actor, surface, action, frameId, requestId, data } = input as Record<string, unknown>
  if (typeof session !== 'string' || session.length < 1 || session.length > 128) return undefined
  if (typeof actor !== 'string' || actor.length > 128) return undefined
  if (!nullableText(surface, 128) || !nullableText(action, 128) || !nullableText(requestId, 128)) return undefined
  if (!nullableText(frameId, Infinity)) return undefined
  if (!DRAFT_TYPES.has(type)) return undefined
  if (typeof time !== 'string' || !DraftTime.safeParse(time).success) return undefined
  return { session, time, type, actor, surface, action, frameId, requestId, data } as TraceEventDraft
}

function nullableText(value: unknown, maxLength: number): boolean {
  return value === null || (typeof value === 'string' && value.length <= maxLength)
}

function invalidDraft(index: number, issues: Issue[]): TesseraError {
  const first = issues[0]
  return new TesseraError(
    'invalid_request',
    `invalid trace event draft #${index}${first ? `: at ${first.path}: ${first.message}` : ''}; nothing was written`,
    { index, expected: 'TraceEventDraft', issues },
  )
}

/**
 * Chains a validated batch, handing each link to `sink` in draft order. `headOf` gives each
 * session's head before the batch (read inside the store's transaction); seq and prevHash
 * continue from there, per session. Nothing here throws.
 */
export function chainBatch(
  drafts: readonly PreparedDraft[],
  headOf: (session: string) => ChainHead | null,
  sink: LinkSink,
): ChainedBatch {
  const chain = new BatchChain(drafts.length, headOf, sink)
  for (let index = 0; index < drafts.length; index += 1) {
    const { draft, text } = drafts[index] as PreparedDraft
    chain.add(index, draft, text)
  }
  return chain.result()
}

/**
 * chainBatch for drafts not yet validated: each is validated just before it is chained, so a
 * store can write a batch while it is still being built, with the batch's drafts and links
 * never all alive at once (in a large batch, keeping them alive is what the garbage collector
 * spends most on). The first invalid draft throws after `sink` has seen the links before it:
 * only a store that writes inside a transaction it rolls back on error may use this; the
 * rollback is what leaves the store untouched.
 */
export function chainDrafts(
  drafts: readonly unknown[],
  headOf: (session: string) => ChainHead | null,
  sink: LinkSink,
): ChainedBatch {
  assertDraftArray(drafts)
  const chain = new BatchChain(drafts.length, headOf, sink)
  for (let index = 0; index < drafts.length; index += 1) {
    const { draft, text } = prepareDraft(drafts[index], index)
    chain.add(index, draft, text)
  }
  return chain.result()
}

class BatchChain {
  private readonly heads = new Map<string, HeadUpdate>()
  private readonly events: TraceEvent[]

  constructor(
    size: number,
    private readonly headOf: (session: string) => ChainHead | null,
    private readonly sink: LinkSink,
  ) {
    this.events = new Array<TraceEvent>(size)
  }

  add(index: number, draft: TraceEventDraft, text: DraftText): void {
    let head = this.heads.get(draft.session)
    if (head === undefined) {
      const stored = this.headOf(draft.session)
      head = stored
        ? { session: draft.session, seq: stored.seq, hash: stored.hash, firstTime: null, lastTime: draft.time }
        : { session: draft.session, seq: -1, hash: GENESIS_HASH, firstTime: draft.time, lastTime: draft.time }
      this.heads.set(draft.session, head)
    }
    const { event, body } = chainDraftText(draft, text, head.seq + 1, head.hash)
    this.events[index] = event
    head.seq = event.seq
    head.hash = event.hash
    head.lastTime = draft.time
    this.sink(event, body)
  }

  result(): ChainedBatch {
    return { events: this.events, heads: this.heads }
  }
}

/** The distinct sessions of a batch, in first-seen order. */
export function sessionsOf(drafts: readonly PreparedDraft[]): string[] {
  return [...new Set(drafts.map(({ draft }) => draft.session))]
}
