// Small helpers shared by the benchmarks: timing, percentiles, formatting.
import { performance } from 'node:perf_hooks'

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index]
}

/** Runs `fn` `iterations` times after `warmup` runs; returns per-call ms, sorted. */
export async function sample(fn, { iterations, warmup = Math.ceil(iterations / 10) }) {
  for (let i = 0; i < warmup; i += 1) await fn(i)
  const times = []
  for (let i = 0; i < iterations; i += 1) {
    const start = performance.now()
    await fn(i)
    times.push(performance.now() - start)
  }
  return times.sort((a, b) => a - b)
}

export function fmt(n, digits = 3) {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n)
}

export function now() {
  return performance.now()
}
