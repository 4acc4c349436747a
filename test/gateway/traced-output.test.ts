import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Gateway, openMemoryStore } from '@tessera/gateway'
import type { JsonValue } from '@tessera/protocol'
import { FileSurface } from '@tessera/surface-files'
import { afterAll, describe, expect, it } from 'vitest'
import { agent } from '../support/principals.js'

const root = mkdtempSync(join(tmpdir(), 'tessera-traced-output-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

type Reference = { tracedOutput: { blob: string; chars: number; cut?: { kept: number; of: number; note: string } } }

describe('large outputs in the trace', () => {
  it('a 3 MiB file read twice: the agent gets all of it, the trace keeps one blob cut at the limit and a note, the events a reference', async () => {
    const content = 'x'.repeat(3 * 1024 * 1024)
    writeFileSync(join(root, 'big.txt'), content)
    writeFileSync(join(root, 'small.txt'), 'small')
    const store = openMemoryStore()
    const gateway = new Gateway({ store, session: 'big', tracedOutput: { maxChars: 200_000 } })
    gateway.addSurface(new FileSurface({ id: 'files', roots: [{ name: 'main', path: root }] }))
    for (let i = 0; i < 2; i += 1) {
      const read = await gateway.request({ surface: 'files', action: 'read', input: { path: '/big.txt', max_bytes: content.length } }, agent)
      expect(read.status).toBe('completed')
      expect((read.output as { content: string }).content).toHaveLength(content.length)
    }
    expect((await gateway.request({ surface: 'files', action: 'read', input: { path: '/small.txt' } }, agent)).status).toBe('completed')
    const completed: Array<{ output: JsonValue }> = []
    for await (const event of store.read('big')) if (event.type === 'completed') completed.push(event.data as { output: JsonValue })
    const [first, second, small] = completed
    const reference = (first?.output as Reference).tracedOutput
    expect(reference.chars).toBeGreaterThan(content.length)
    expect(reference.cut).toMatchObject({ kept: 200_000, of: reference.chars, note: expect.stringContaining('the agent got all of it') })
    // The same output, stored once.
    expect((second?.output as Reference).tracedOutput.blob).toBe(reference.blob)
    expect((await store.getBlob(reference.blob))?.length).toBe(200_000)
    // A small output stays inline.
    expect(small?.output).toMatchObject({ content: 'small' })
    // Nothing the trace holds is near the size of what was read.
    let traced = 0
    for await (const event of store.read('big')) traced += JSON.stringify(event).length
    expect(traced).toBeLessThan(content.length / 4)
  })
})
