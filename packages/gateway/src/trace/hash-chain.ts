import { TesseraError, TraceEvent, canonicalJson, type TraceEventDraft } from '@tessera/protocol'
import { bodyText, canonicalDataJson, draftText, type DraftText } from './canonical-body.js'
import {
  ChainWalker,
  excerpt,
  sha256OfText,
  type ChainVerification,
  type StoredEvent,
  type VerifyOptions,
} from './chain-walker.js'

export {
  linkHash,
  type BrokenLink,
  type BrokenLinkReason,
  type ChainVerification,
  type StoredEvent,
  type VerifyOptions,
} from './chain-walker.js'

export interface ChainedEvent {
  event: TraceEvent
  body: string
}

/**
 * hash = sha256(prevHash ‖ body), body = canonical JSON of the event without `hash`.
 * `draft` must already be a valid TraceEventDraft (stores validate whole batches first).
 */
export function chainEvent(draft: TraceEventDraft, seq: number, prevHash: string): ChainedEvent {
  return chainDraftText(draft, draftText(draft, canonicalDataJson(draft.data)), seq, prevHash)
}

/** chainEvent for a draft whose seq-independent text was built once, up front. */
export function chainDraftText(draft: TraceEventDraft, text: DraftText, seq: number, prevHash: string): ChainedEvent {
  // Hashing flattens `prevHash + body` into one string; the body the store writes is a slice of
  // that string rather than a second pass over the pieces it was built from.
  const hashed = prevHash + bodyText(text, seq, prevHash)
  const body = hashed.slice(prevHash.length)
  const hash = sha256OfText(hashed)
  const event: TraceEvent = {
    session: draft.session,
    time: draft.time,
    type: draft.type,
    actor: draft.actor,
    surface: draft.surface,
    action: draft.action,
    frameId: draft.frameId,
    requestId: draft.requestId,
    data: draft.data,
    seq,
    prevHash,
    hash,
  }
  return { event, body }
}

/**
 * Turns a stored body back into the event. Bodies were validated before they were written, so
 * this only parses; a body that no longer parses is corruption and is reported, not skipped.
 */
export function eventFromBody(body: string, hash: string, where: { session: string; seq: number }): TraceEvent {
  let parsed: unknown
  let cause = 'not a JSON object'
  try {
    parsed = JSON.parse(body)
  } catch (error) {
    cause = error instanceof Error ? error.message : String(error)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TesseraError('store_error', `stored trace event ${where.session}#${where.seq} does not parse; run trace verify`, {
      ...where,
      expected: 'canonical JSON of a trace event',
      found: excerpt(body),
      cause,
    })
  }
  const event = parsed as TraceEvent
  event.hash = hash
  return event
}

/**
 * Walks a chain from seq 0 and reports the first link that does not hold (see ChainWalker for
 * the checks and their order).
 */
export async function verifyEvents(
  events: AsyncIterable<StoredEvent> | Iterable<StoredEvent>,
  options: VerifyOptions = {},
): Promise<ChainVerification> {
  const walker = new ChainWalker(options, deepBodyProblem)
  if (Symbol.iterator in events) {
    // A plain loop: awaiting every element of an in-memory chain would cost more than hashing it.
    for (const stored of events) if (!walker.accept(stored)) break
  } else {
    for await (const stored of events) if (!walker.accept(stored)) break
  }
  return walker.result()
}

/** The full-parse check of deep verification (VerifyOptions.deep). */
export function deepBodyProblem(stored: StoredEvent, sessionField: string | null): string | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(stored.body)
  } catch {
    return 'a JSON object'
  }
  const event = TraceEvent.safeParse({ ...(parsed as object), hash: stored.hash })
  if (!event.success) return `a trace event (${event.error.issues[0]?.message ?? 'invalid'})`
  if (event.data.seq !== stored.seq) return `a body whose seq is ${stored.seq}`
  if (event.data.prevHash !== stored.prevHash) return `a body whose prevHash is ${stored.prevHash}`
  if (sessionField !== null && `"session":${JSON.stringify(event.data.session)},` !== sessionField) {
    return `a body whose session is ${sessionField.slice(10, -1)}`
  }
  if (canonicalJson(parsed) !== stored.body) return 'a body in canonical form'
  return null
}
