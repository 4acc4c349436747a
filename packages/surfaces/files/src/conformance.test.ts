import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ScriptStep, checkConformance } from '@tessera/gateway'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileSurface, createFileSurface } from './file-surface.js'

let base: string
let template: string
let copies = 0

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tessera-files-conformance-')))
  template = join(base, 'template')
  mkdirSync(join(template, 'src'), { recursive: true })
  writeFileSync(join(template, 'src', 'index.ts'), 'export const answer = 41\n')
  writeFileSync(join(template, 'README.md'), '# demo\n')
})

afterAll(() => {
  rmSync(base, { recursive: true, force: true })
})

/** Every instance gets its own copy of the same tree, as a replay on a fresh machine would. */
async function freshSurface(): Promise<FileSurface> {
  const root = join(base, `copy-${copies++}`)
  cpSync(template, root, { recursive: true })
  return createFileSurface({ roots: [{ name: 'demo', path: root }] })
}

const script: ScriptStep[] = [
  { action: 'list', input: {} },
  { action: 'navigate', input: { path: 'src' } },
  { action: 'find', input: { pattern: '*.ts' } },
  { action: 'read', input: { path: 'src/index.ts' } },
  { action: 'edit', input: { path: 'src/index.ts', old_text: '41', new_text: '42' } },
  { action: 'write', input: { path: 'src/new.ts', content: 'export {}\n' } },
]

describe('the gateway conformance checklist', () => {
  it('passes every line: stable ids, bounds, confirmation, secrets, replay, no gateway (the surface driven alone)', async () => {
    const report = await checkConformance({
      name: 'files',
      createSurface: freshSurface,
      script,
    })
    expect(report.lines.map((line) => [line.id, line.ok, line.detail])).toEqual(report.lines.map((line) => [line.id, true, line.detail]))
  })
})
