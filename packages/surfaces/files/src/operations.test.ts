import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TesseraError } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFiles } from './find-files.js'
import { LIMITS, editFile, listDirectory, readFile, writeFile } from './operations.js'
import { type ResolvedRoot, prepareRoots } from './safe-path.js'

let base: string
let rootDir: string
let outside: string
let roots: ResolvedRoot[]

const MB = 1024 * 1024

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tessera-files-ops-')))
  rootDir = join(base, 'root')
  outside = join(base, 'outside')
  mkdirSync(join(rootDir, 'src', 'deep', 'er'), { recursive: true })
  mkdirSync(join(rootDir, '.git', 'objects'), { recursive: true })
  mkdirSync(join(rootDir, 'ro'))
  mkdirSync(outside)
  writeFileSync(join(rootDir, 'src', 'index.ts'), 'export const a = 1\n')
  writeFileSync(join(rootDir, 'src', 'util.ts'), 'export const b = 2\n')
  writeFileSync(join(rootDir, 'src', 'deep', 'er', 'z.ts'), 'export {}\n')
  writeFileSync(join(rootDir, 'src', 'deep', 'notes.md'), '# notes\n')
  writeFileSync(join(rootDir, '.git', 'objects', 'x.ts'), 'hidden\n')
  writeFileSync(join(rootDir, 'text.txt'), 'hello, wörld\n')
  writeFileSync(join(rootDir, 'utf8.txt'), 'ééé') // 6 bytes
  writeFileSync(join(rootDir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))
  writeFileSync(join(rootDir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])) // "café" in Latin-1: invalid UTF-8, no NUL
  writeFileSync(join(outside, 'secret.ts'), 'SECRET\n')
  symlinkSync(outside, join(rootDir, 'out'))
  symlinkSync('src', join(rootDir, 'src-link'))
  // A 50 MB sparse file with a text marker 40 MB in.
  const fd = openSync(join(rootDir, 'huge.bin'), 'w')
  ftruncateSync(fd, 50 * MB)
  writeSync(fd, 'MARKER: ünïcode text here\n', 40 * MB)
  closeSync(fd)
  roots = await prepareRoots([
    { name: 'main', path: rootDir },
    { name: 'ro', path: join(rootDir, 'ro'), readOnly: true },
  ])
})

afterAll(() => {
  rmSync(base, { recursive: true, force: true })
})

function tempFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('.tessera-'))
}

