import { describe, expect, it } from 'vitest'
import { SerialQueue } from './serial-queue.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('SerialQueue', () => {
  it('never overlaps two tasks on one key, and runs different keys side by side', async () => {
    const queue = new SerialQueue()
    const log: string[] = []
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`)
      await sleep(ms)
      log.push(`end ${name}`)
      return name
    }
    const results = await Promise.all([queue.run('a', 1000, task('a1', 30)), queue.run('a', 1000, task('a2', 5)), queue.run('b', 1000, task('b1', 5))])
    expect(results.map((r) => r.kind)).toEqual(['done', 'done', 'done'])
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'))
    expect(log.indexOf('end b1')).toBeLessThan(log.indexOf('end a1'))
  })

  it('reports a timeout at the deadline, aborts the signal, and holds the key until the task settles', async () => {
    const queue = new SerialQueue()
    let aborted = false
    let slowEnded = 0
    const slow = queue.run('k', 20, async (signal) => {
      signal.addEventListener('abort', () => (aborted = true))
      await sleep(80)
      slowEnded = Date.now()
    })
    const next = queue.run('k', 1000, async () => Date.now())
    expect((await slow).kind).toBe('timed_out')
    expect(aborted).toBe(true)
    const after = await next
    expect(after.kind).toBe('done')
    expect(after.kind === 'done' && after.value >= slowEnded).toBe(true)
  })

  it('turns a synchronous throw into a failed outcome and keeps serving', async () => {
    const queue = new SerialQueue()
    const failed = await queue.run('k', 100, () => {
      throw new Error('boom')
    })
    expect(failed).toMatchObject({ kind: 'failed' })
    expect(await queue.run('k', 100, async () => 1)).toEqual({ kind: 'done', value: 1 })
  })
})
