import { type Frame, type Surface, TesseraError, type UnreadRequest, withVersion } from '@tessera/protocol'
import { redactFrame } from '../redaction/redact-frame.js'
import { FrameHistory } from './frame-history.js'

/** Why a reader got notified: a new frame is at hand, or the old one is no longer true. */
export type FrameEvent = { kind: 'frame'; surface: string; frame: Frame } | { kind: 'changed'; surface: string }

interface Entry {
  surface: Surface
  frame: Frame | null
  /** Bumped by every invalidation: a snapshot begun before one must not be stored after it. */
  generation: number
  inFlight: { generation: number; promise: Promise<Frame> } | null
  version: number
  history: FrameHistory
  unsubscribe: (() => void) | null
}

export interface FrameCacheOptions {
  /** Frames remembered per surface, by id, so a request made on an older frame can be judged per target. */
  history?: number
}

/**
 * The one read path to a surface's frames: one cached, redacted frame per surface, shared
 * by the gateway, every MCP session and every console client. Concurrent readers share one
 * snapshot in flight; a surface's own change notice or a finished action invalidates it.
 * Every new frame gets the next `version` of its surface.
 */
export class FrameCache {
  readonly #entries = new Map<string, Entry>()
  readonly #listeners = new Set<(event: FrameEvent) => void>()
  readonly #historySize: number
  /** Snapshots taken, per surface id: what the cache exists to keep small. */
  readonly snapshots = new Map<string, number>()

  constructor(options: FrameCacheOptions = {}) {
    this.#historySize = options.history ?? 64
  }

  attach(surface: Surface): void {
    if (this.#entries.has(surface.id)) throw new TesseraError('conflict', `a surface with id "${surface.id}" is already attached`, { found: surface.id })
    const entry: Entry = { surface, frame: null, generation: 0, inFlight: null, version: 0, history: new FrameHistory(this.#historySize), unsubscribe: null }
    this.#entries.set(surface.id, entry)
    if (surface.subscribe) entry.unsubscribe = surface.subscribe((frame) => (frame === undefined ? this.invalidate(surface.id) : this.accept(surface.id, frame)))
  }

  detach(id: string): void {
    const entry = this.#entries.get(id)
    entry?.unsubscribe?.()
    this.#entries.delete(id)
  }

  has(id: string): boolean {
    return this.#entries.has(id)
  }

  /** The surface's current frame: the cached one, the one being taken, or a new snapshot. */
  async current(id: string): Promise<Frame> {
    const entry = this.#entry(id)
    if (entry.frame !== null) return entry.frame
    if (entry.inFlight !== null && entry.inFlight.generation === entry.generation) return entry.inFlight.promise
    const generation = entry.generation
    const promise = this.#take(entry, generation)
    entry.inFlight = { generation, promise }
    const clear = (): void => {
      if (entry.inFlight?.promise === promise) entry.inFlight = null
    }
    promise.then(clear, clear)
    return promise
  }

  /**
   * The surface's frame with these unread parts read (a huge page's folded regions): a new
   * snapshot when the surface had anything to read, else the current frame.
   */
  async readUnread(id: string, request: UnreadRequest): Promise<Frame> {
    const entry = this.#entry(id)
    if (entry.surface.readUnread?.(request) === true) this.invalidate(id)
    return this.current(id)
  }

  /** The cached frame, without taking a snapshot. */
  peek(id: string): Frame | undefined {
    return this.#entries.get(id)?.frame ?? undefined
  }

  /** The surface changed: the next reader takes a new snapshot. */
  invalidate(id: string): void {
    const entry = this.#entries.get(id)
    if (entry === undefined) return
    entry.generation++
    entry.frame = null
    this.#emit({ kind: 'changed', surface: id })
  }

  /** A frame the surface pushed (or a host built): it becomes the current one. */
  accept(id: string, frame: Frame): Frame {
    const entry = this.#entry(id)
    entry.generation++
    return this.#store(entry, redactFrame(frame))
  }

  /** The newest frame seen, even one already invalidated: what a surface offered last, for decisions that need no fresh view. */
  latest(id: string): Frame | undefined {
    const entry = this.#entries.get(id)
    return entry?.frame ?? entry?.history.newest()
  }

  /** A frame of this surface seen recently, by full id or a prefix of at least 12 digits. */
  recall(id: string, frameId: string): Frame | undefined {
    return this.#entries.get(id)?.history.find(frameId)
  }

  /** The generation of a surface's cache: compare before and after work to learn whether a new frame arrived. */
  generation(id: string): number {
    return this.#entries.get(id)?.generation ?? 0
  }

  onEvent(listener: (event: FrameEvent) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  async #take(entry: Entry, generation: number): Promise<Frame> {
    this.snapshots.set(entry.surface.id, (this.snapshots.get(entry.surface.id) ?? 0) + 1)
    const frame = redactFrame(await entry.surface.snapshot())
    // Invalidated while the snapshot ran: the answer may already be old, so it is handed to
    // the readers who asked for it but not kept for the next one.
    if (entry.generation !== generation || !this.#entries.has(entry.surface.id)) return withVersion(frame, ++entry.version)
    return this.#store(entry, frame)
  }

  #store(entry: Entry, frame: Frame): Frame {
    if (entry.frame !== null && entry.frame.id === frame.id && sameLayout(entry.frame, frame)) return entry.frame
    entry.version++
    const stamped = withVersion(frame, entry.version)
    entry.frame = stamped
    entry.history.add(stamped)
    this.#emit({ kind: 'frame', surface: entry.surface.id, frame: stamped })
    return stamped
  }

  #emit(event: FrameEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event)
      } catch {
        // One broken reader must not keep the others (or the action) from their frames.
      }
    }
  }

  #entry(id: string): Entry {
    const entry = this.#entries.get(id)
    if (entry === undefined) throw new TesseraError('not_found', `no surface "${id}" is attached`, { expected: [...this.#entries.keys()], found: id })
    return entry
  }
}

/** Same meaning can come with new geometry; readers who draw need that frame too. */
function sameLayout(a: Frame, b: Frame): boolean {
  return a.layout === b.layout || JSON.stringify(a.layout) === JSON.stringify(b.layout)
}