describe('readFile', () => {
  it('returns text as utf8 with its size', async () => {
    const result = await readFile(roots, 'text.txt')
    expect(result).toEqual({ path: '/text.txt', content: 'hello, wörld\n', encoding: 'utf8', truncated: false, size: 14, offset: 0, bytes_read: 14, next_offset: null })
  })

  it('returns binary (a NUL in the first 8 KiB, or invalid UTF-8) as base64, losslessly', async () => {
    const png = await readFile(roots, 'image.png')
    expect(png.encoding).toBe('base64')
    expect(Buffer.from(png.content, 'base64')).toEqual(readFileSync(join(rootDir, 'image.png')))
    const latin1 = await readFile(roots, 'latin1.txt')
    expect(latin1.encoding).toBe('base64')
    expect(Buffer.from(latin1.content, 'base64')).toEqual(readFileSync(join(rootDir, 'latin1.txt')))
  })

  it('trims a window that splits a UTF-8 character, and says exactly which bytes came back', async () => {
    const first = await readFile(roots, 'utf8.txt', { maxBytes: 3 })
    expect(first).toMatchObject({ content: 'é', encoding: 'utf8', offset: 0, bytes_read: 2, truncated: true, next_offset: 2 })
    const middle = await readFile(roots, 'utf8.txt', { offset: 1, maxBytes: 4 })
    expect(middle).toMatchObject({ content: 'é', offset: 2, bytes_read: 2, next_offset: 4 })
    const rest = await readFile(roots, 'utf8.txt', { offset: 4 })
    expect(rest).toMatchObject({ content: 'é', truncated: false, next_offset: null })
    expect(await readFile(roots, 'utf8.txt', { offset: 100 })).toMatchObject({ content: '', bytes_read: 0, offset: 6, truncated: false })
  })

  it('reads a 50 MB file in bounded windows, quickly and without holding it in memory', async () => {
    const before = process.memoryUsage().arrayBuffers
    const started = performance.now()
    const head = await readFile(roots, 'huge.bin')
    expect(head).toMatchObject({ encoding: 'base64', truncated: true, size: 50 * MB, bytes_read: LIMITS.readDefaultBytes, next_offset: LIMITS.readDefaultBytes })
    const marker = await readFile(roots, 'huge.bin', { offset: 40 * MB, maxBytes: 26 })
    expect(marker).toMatchObject({ encoding: 'utf8', content: 'MARKER: ünïcode text her', offset: 40 * MB, truncated: true })
    let peak = 0
    for (let i = 0; i < 20; i++) {
      const window = await readFile(roots, 'huge.bin', { offset: i * 2 * MB, maxBytes: MB })
      expect(window.bytes_read).toBe(MB)
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before)
    }
    expect(performance.now() - started).toBeLessThan(3000)
    // Windows of 1 MiB, not 50 MB: buffers outstanding stay far below the file's size.
    expect(peak).toBeLessThan(24 * MB)
  })

  it('refuses max_bytes above the stated hard maximum instead of clamping silently', async () => {
    await expect(readFile(roots, 'huge.bin', { maxBytes: LIMITS.readMaxBytes + 1 })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining(`1 to ${LIMITS.readMaxBytes}`) })
    const full = await readFile(roots, 'huge.bin', { maxBytes: LIMITS.readMaxBytes })
    expect(full.bytes_read).toBe(LIMITS.readMaxBytes)
  })

  it('refuses directories, named pipes, and paths through a symlink that leaves the root', async () => {
    await expect(readFile(roots, 'src')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('found a directory') })
    await expect(readFile(roots, 'out/secret.ts')).rejects.toMatchObject({ code: 'forbidden' })
    await expect(readFile(roots, '../outside/secret.ts')).rejects.toMatchObject({ code: 'forbidden' })
    let fifo = false
    try {
      execFileSync('mkfifo', [join(rootDir, 'pipe')])
      fifo = true
    } catch {
      // no mkfifo on this host
    }
    if (fifo) {
      // O_NONBLOCK: the open cannot hang waiting for a writer.
      await expect(readFile(roots, 'pipe')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('found a named pipe') })
      rmSync(join(rootDir, 'pipe'))
    }
  })

  it('refuses a Unix socket as the wrong kind of file, not as an internal error', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(join(rootDir, 'hub.sock'), resolve))
    try {
      await expect(readFile(roots, 'hub.sock')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('found a socket'), details: { expected: 'regular file', found: 'socket' } })
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('writeFile', () => {
  it('creates a file, then replaces it keeping its mode, with no temporary left behind', async () => {
    expect(await writeFile(roots, 'new.txt', { content: 'one' })).toEqual({ success: true, path: '/new.txt', bytes_written: 3, created: true })
    chmodSync(join(rootDir, 'new.txt'), 0o751)
    expect(await writeFile(roots, '/new.txt', { content: 'two, longer' })).toMatchObject({ created: false, bytes_written: 11 })
    expect(readFileSync(join(rootDir, 'new.txt'), 'utf8')).toBe('two, longer')
    expect(statSync(join(rootDir, 'new.txt')).mode & 0o777).toBe(0o751)
    expect(tempFiles(rootDir)).toEqual([])
  })

  it('writes base64 content and refuses malformed base64', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254])
    await writeFile(roots, 'bin.dat', { content: bytes.toString('base64'), encoding: 'base64' })
    expect(readFileSync(join(rootDir, 'bin.dat'))).toEqual(bytes)
    await expect(writeFile(roots, 'bin.dat', { content: 'not base64!', encoding: 'base64' })).rejects.toMatchObject({ code: 'invalid_input' })
  })

  it('creates missing parents only when asked', async () => {
    await expect(writeFile(roots, 'a/b/c.txt', { content: 'x' })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('create_dirs: true') })
    expect(await writeFile(roots, 'a/b/c.txt', { content: 'x', createDirs: true })).toMatchObject({ created: true, path: '/a/b/c.txt' })
    expect(readFileSync(join(rootDir, 'a', 'b', 'c.txt'), 'utf8')).toBe('x')
  })

  it('writes through an inside symlink to its target, and refuses everything that leaves the root', async () => {
    await writeFile(roots, 'src-link/via-link.ts', { content: 'ok' })
    expect(readFileSync(join(rootDir, 'src', 'via-link.ts'), 'utf8')).toBe('ok')
    for (const path of ['out/new.txt', '../escape.txt', 'out/../../escape.txt', '/../escape.txt']) {
      await expect(writeFile(roots, path, { content: 'x', createDirs: true })).rejects.toMatchObject({ code: 'forbidden' })
    }
    expect(readdirSync(outside)).toEqual(['secret.ts'])
    expect(readdirSync(base).sort()).toEqual(['outside', 'root'])
  })

  it('refuses a directory target, the root itself, and read-only roots', async () => {
    await expect(writeFile(roots, 'src', { content: 'x' })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('found a directory') })
    await expect(writeFile(roots, '/', { content: 'x' })).rejects.toMatchObject({ code: 'invalid_request' })
    await expect(writeFile(roots, 'ro:/x.txt', { content: 'x' })).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('read-only') })
  })

  it('is atomic: a failure before the rename leaves the original intact and no temporary file', async () => {
    writeFileSync(join(rootDir, 'precious.txt'), 'original')
    const failing = writeFile(roots, 'precious.txt', {
      content: 'half-written replacement',
      atomic: {
        beforeRename: async () => {
          expect(tempFiles(rootDir)).toHaveLength(1)
          throw new Error('disk pulled out')
        },
      },
    })
    await expect(failing).rejects.toThrow()
    expect(readFileSync(join(rootDir, 'precious.txt'), 'utf8')).toBe('original')
    expect(tempFiles(rootDir)).toEqual([])
  })

  it('refuses content above the stated maximum', async () => {
    await expect(writeFile(roots, 'big.txt', { content: 'x'.repeat(LIMITS.writeMaxBytes + 1) })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining(String(LIMITS.writeMaxBytes)) })
  })
})

