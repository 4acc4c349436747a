/** Node timers overflow past 2^31 - 1 ms (about 24.8 days); longer waits are re-armed, so no timeout is silently capped. */
const MAX_TIMER = 2 ** 31 - 1

/** Calls `fn` once after `ms` milliseconds (never for Infinity); returns a cancel function. */
export function longTimeout(ms: number, fn: () => void): () => void {
  if (ms === Number.POSITIVE_INFINITY) return () => {}
  const deadline = performance.now() + ms
  let timer: NodeJS.Timeout | undefined
  let cancelled = false
  const arm = (): void => {
    if (cancelled) return
    const left = deadline - performance.now()
    if (left <= 0) {
      fn()
      return
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER))
  }
  timer = setTimeout(arm, Math.min(Math.max(0, ms), MAX_TIMER))
  return () => {
    cancelled = true
    clearTimeout(timer)
  }
}
