import { TerminalSurface } from '@tessera/surface-terminal'
import { describe, expect, it } from 'vitest'

// The proof: a program that runs for two minutes, read incrementally while it runs.
// It runs beside the rest of the suite (the "waiting" project in vitest.config.ts), so it costs wall-clock time, not CPU.
describe('a two-minute program read incrementally on a real PTY', () => {
  it('every line arrives exactly once, in order, across reads by offset', { timeout: 180_000 }, async () => {
    const terminal = await TerminalSurface.create({ id: 'long' })
    try {
      const started = await terminal.session.start('for i in $(seq 1 120); do echo "tick $i"; sleep 1; done')
      let offset = started.offset
      let text = ''
      let reads = 0
      const deadline = Date.now() + 170_000
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5_000))
        const chunk = terminal.session.read({ since: offset })
        text += chunk.text
        offset = chunk.next_offset
        reads += 1
        expect(chunk.dropped).toBe(0)
        if (text.includes('tick 120\n') || text.includes('tick 120\r')) break
      }
      const ticks = text.split(/\r?\n/).filter((line) => /^tick \d+$/.test(line)).map((line) => Number(line.slice(5)))
      expect(ticks).toEqual(Array.from({ length: 120 }, (_, i) => i + 1))
      expect(reads).toBeGreaterThanOrEqual(20)
    } finally {
      await terminal.close()
    }
  })
})