describe('editFile', () => {
  it('replaces exactly the expected number of occurrences', async () => {
    writeFileSync(join(rootDir, 'edit.ts'), 'const a = 1\nconst b = 1\n')
    expect(await editFile(roots, 'edit.ts', { oldText: 'const a', newText: 'let a' })).toEqual({ success: true, path: '/edit.ts', replacements: 1, bytes_written: 22 })
    expect(await editFile(roots, 'edit.ts', { oldText: '= 1', newText: '= 2', expectedCount: 2 })).toMatchObject({ replacements: 2 })
    expect(readFileSync(join(rootDir, 'edit.ts'), 'utf8')).toBe('let a = 2\nconst b = 2\n')
  })

  it('fails clearly when the count differs, changing nothing', async () => {
    writeFileSync(join(rootDir, 'count.txt'), 'x x x')
    const error = await editFile(roots, 'count.txt', { oldText: 'x', newText: 'y' }).catch((e: TesseraError) => e)
    expect(error).toMatchObject({ code: 'conflict', details: { expected: 1, found: 3 } })
    expect((error as TesseraError).message).toContain('expected 1 occurrence of old_text in "/count.txt", found 3; nothing was changed')
    await expect(editFile(roots, 'count.txt', { oldText: 'zzz', newText: 'y' })).rejects.toMatchObject({ code: 'conflict', details: { found: 0 } })
    await expect(editFile(roots, 'count.txt', { oldText: '', newText: 'y' })).rejects.toMatchObject({ code: 'invalid_input' })
    expect(readFileSync(join(rootDir, 'count.txt'), 'utf8')).toBe('x x x')
    expect(tempFiles(rootDir)).toEqual([])
  })

  it('refuses with conflict when the file changes between the read and the rename, keeping the other writer\'s content', async () => {
    writeFileSync(join(rootDir, 'race.txt'), 'version 1')
    const racing = editFile(roots, 'race.txt', {
      oldText: 'version 1',
      newText: 'agent edit',
      atomic: { beforeRename: async () => writeFileSync(join(rootDir, 'race.txt'), 'someone else, version 2') },
    })
    await expect(racing).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('modified by someone else') })
    expect(readFileSync(join(rootDir, 'race.txt'), 'utf8')).toBe('someone else, version 2')
    expect(tempFiles(rootDir)).toEqual([])
  })

  it('refuses binary files, missing files and escapes', async () => {
    await expect(editFile(roots, 'image.png', { oldText: 'PNG', newText: 'GIF' })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('binary') })
    await expect(editFile(roots, 'missing.txt', { oldText: 'a', newText: 'b' })).rejects.toMatchObject({ code: 'not_found' })
    await expect(editFile(roots, 'out/secret.ts', { oldText: 'SECRET', newText: 'x' })).rejects.toMatchObject({ code: 'forbidden' })
    expect(readFileSync(join(outside, 'secret.ts'), 'utf8')).toBe('SECRET\n')
  })
})

