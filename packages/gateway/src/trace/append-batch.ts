import { z } from 'zod'
import {
  GENESIS_HASH,
  TesseraError,
  TraceEventDraft,
  canonicalJson,
  describeIssues,
  describeValue,
  type Issue,
} from '@tessera/protocol'
import { draftText, plainCanonicalJson, type DraftText } from './canonical-body.js'
import { chainDraftText, type ChainedEvent } from './hash-chain.js'
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

export interface ChainedBatch {
  /** In the order of the drafts. */
  links: ChainedEvent[]
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
  if (!Array.isArray(drafts)) {
    throw new TesseraError('invalid_request', 'expected an array of trace event drafts', {
      expected: 'TraceEventDraft[]',
      found: describeValue(drafts),
    })
  }
  const prepared = new Array<PreparedDraft>(drafts.length)
  for (let index = 0; index < drafts.length; index += 1) {
    prepared[index] = prepareDraft(drafts[index], index)
  }
  return prepared
}

function prepareDraft(input: unknown, index: number): PreparedDraft {
  try {
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

function invalidDraft(index: number, issues: Issue[]): TesseraError {
  const first = issues[0]
  return new TesseraError(
    'invalid_request',
    `invalid trace event draft #${index}${first ? `: at ${first.path}: ${first.message}` : ''}; nothing was written`,
    { index, expected: 'TraceEventDraft', issues },
  )
}

/**
 * Chains a validated batch. `headOf` gives each session's head before the batch (read inside
 * the store's transaction); seq and prevHash continue from there, per session.
 */
export function chainBatch(
  drafts: readonly PreparedDraft[],
  headOf: (session: string) => ChainHead | null,
): ChainedBatch {
  const heads = new Map<string, HeadUpdate>()
  const links: ChainedEvent[] = new Array<ChainedEvent>(drafts.length)
  for (let index = 0; index < drafts.length; index += 1) {
    const { draft, text } = drafts[index] as PreparedDraft
    let head = heads.get(draft.session)
    if (head === undefined) {
      const stored = headOf(draft.session)
      head = stored
        ? { session: draft.session, seq: stored.seq, hash: stored.hash, firstTime: null, lastTime: draft.time }
        : { session: draft.session, seq: -1, hash: GENESIS_HASH, firstTime: draft.time, lastTime: draft.time }
      heads.set(draft.session, head)
    }
    const link = chainDraftText(draft, text, head.seq + 1, head.hash)
    links[index] = link
    head.seq = link.event.seq
    head.hash = link.event.hash
    head.lastTime = draft.time
  }
  return { links, heads }
}

/** The distinct sessions of a batch, in first-seen order. */
export function sessionsOf(drafts: readonly PreparedDraft[]): string[] {
  return [...new Set(drafts.map(({ draft }) => draft.session))]
}
