import * as crypto from 'node:crypto'
import {
  GENESIS_HASH,
  TesseraError,
  TraceEvent,
  canonicalJson,
  sha256Hex,
  type TraceEventDraft,
} from '@tessera/protocol'
import { bodyText, canonicalDataJson, draftText, type DraftText } from './canonical-body.js'

/**
 * One link as a store keeps it. `body` is the canonical JSON (RFC 8785) of the event without
 * `hash` — the exact text the hash covers — and is the source of truth: readers parse it,
 * verification hashes it as stored and never re-canonicalizes.
 */
export interface StoredEvent {
  seq: number
  prevHash: string
  hash: string
  body: string
}

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

/** sha256(prevHash ‖ body): what a link's hash must be. */
export function linkHash(prevHash: string, body: string): string {
  return sha256OfText(prevHash + body)
}

/**
 * protocol's sha256Hex (SHA-256 of the UTF-8 text, hex). Node's one-shot crypto.hash (20.12+)
 * costs about half of createHash on texts this size, and hashing is most of what verification
 * spends per event. Imported as a namespace: a named import of `hash` fails to link on older 20.x.
 */
const sha256OfText: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : sha256Hex

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

export type BrokenLinkReason = 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap' | 'unparseable'

/** The first link that does not hold, named by the seq it sits at. */
export interface BrokenLink {
  seq: number
  reason: BrokenLinkReason
  expected: string
  found: string
}

export type ChainVerification =
  | { ok: true; count: number; headHash: string }
  /** `count` is the number of intact links before the broken one. */
  | { ok: false; count: number; firstBroken: BrokenLink }

export interface VerifyOptions {
  /** Also require each body to name this session (catches a chain copied under another name). */
  session?: string
  /**
   * Parse every body in full, validate it as a TraceEvent and require canonical form. The
   * default finds the fields that tie a body to its row (seq, prevHash, session) by position
   * in the canonical text, at a fraction of the hash's cost; a full parse costs more than the
   * hash itself. The hash already proves the body is the one written, so the default suffices
   * unless the writer itself is in doubt.
   */
  deep?: boolean
}

/**
 * Walks a chain from seq 0 and reports the first link that does not hold. For link k the
 * checks run in this order, so any single tampered byte is named at k itself:
 *   seq === k                                  else seq_gap
 *   prevHash === hash of link k-1 (or GENESIS) else prev_hash_mismatch
 *   sha256(prevHash ‖ body) === hash           else hash_mismatch
 *   body is the event of this link             else unparseable
 */
export async function verifyEvents(
  events: AsyncIterable<StoredEvent> | Iterable<StoredEvent>,
  options: VerifyOptions = {},
): Promise<ChainVerification> {
  const walker = new ChainWalker(options)
  if (Symbol.iterator in events) {
    // A plain loop: awaiting every element of an in-memory chain would cost more than hashing it.
    for (const stored of events) if (!walker.accept(stored)) break
  } else {
    for await (const stored of events) if (!walker.accept(stored)) break
  }
  return walker.result()
}

class ChainWalker {
  private expectedSeq = 0
  private expectedPrevHash = GENESIS_HASH
  private broken: BrokenLink | null = null
  private readonly sessionField: string | null
  private readonly deep: boolean

  constructor(options: VerifyOptions) {
    this.sessionField = options.session === undefined ? null : `"session":${JSON.stringify(options.session)},`
    this.deep = options.deep ?? false
  }

  /** Returns false once the chain is broken; the caller stops feeding links. */
  accept(stored: StoredEvent): boolean {
    this.broken = this.check(stored)
    if (this.broken !== null) return false
    this.expectedSeq += 1
    this.expectedPrevHash = stored.hash
    return true
  }

  result(): ChainVerification {
    if (this.broken !== null) return { ok: false, count: this.expectedSeq, firstBroken: this.broken }
    return { ok: true, count: this.expectedSeq, headHash: this.expectedPrevHash }
  }

  private check(stored: StoredEvent): BrokenLink | null {
    const seq = this.expectedSeq
    if (stored.seq !== seq) {
      return { seq, reason: 'seq_gap', expected: String(seq), found: String(stored.seq) }
    }
    if (stored.prevHash !== this.expectedPrevHash) {
      return { seq, reason: 'prev_hash_mismatch', expected: this.expectedPrevHash, found: stored.prevHash }
    }
    const recomputed = linkHash(stored.prevHash, stored.body)
    if (recomputed !== stored.hash) {
      return { seq, reason: 'hash_mismatch', expected: recomputed, found: stored.hash }
    }
    const problem = this.deep ? deepBodyProblem(stored, this.sessionField) : this.bodyProblem(stored)
    if (problem !== null) {
      return { seq, reason: 'unparseable', expected: problem, found: excerpt(stored.body) }
    }
    return null
  }

  /**
   * Canonical JSON sorts keys, so every top-level key after `data` (frameId, prevHash,
   * requestId, seq, session, …) appears after all of data's text, and a key pattern such as
   * `"seq":` cannot occur inside a later string value (its quotes would be escaped). The last
   * occurrence of each pattern is therefore the top-level field.
   */
  private bodyProblem(stored: StoredEvent): string | null {
    const body = stored.body
    if (body.charCodeAt(0) !== 0x7b || body.charCodeAt(body.length - 1) !== 0x7d) {
      return 'a JSON object'
    }
    // `"seq":` comes after `"prevHash":"`, so the second search can start from the first hit.
    const seqAt = body.lastIndexOf('"seq":')
    const prevAt = seqAt < 0 ? -1 : body.lastIndexOf('"prevHash":"', seqAt)
    if (prevAt < 0 || !body.startsWith(stored.prevHash, prevAt + 12) || body.charCodeAt(prevAt + 76) !== 0x22) {
      return `a body whose prevHash is ${stored.prevHash}`
    }
    const seqDigits = String(stored.seq)
    const afterSeq = seqAt + 6 + seqDigits.length
    if (!body.startsWith(seqDigits, seqAt + 6) || body.charCodeAt(afterSeq) !== 0x2c) {
      return `a body whose seq is ${stored.seq}`
    }
    if (this.sessionField !== null && !body.startsWith(this.sessionField, afterSeq + 1)) {
      return `a body whose session is ${this.sessionField.slice(10, -1)}`
    }
    return null
  }
}

function deepBodyProblem(stored: StoredEvent, sessionField: string | null): string | null {
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

function excerpt(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text
}
