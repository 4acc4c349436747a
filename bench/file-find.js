// file_find over a 100,000-file tree: the FileSurface's `find` action (what the
// `file_find` MCP tool runs, without the gateway and transport) against GNU find and a
// plain Node fs.readdir({recursive: true}) + name filter, in the same run, on the same tree.
//
// The tree: 10 × 10 × 10 = 1,000 leaf directories (plus 110 above them) × 100 empty files
// = 100,000 files, named file-<n>.<ext> with n = 0 … 99,999 and 11 extensions in turn, so
// 9,091 are *.ts. The surface caps max_results at 10,000 (a larger value is refused as
// invalid input), so the tree keeps *.ts under that cap: nothing is truncated and every
// method must report the same count. Both patterns need the whole tree walked (a pattern
// without `/` matches at any depth). Built on /dev/shm when writable (tmpfs), removed after.
import { resolveTarget } from '@tessera/protocol'
import { spawn } from 'node:child_process'
import { accessSync, constants, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { FileSurface } from '@tessera/surface-files'
import { fdir } from 'fdir'
import { fmt, percentile } from './stats.js'

const FANOUT = 10 // per level, three levels: 1,000 leaf directories
const FILES_PER_DIR = 100
const MAX_RATIO_TO_FIND = 1.2
const EXTENSIONS = ['ts', 'js', 'md', 'json', 'txt', 'css', 'html', 'py', 'rs', 'go', 'yml']
const MAX_RESULTS = 10_000 // the surface's ceiling for max_results

// Each case: the surface's glob, GNU find's -name, and the Node filter on the base name.
const CASES = [
  { pattern: '**/*.ts', findName: '*.ts', match: (name) => name.endsWith('.ts') },
  { pattern: 'file-4242*', findName: 'file-4242*', match: (name) => name.startsWith('file-4242') },
]

function scratchDir() {
  try {
    accessSync('/dev/shm', constants.W_OK)
    return '/dev/shm'
  } catch {
    return tmpdir()
  }
}

async function buildTree(root) {
  const leaves = []
  for (let a = 0; a < FANOUT; a += 1) {
    for (let b = 0; b < FANOUT; b += 1) {
      for (let c = 0; c < FANOUT; c += 1) leaves.push(join(root, `d${a}`, `s${b}`, `t${c}`))
    }
  }
  // 50 directories at a time, files within a directory one by one: bounded open handles.
  for (let start = 0; start < leaves.length; start += 50) {
    await Promise.all(
      leaves.slice(start, start + 50).map(async (dir, offset) => {
        await mkdir(dir, { recursive: true })
        const leaf = start + offset
        for (let f = 0; f < FILES_PER_DIR; f += 1) {
          const n = leaf * FILES_PER_DIR + f
          await writeFile(join(dir, `file-${n}.${EXTENSIONS[n % EXTENSIONS.length]}`), '')
        }
      }),
    )
  }
  return { files: leaves.length * FILES_PER_DIR, directories: leaves.length + FANOUT * FANOUT + FANOUT }
}

function gnuFind(dir, name) {
  return new Promise((resolve, reject) => {
    const child = spawn('find', [dir, '-name', name], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`find exited ${code}: ${stderr.trim()}`))
      else resolve(stdout === '' ? 0 : stdout.trimEnd().split('\n').length)
    })
  })
}

async function nodeReaddir(dir, match) {
  const entries = await readdir(dir, { recursive: true })
  let count = 0
  for (const entry of entries) {
    const slash = entry.lastIndexOf('/')
    if (match(slash < 0 ? entry : entry.slice(slash + 1))) count += 1
  }
  return count
}

