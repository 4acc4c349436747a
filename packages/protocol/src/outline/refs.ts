import type { Frame } from '../schemas/frame.js'
import { frameIndex } from '../frame/frame-index.js'

/**
 * Refs are the handles an agent copies out of an outline and passes back (`@12`, `@n1k2`).
 *
 * A node id a tile's node ledger issued (a decimal counter for an element, `t` + one for a
 * text) is its own ref: the ledger binds it to one node for the tile's life and never gives it
 * to another, and ` @12` costs an agent two tokens where ` @e12` costs three and a hashed ref
 * five (o200k splits random base-36 badly). Frames recorded before ledger ids lost their `e`
 * keep it (`e12`), and either spelling names the node: an agent used to Playwright MCP's
 * `e12` finds `@12`.
 *
 * Every other node id (a path, a row key) is hashed rather than numbered, so the same node
 * keeps its ref from one frame to the next and an agent's ref survives small changes
 * elsewhere in the UI.
 *
 * A hashed ref is `n` + the first 4 digits of a node's 12-digit base-36 digest. Four digits
 * (1.7 million values) keep refs short while collisions stay rare: in a
 * 500-node frame the chance that any two nodes share the first four digits is about 7 %.
 *
 * Collisions: when several nodes of one frame share a prefix, every one of them gets
 * its shortest unique prefix (at least 5 digits) — none keeps the short form. So a
 * 4-digit ref can never silently re-target: it names exactly the node whose digest
 * starts with it, or nothing. Digits 1–6 come from a 32-bit FNV-1a hash of the node id,
 * digits 7–12 from a second FNV-1a pass with another offset basis, so two distinct ids
 * need to agree on ~62 bits before prefixes run out; if they ever do, the digests tie
 * and the tied nodes get `.1`, `.2`, … in node-id order.
 *
 * A ref is only meaningful within one frame's table: resolve it against the frame the
 * agent saw, then act on the node id, which is the stable identity.
 */

const REF_PREFIX = 'n'
/** The shape of a node ledger's ids (`12`, `t7`; `e12` in older frames); a hashed ref always starts with `n`, so the two never meet. */
const LEDGER_ID = /^[et]?[1-9][0-9]*$/
/** An element's number with or without its old `e`: the other spelling of the same ledger id. */
const ELEMENT_NUMBER = /^e?([1-9][0-9]*)$/
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'
const MIN_DIGITS = 4
const DIGITS_PER_HASH = 6
const FNV_PRIME = 0x01000193
const FNV_OFFSET = 0x811c9dc5
// Any other offset basis gives an independent-enough second hash for tie-breaking.
const FNV_OFFSET_SECOND = 0x050c5d1f

function fnv1a32(text: string, offset: number): number {
  let hash = offset
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, FNV_PRIME) >>> 0
  }
  return hash >>> 0
}

/** Least significant digits first: those are uniform, whereas the top base-36 digit of a 32-bit number is only ever 0 or 1. */
function base36Digits(hash: number, count: number): string {
  let out = ''
  let rest = hash
  for (let i = 0; i < count; i++) {
    out += BASE36[rest % 36]
    rest = Math.floor(rest / 36)
  }
  return out
}

/** The 12-digit digest every ref of this node id is a prefix of. */
function digestOf(nodeId: string): string {
  return base36Digits(fnv1a32(nodeId, FNV_OFFSET), DIGITS_PER_HASH) + base36Digits(fnv1a32(nodeId, FNV_OFFSET_SECOND), DIGITS_PER_HASH)
}

/** The first digits of the digest, without building the rest: most nodes never need more. */
function shortDigest(nodeId: string): string {
  return base36Digits(fnv1a32(nodeId, FNV_OFFSET), MIN_DIGITS)
}

/** Whether a text has the shape of a ref (`12`, `e12`, `t7`, `n1k2`, `n1k2a.1`), with or without the `@` outlines print: a ref, not a selector or a name. */
export function isRef(text: string): boolean {
  return /^@?(?:n[0-9a-z]{4,12}(?:\.\d+)?|[et]?[1-9][0-9]*)$/.test(text)
}

