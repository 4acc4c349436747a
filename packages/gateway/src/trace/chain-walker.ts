import * as crypto from 'node:crypto'

/*
 * The check of a chain, link by link, with nothing but node:crypto underneath: verification
 * workers load this file, and loading the protocol package (zod and all) would cost a worker
 * more than verifying tens of thousands of links. hash-chain.ts builds on it.
 */

/** protocol's GENESIS_HASH, the prevHash of every seq 0 (a test holds the two equal). */
export const GENESIS_HASH = '0'.repeat(64)

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

/** The full-parse check of `deep` verification: what the body should have been, or null. */
export type DeepBodyCheck = (stored: StoredEvent, sessionField: string | null) => string | null

/** sha256(prevHash ‖ body): what a link's hash must be. */
export function linkHash(prevHash: string, body: string): string {
  return sha256OfText(prevHash + body)
}

/**
 * SHA-256 of the UTF-8 text, hex (protocol's sha256Hex). Node's one-shot crypto.hash (20.12+)
 * costs about half of createHash on texts this size, and hashing is most of what verification
 * spends per event. Imported as a namespace: a named import of `hash` fails to link on older 20.x.
 */
export const sha256OfText: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex')

/** Where a walk starts: seq 0 after GENESIS_HASH, or the middle of a chain. */
export interface WalkStart {
  seq: number
  /** The hash of link seq - 1; null when not known here (a later check compares firstPrevHash). */
  prevHash: string | null
}

/**
 * Walks links in seq order and stops at the first that does not hold. For link k the checks
 * run in this order, so any single tampered byte is named at k itself:
 *   seq === k                                  else seq_gap
 *   prevHash === hash of link k-1 (or GENESIS) else prev_hash_mismatch
 *   sha256(prevHash ‖ body) === hash           else hash_mismatch
 *   body is the event of this link             else unparseable
 */
export class ChainWalker {
  private expectedSeq: number
  private expectedPrevHash: string | null
  private broken: BrokenLink | null = null
  private readonly sessionField: string | null
  private readonly deepCheck: DeepBodyCheck | null
  /** For a walk started without the hash before it: the first link's prevHash, once its seq held. */
  firstPrevHash: string | null = null
  /** The hash of the last link that held; null before the first. */
  lastHash: string | null = null

  constructor(options: VerifyOptions, deepCheck: DeepBodyCheck | null, start: WalkStart = { seq: 0, prevHash: GENESIS_HASH }) {
    if (options.deep === true && deepCheck === null) throw new Error('deep verification needs a deep body check')
    this.sessionField = options.session === undefined ? null : `"session":${JSON.stringify(options.session)},`
    this.deepCheck = options.deep === true ? deepCheck : null
    this.expectedSeq = start.seq
    this.expectedPrevHash = start.prevHash
  }

  /** The seq the next link must have: the count of links before it that held. */
  get nextSeq(): number {
    return this.expectedSeq
  }

  get firstBroken(): BrokenLink | null {
    return this.broken
  }

  /** Returns false once the chain is broken; the caller stops feeding links. */
  accept(stored: StoredEvent): boolean {
    return this.acceptLink(stored.seq, stored.prevHash, stored.hash, stored.body)
  }

  /** accept() for a link's fields as a store reads them, without an object per link. */
  acceptLink(seq: number, prevHash: string, hash: string, body: string): boolean {
    const broken = this.check(seq, prevHash, hash, body)
    if (broken !== null) {
      this.broken = broken
      return false
    }
    this.expectedSeq += 1
    this.expectedPrevHash = hash
    this.lastHash = hash
    return true
  }

  result(): ChainVerification {
    if (this.broken !== null) return { ok: false, count: this.expectedSeq, firstBroken: this.broken }
    return { ok: true, count: this.expectedSeq, headHash: this.expectedPrevHash ?? GENESIS_HASH }
  }

  private check(seq: number, prevHash: string, hash: string, body: string): BrokenLink | null {
    const expectedSeq = this.expectedSeq
    if (seq !== expectedSeq) {
      return { seq: expectedSeq, reason: 'seq_gap', expected: String(expectedSeq), found: String(seq) }
    }
    if (this.expectedPrevHash === null) {
      // The first link of a walk that starts mid-chain: its prevHash is held against the hash
      // before it by whoever knows that hash, before any later finding at this seq counts.
      this.firstPrevHash = prevHash
    } else if (prevHash !== this.expectedPrevHash) {
      return { seq, reason: 'prev_hash_mismatch', expected: this.expectedPrevHash, found: prevHash }
    }
    const recomputed = linkHash(prevHash, body)
    if (recomputed !== hash) {
      return { seq, reason: 'hash_mismatch', expected: recomputed, found: hash }
    }
    const problem =
      this.deepCheck !== null ? this.deepCheck({ seq, prevHash, hash, body }, this.sessionField) : this.bodyProblem(seq, prevHash, body)
    if (problem !== null) {
      return { seq, reason: 'unparseable', expected: problem, found: excerpt(body) }
    }
    return null
  }

  /**
   * Canonical JSON sorts keys, so every top-level key after `data` (frameId, prevHash,
   * requestId, seq, session, …) appears after all of data's text, and a key pattern such as
   * `"seq":` cannot occur inside a later string value (its quotes would be escaped). The last
   * occurrence of each pattern is therefore the top-level field.
   */
  private bodyProblem(seq: number, prevHash: string, body: string): string | null {
    if (body.charCodeAt(0) !== 0x7b || body.charCodeAt(body.length - 1) !== 0x7d) {
      return 'a JSON object'
    }
    // `"seq":` comes after `"prevHash":"`, so the second search can start from the first hit.
    const seqAt = body.lastIndexOf('"seq":')
    const prevAt = seqAt < 0 ? -1 : body.lastIndexOf('"prevHash":"', seqAt)
    if (prevAt < 0 || !body.startsWith(prevHash, prevAt + 12) || body.charCodeAt(prevAt + 76) !== 0x22) {
      return `a body whose prevHash is ${prevHash}`
    }
    const seqDigits = String(seq)
    const afterSeq = seqAt + 6 + seqDigits.length
    if (!body.startsWith(seqDigits, seqAt + 6) || body.charCodeAt(afterSeq) !== 0x2c) {
      return `a body whose seq is ${seq}`
    }
    if (this.sessionField !== null && !body.startsWith(this.sessionField, afterSeq + 1)) {
      return `a body whose session is ${this.sessionField.slice(10, -1)}`
    }
    return null
  }
}

export function excerpt(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text
}
