import { TesseraError } from '@tessera/protocol'

export type TimedOutcome<T> = { kind: 'done'; value: T } | { kind: 'failed'; error: unknown } | { kind: 'timed_out' }

export interface Slot {
  /** Keeps the slot taken until `work` settles, even after the task itself returned. */
  hold(work: Promise<unknown>): void
}

/**
 * Runs `task` with a deadline. A task that misses it is reported as timed out at once and
 * signalled to abort; `settled` still waits for the task itself to end.
 */
export function withDeadline<T>(timeoutMs: number, task: (signal: AbortSignal) => Promise<T>): { outcome: Promise<TimedOutcome<T>>; settled: Promise<void> } {
  const controller = new AbortController()
  let running: Promise<T>
  try {
    running = task(controller.signal)
  } catch (error) {
    running = Promise.reject(error)
  }
  const settled = running.then(
    () => undefined,
    () => undefined,
  )
  const outcome = new Promise<TimedOutcome<T>>((resolve) => {
    const timer = setTimeout(() => {
      controller.abort(new TesseraError('timed_out', `expected the action to finish within ${timeoutMs} ms`))
      resolve({ kind: 'timed_out' })
    }, timeoutMs)
    running.then(
      (value) => {
        clearTimeout(timer)
        resolve({ kind: 'done', value })
      },
      (error: unknown) => {
        clearTimeout(timer)
        resolve({ kind: 'failed', error })
      },
    )
  })
  return { outcome, settled }
}

/**
 * One holder at a time per key (a surface): the frame a request is checked against, the
 * effect, and the next frame all happen inside one slot, so no other request can change
 * the surface in between. A slot is released when its task returns and everything it
 * holds has settled — a timed-out effect still blocks the next one until it really ends.
 */
export class SerialQueue {
  readonly #tails = new Map<string, Promise<void>>()
  /** Tasks per key not yet settled, the running one included. */
  readonly #depths = new Map<string, number>()

  /** How many tasks wait or run, per key that has any: what a metrics scrape shows as queue depth. */
  depths(): ReadonlyMap<string, number> {
    return this.#depths
  }

  exclusive<T>(key: string, task: (slot: Slot) => Promise<T>): Promise<T> {
    this.#depths.set(key, (this.#depths.get(key) ?? 0) + 1)
    const previous = this.#tails.get(key) ?? Promise.resolve()
    const held: Promise<unknown>[] = []
    const result = previous.then(() => task({ hold: (work) => held.push(work) }))
    const tail = result
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => Promise.allSettled(held))
      .then(() => undefined)
    this.#tails.set(key, tail)
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
      const left = (this.#depths.get(key) ?? 1) - 1
      if (left > 0) this.#depths.set(key, left)
      else this.#depths.delete(key)
    })
    return result
  }

  /** A single task with a deadline, in its own slot. */
  run<T>(key: string, timeoutMs: number, task: (signal: AbortSignal) => Promise<T>): Promise<TimedOutcome<T>> {
    return this.exclusive(key, async (slot) => {
      const { outcome, settled } = withDeadline(timeoutMs, task)
      slot.hold(settled)
      return outcome
    })
  }

  /** Resolves when every queued task has settled (used on shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.#tails.values()])
  }
}