/** The node ledger's id a ref names, as a live tile's ledger spells it (`@e12` → `12`, `t7`), or undefined for any other ref. */
export function ledgerIdOf(ref: string): string | undefined {
  const bare = ref.startsWith('@') ? ref.slice(1) : ref
  if (/^t[1-9][0-9]*$/.test(bare)) return bare
  return ELEMENT_NUMBER.exec(bare)?.[1]
}

/** The preferred ref of a node id; its ref in a frame is this unless another node of that frame collides with it. */
export function refFor(nodeId: string): string {
  return LEDGER_ID.test(nodeId) ? nodeId : REF_PREFIX + shortDigest(nodeId)
}

function commonPrefixLength(a: string, b: string): number {
  let n = 0
  while (n < a.length && n < b.length && a[n] === b[n]) n++
  return n
}

/** Ref ↔ node id for one frame. Build it with `RefTable.forFrame` or from the node ids directly. */
export class RefTable {
  readonly #nodeByRef = new Map<string, string>()
  readonly #refByNode = new Map<string, string>()

  /** Every node of the tree: a ref then depends on the frame alone, not on outline options. Built once per frame. */
  static forFrame(frame: Frame): RefTable {
    return frameIndex(frame).refs
  }

  constructor(nodeIds: Iterable<string>) {
    // Short digest → the one node id that has it, or all of them when several do.
    const groups = new Map<string, string | string[]>()
    for (const id of nodeIds) {
      if (this.#refByNode.has(id)) continue
      // Reserves the node's place, so entries() keeps the order the ids came in.
      this.#refByNode.set(id, '')
      if (LEDGER_ID.test(id)) {
        this.#assign(id, id)
        continue
      }
      const key = shortDigest(id)
      const group = groups.get(key)
      if (group === undefined) groups.set(key, id)
      else if (typeof group === 'string') groups.set(key, [group, id])
      else group.push(id)
    }
    for (const [key, group] of groups) {
      if (typeof group === 'string') this.#assign(group, REF_PREFIX + key)
      else this.#assignCollidingGroup(group.map((id) => ({ id, digest: digestOf(id) })))
    }
  }

  #assignCollidingGroup(group: Array<{ id: string; digest: string }>): void {
    // Sorted by node id so tied digests are numbered the same way whatever the tree order.
    const sorted = [...group].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    const tieCounts = new Map<string, number>()
    for (const member of sorted) {
      let digits = MIN_DIGITS + 1
      let tied = false
      for (const other of sorted) {
        if (other === member) continue
        const shared = commonPrefixLength(member.digest, other.digest)
        if (shared === member.digest.length) tied = true
        else digits = Math.max(digits, shared + 1)
      }
      let ref = REF_PREFIX + member.digest.slice(0, tied ? member.digest.length : digits)
      if (tied) {
        const n = (tieCounts.get(member.digest) ?? 0) + 1
        tieCounts.set(member.digest, n)
        ref += `.${n}`
      }
      this.#assign(member.id, ref)
    }
  }

  #assign(nodeId: string, ref: string): void {
    this.#nodeByRef.set(ref, nodeId)
    this.#refByNode.set(nodeId, ref)
  }

  /** The node id a ref names, or undefined; a leading `@`, as printed in outlines, is accepted. */
  resolve(ref: string): string | undefined {
    const bare = ref.startsWith('@') ? ref.slice(1) : ref
    const found = this.#nodeByRef.get(bare)
    if (found !== undefined) return found
    const number = ELEMENT_NUMBER.exec(bare)?.[1]
    if (number === undefined) return undefined
    return this.#nodeByRef.get(bare === number ? `e${number}` : number)
  }

  /** The ref of a node id in this frame, or undefined if the frame has no such node. */
  refOf(nodeId: string): string | undefined {
    return this.#refByNode.get(nodeId)
  }

  get size(): number {
    return this.#nodeByRef.size
  }

  /** [ref, nodeId] pairs in the order the nodes were given. */
  entries(): Array<[ref: string, nodeId: string]> {
    return [...this.#refByNode].map(([nodeId, ref]) => [ref, nodeId])
  }
}
