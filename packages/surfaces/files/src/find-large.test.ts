import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFiles } from './find-files.js'
import { type ResolvedRoot, prepareRoots } from './safe-path.js'

// 20 × 20 directories of 50 files: 20,000 files and 420 directories; per directory 13 *.ts
// (f00, f04 … f48), 12 *.md and 12 *.json.
const TOP = 20
const SUB = 20
const FILES = 50
const EXTENSIONS = ['ts', 'js', 'md', 'json'] as const
const TS_PER_DIR = 13
const MD_JSON_PER_DIR = 24

let base: string
let roots: ResolvedRoot[]

/** tmpfs when there is one: creating 20,000 files on a slow disk would dominate the suite. */
function scratchDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK)
    return '/dev/shm'
  } catch {
    return tmpdir()
  }
}

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(scratchDir(), 'tessera-files-large-')))
  const root = join(base, 'root')
  const dirs: string[] = []
  for (let t = 0; t < TOP; t++) {
    for (let s = 0; s < SUB; s++) dirs.push(join(root, `d${String(t).padStart(2, '0')}`, `s${String(s).padStart(2, '0')}`))
  }
  await Promise.all(
    dirs.map(async (dir) => {
      await mkdir(dir, { recursive: true })
      for (let f = 0; f < FILES; f++) await writeFile(join(dir, `f${String(f).padStart(2, '0')}.${EXTENSIONS[f % 4]}`), '')
    }),
  )
  // Decoys that must not be counted: a hidden directory and a link to a directory outside.
  mkdirSync(join(root, '.cache'))
  for (let f = 0; f < 100; f++) writeFileSync(join(root, '.cache', `c${f}.ts`), '')
  mkdirSync(join(base, 'outside'))
  for (let f = 0; f < 100; f++) writeFileSync(join(base, 'outside', `o${f}.ts`), '')
  symlinkSync(join(base, 'outside'), join(root, 'elsewhere'))
  roots = await prepareRoots([{ name: 'big', path: root }])
}, 60_000)

afterAll(() => {
  rmSync(base, { recursive: true, force: true })
})

describe('find over a 20,000-file tree', () => {
  it('finds every *.ts file, and only those, within the budget', async () => {
    const started = performance.now()
    const result = await findFiles(roots, { pattern: '**/*.ts', path: '/', maxResults: 10_000 })
    const elapsed = performance.now() - started
    console.log(`find **/*.ts over ${TOP * SUB * FILES} files: ${elapsed.toFixed(0)} ms, ${result.scanned} entries scanned, ${result.count} matches`)
    expect(result.count).toBe(TOP * SUB * TS_PER_DIR)
    expect(result).toMatchObject({ truncated: false, limits: [], skipped_directories: 0 })
    // Every directory entry was looked at once: 20 + 400 directories, 20,000 files, the decoys' names.
    expect(result.scanned).toBe(TOP + TOP * SUB + TOP * SUB * FILES + 2)
    expect(new Set(result.matches.map((m) => m.path)).size).toBe(result.count)
    expect(result.matches.every((m) => m.path.endsWith('.ts') && m.type === 'file' && !m.path.includes('.cache') && !m.path.includes('elsewhere'))).toBe(true)
    expect(result.matches[0]?.path).toBe('/d00/s00/f00.ts')
    expect(result.matches.at(-1)?.path).toBe('/d19/s19/f48.ts')
    expect(elapsed).toBeLessThan(5_000)
  })

  it('stops at max_results and says so', async () => {
    const result = await findFiles(roots, { pattern: '**', path: '/', maxResults: 10_000 })
    expect(result).toMatchObject({ count: 10_000, truncated: true, limits: ['max_results'] })
  })

  it('prunes directories the pattern cannot match below, and counts exactly', async () => {
    const result = await findFiles(roots, { pattern: 'd0[0-4]/s1?/*.{md,json}', path: '/', maxResults: 10_000 })
    expect(result.count).toBe(5 * 10 * MD_JSON_PER_DIR)
    // Only d00–d04 and their s10–s19 were opened: 20 + 5 × 20 + 50 × 50 entries.
    expect(result.scanned).toBe(TOP + 2 + 5 * SUB + 5 * 10 * FILES)
    expect(result.truncated).toBe(false)
  })

  it('honours max_depth', async () => {
    const result = await findFiles(roots, { pattern: '**/*.ts', path: '/', maxDepth: 2 })
    expect(result).toMatchObject({ count: 0, truncated: true, limits: ['max_depth'] })
  })
})
