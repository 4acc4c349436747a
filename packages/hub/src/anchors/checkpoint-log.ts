import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { sign, verify, type KeyObject } from 'node:crypto'
import { join } from 'node:path'
import { canonicalJson } from '@tessera/protocol'
import type { CheckpointKey } from './checkpoint-key.js'

export const CHECKPOINT_FILE = 'checkpoints.jsonl'
/** Heads are written in batches at most this far apart: one small append, not one per action. */
const FLUSH_MS = 100

/** A session's head as the hub saw it committed: signed, so no one without the key can write one. */
export interface Checkpoint {
  session: string
  seq: number
  hash: string
  time: string
  sig: string
}

function signed(head: Omit<Checkpoint, 'sig'>): string {
  return canonicalJson({ session: head.session, seq: head.seq, hash: head.hash, time: head.time })
}

/**
 * Anchors the trace outside its store: every committed head (session, seq, hash) is
 * appended, signed with the hub's key, to DATA/checkpoints.jsonl. A chain cut at its tail
 * and given a consistent new head inside the store still verifies on its own; against the
 * checkpoints it does not (anchor-check.ts). Heads are batched for FLUSH_MS, so a hub killed
 * at an unlucky instant may leave its last few events unanchored — never a wrong anchor.
 */
export class CheckpointLog {
  readonly #path: string
  readonly #key: CheckpointKey
  readonly #pending = new Map<string, { seq: number; hash: string }>()
  #timer: NodeJS.Timeout | undefined

  constructor(dataDir: string, key: CheckpointKey) {
    this.#path = join(dataDir, CHECKPOINT_FILE)
    this.#key = key
  }

  /** Notes committed events; the newest per session is written at the next flush. */
  note(events: ReadonlyArray<{ session: string; seq: number; hash: string }>): void {
    for (const event of events) {
      const known = this.#pending.get(event.session)
      if (known === undefined || event.seq > known.seq) this.#pending.set(event.session, { seq: event.seq, hash: event.hash })
    }
    if (this.#pending.size > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), FLUSH_MS)
      this.#timer.unref()
    }
  }

  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#pending.size === 0) return
    const time = new Date().toISOString()
    const lines = [...this.#pending].map(([session, head]) => {
      const body = { session, seq: head.seq, hash: head.hash, time }
      return JSON.stringify({ ...body, sig: sign(null, Buffer.from(signed(body)), this.#key.privateKey).toString('base64') })
    })
    this.#pending.clear()
    appendFileSync(this.#path, `${lines.join('\n')}\n`, { mode: 0o600 })
  }
}

/** What the checkpoint file says, per session its newest validly signed head; lines that do not verify are reported, not used. */
export function readCheckpoints(dataDir: string, publicKey: KeyObject): { latest: Map<string, Checkpoint>; bad: number[] } {
  const latest = new Map<string, Checkpoint>()
  const bad: number[] = []
  const path = join(dataDir, CHECKPOINT_FILE)
  if (!existsSync(path)) return { latest, bad }
  const lines = readFileSync(path, 'utf8').split('\n')
  lines.forEach((line, index) => {
    if (line.trim().length === 0) return
    let checkpoint: Checkpoint
    try {
      checkpoint = JSON.parse(line) as Checkpoint
      const ok =
        typeof checkpoint.session === 'string' && Number.isInteger(checkpoint.seq) && typeof checkpoint.hash === 'string' && typeof checkpoint.sig === 'string' &&
        verify(null, Buffer.from(signed(checkpoint)), publicKey, Buffer.from(checkpoint.sig, 'base64'))
      if (!ok) throw new Error('bad signature')
    } catch {
      bad.push(index + 1)
      return
    }
    const known = latest.get(checkpoint.session)
    if (known === undefined || checkpoint.seq >= known.seq) latest.set(checkpoint.session, checkpoint)
  })
  return { latest, bad }
}