export async function benchFileFind(runs = 10) {
  const base = realpathSync(mkdtempSync(join(scratchDir(), 'tessera-bench-find-')))
  const surface = new FileSurface({ roots: [{ name: 'bench', path: base }] })
  try {
    const generationStart = performance.now()
    const tree = await buildTree(base)
    const generationMs = performance.now() - generationStart
    const frame = await surface.snapshot()
    const find = resolveTarget(frame, 'find')
    const ctx = { actor: 'bench', session: 'bench', requestId: 'r', signal: new AbortController().signal }
    const truncated = []
    const methods = [
      {
        key: 'surface',
        run: async (c) => {
          const result = await surface.perform({ frame, ...find, input: { pattern: c.pattern, max_results: MAX_RESULTS, max_depth: 50 } }, ctx)
          if (result.truncated) truncated.push(`${c.pattern}: ${result.limits.join(', ')}`)
          return { count: result.matches.length }
        },
      },
      { key: 'find', run: async (c) => ({ count: await gnuFind(base, c.findName) }) },
      { key: 'fdir', run: async (c) => ({ count: (await new fdir().filter((path) => c.match(basename(path))).crawl(base).withPromise()).length }) },
      { key: 'node', run: async (c) => ({ count: await nodeReaddir(base, c.match) }) },
    ]

    const rows = [
      ['tree', `${tree.files.toLocaleString('en')} files in ${tree.directories.toLocaleString('en')} directories (1,000 leaves × ${FILES_PER_DIR}, 3 levels), on ${scratchDir()}`],
      ['tree generation (ms, not part of the timings)', fmt(generationMs, 0)],
      ['runs per method and pattern (after 1 warm-up, interleaved)', String(runs)],
    ]
    let countsAgree = true
    let worstRatio = 0
    for (const c of CASES) {
      const times = new Map(methods.map((m) => [m.key, []]))
      const counts = new Map(methods.map((m) => [m.key, new Set()]))
      for (const m of methods) await m.run(c) // warm-up (dentry cache, JIT)
      for (let i = 0; i < runs; i += 1) {
        for (let j = 0; j < methods.length; j += 1) {
          const m = methods[(i + j) % methods.length]
          const started = performance.now()
          const result = await m.run(c)
          times.get(m.key).push(performance.now() - started)
          counts.get(m.key).add(result.count)
        }
      }
      const p50 = (key) => percentile(times.get(key).sort((a, b) => a - b), 50)
      const all = new Set(methods.flatMap((m) => [...counts.get(m.key)]))
      const agree = all.size === 1
      countsAgree &&= agree
      const countOf = (key) => [...counts.get(key)].join('|')
      const label = `\`${c.pattern}\``
      rows.push(
        [`${label} FileSurface find, p50 (ms)`, fmt(p50('surface'), 1)],
        [`${label} peer: GNU find -name '${c.findName}' (spawned), p50 (ms)`, fmt(p50('find'), 1)],
        [`${label} peer: Node fs.readdir recursive + filter, p50 (ms)`, fmt(p50('node'), 1)],
        [`${label} peer: fdir (a fast walker: no sorted order, no escape checks), p50 (ms)`, fmt(p50('fdir'), 1)],
        [`${label} **ratio FileSurface / GNU find (p50)**`, fmt(p50('surface') / p50('find'), 2)],
        [`${label} ratio FileSurface / fdir (p50)`, fmt(p50('surface') / p50('fdir'), 2)],
        [`${label} ratio FileSurface / Node readdir (p50)`, fmt(p50('surface') / p50('node'), 2)],
        [`${label} matches: FileSurface / find / fdir / Node`, `${countOf('surface')} / ${countOf('find')} / ${countOf('fdir')} / ${countOf('node')}${agree ? '' : ' — **MISMATCH**'}`],
      )
      worstRatio = Math.max(worstRatio, p50('surface') / p50('find'))
    }
    rows.push(['FileSurface results truncated', truncated.length === 0 ? 'never' : [...new Set(truncated)].join('; ')])
    return {
      name: 'file_find over a 100,000-file tree (FileSurface in process) against GNU find, fdir and Node readdir',
      budget: `within ${MAX_RATIO_TO_FIND} × GNU find (p50, every pattern); counts agree across all four, untruncated`,
      ok: countsAgree && truncated.length === 0 && worstRatio <= MAX_RATIO_TO_FIND,
      rows,
    }
  } finally {
    await surface.close().catch(() => undefined)
    rmSync(base, { recursive: true, force: true })
  }
}