describe('findFiles', () => {
  it('finds by glob in sorted, deterministic order without following symlinks', async () => {
    const result = await findFiles(roots, { pattern: '**/*.ts', path: '/' })
    expect(result.matches.map((m) => m.path)).toEqual(['/edit.ts', '/src/index.ts', '/src/util.ts', '/src/via-link.ts', '/src/deep/er/z.ts'])
    expect(result).toMatchObject({ base: '/', truncated: false, limits: [], skipped_directories: 0 })
    expect(result.matches[1]).toEqual({ name: 'index.ts', path: '/src/index.ts', type: 'file' })
    // Neither the link to outside nor the link back into src was entered.
    expect(JSON.stringify(result)).not.toContain('secret')
    expect(JSON.stringify(result)).not.toContain('src-link/')
  })

  it('reports symlinks as entries, never what is behind them', async () => {
    const result = await findFiles(roots, { pattern: '*', path: '/', maxDepth: 1 })
    expect(result.matches).toContainEqual({ name: 'out', path: '/out', type: 'symlink' })
    const all = await findFiles(roots, { pattern: '**', path: '/' })
    expect(all.matches.some((m) => m.path.startsWith('/out/'))).toBe(false)
  })

  it('bounds the count and the depth, and says which bound cut the search short', async () => {
    const two = await findFiles(roots, { pattern: '**/*.ts', path: '/src', maxResults: 2 })
    expect(two).toMatchObject({ count: 2, truncated: true, limits: ['max_results'] })
    const shallow = await findFiles(roots, { pattern: '**/*.ts', path: '/src', maxDepth: 2 })
    expect(shallow.matches.map((m) => m.name)).toEqual(['index.ts', 'util.ts', 'via-link.ts'])
    expect(shallow).toMatchObject({ truncated: true, limits: ['max_depth'] })
    const scanned = await findFiles(roots, { pattern: '**', path: '/', maxScanned: 3 })
    expect(scanned).toMatchObject({ truncated: true, limits: ['max_scanned'], scanned: 3 })
  })

  it('skips hidden entries unless asked, searches from a path, and matches basenames at any depth', async () => {
    expect((await findFiles(roots, { pattern: '**/x.ts', path: '/' })).count).toBe(0)
    expect((await findFiles(roots, { pattern: '**/x.ts', path: '/', includeHidden: true })).matches.map((m) => m.path)).toEqual(['/.git/objects/x.ts'])
    expect((await findFiles(roots, { pattern: '*.md', path: 'src' })).matches.map((m) => m.path)).toEqual(['/src/deep/notes.md'])
    expect((await findFiles(roots, { pattern: 'deep/*', path: '/src' })).matches.map((m) => m.name)).toEqual(['er', 'notes.md'])
  })

  it('refuses bad patterns and bases outside the root', async () => {
    await expect(findFiles(roots, { pattern: '../*', path: '/' })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(findFiles(roots, { pattern: '*', path: 'out' })).rejects.toMatchObject({ code: 'forbidden' })
    await expect(findFiles(roots, { pattern: '*', path: 'text.txt' })).rejects.toMatchObject({ code: 'invalid_request' })
  })

  it('stops when the dispatch is aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('timed out'))
    await expect(findFiles(roots, { pattern: '**', path: '/', signal: controller.signal })).rejects.toThrow('timed out')
  })
})

describe('listDirectory', () => {
  it('pages through the sorted listing with positions in the whole listing', async () => {
    const all = await listDirectory(roots, '/src')
    expect(all.files.map((f) => f.name)).toEqual(['deep', 'index.ts', 'util.ts', 'via-link.ts'])
    const page = await listDirectory(roots, '/src', { offset: 1, limit: 2 })
    expect(page.files).toEqual(all.files.slice(1, 3))
    expect(page.total).toBe(4)
  })
})
