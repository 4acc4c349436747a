import type { Frame } from '@tessera/protocol'

/** The last frames of one surface by id, oldest forgotten first. */
export class FrameHistory {
  readonly #frames = new Map<string, Frame>()
  readonly #size: number

  constructor(size: number) {
    this.#size = Math.max(1, size)
  }

  add(frame: Frame): void {
    this.#frames.delete(frame.id)
    this.#frames.set(frame.id, frame)
    if (this.#frames.size > this.#size) {
      const oldest = this.#frames.keys().next()
      if (oldest.done !== true) this.#frames.delete(oldest.value)
    }
  }

  newest(): Frame | undefined {
    let last: Frame | undefined
    for (const frame of this.#frames.values()) last = frame
    return last
  }

  /** By full id, or by a prefix of at least 12 hex digits (what outlines print). */
  find(idOrPrefix: string): Frame | undefined {
    const wanted = idOrPrefix.toLowerCase()
    const exact = this.#frames.get(wanted)
    if (exact !== undefined || wanted.length < 12) return exact
    let found: Frame | undefined
    for (const [id, frame] of this.#frames) if (id.startsWith(wanted)) found = frame
    return found
  }
}
