import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Gateway, openMemoryStore } from '@tessera/gateway'
import { type JsonValue, type Principal, TesseraError, type UiNode, hitTest, resolveTarget } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COLOR_TABLE, type FileInfo } from './file-info.js'
import { FileSurface, createFileSurface } from './file-surface.js'

let base: string
let rootDir: string
let outside: string

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tessera-files-surface-')))
  rootDir = join(base, 'root')
  outside = join(base, 'outside')
  mkdirSync(join(rootDir, 'src', 'deep', 'x', 'y'), { recursive: true })
  mkdirSync(join(rootDir, 'docs'))
  mkdirSync(outside)
  mkdirSync(join(base, 'notes'))
  writeFileSync(join(rootDir, 'src', 'index.ts'), 'export const a = 1\n')
  writeFileSync(join(rootDir, 'src', 'util.ts'), 'export const b = 2\n')
  writeFileSync(join(rootDir, 'src', 'deep', 'x', 'y', 'z.ts'), 'export {}\n')
  writeFileSync(join(rootDir, 'docs', 'readme.md'), '# readme\n')
  writeFileSync(join(rootDir, 'Makefile'), 'all:\n')
  writeFileSync(join(rootDir, 'a.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]))
  writeFileSync(join(rootDir, 'archive.tar.gz'), Buffer.from([0x1f, 0x8b, 0]))
  writeFileSync(join(rootDir, 'b.txt'), 'bee\n')
  writeFileSync(join(rootDir, '.hidden'), 'shh\n')
  writeFileSync(join(outside, 'secret.ts'), 'SECRET\n')
  writeFileSync(join(base, 'notes', 'todo.md'), '- [ ] test\n')
  symlinkSync('src', join(rootDir, 'link'))
  symlinkSync(outside, join(rootDir, 'out'))
  symlinkSync('/etc', join(rootDir, 'etc'))
})

afterAll(() => {
  rmSync(base, { recursive: true, force: true })
})

function surfaceOptions(extra: Partial<ConstructorParameters<typeof FileSurface>[0]> = {}) {
  return { roots: [{ name: 'main', path: rootDir }, { name: 'notes', path: join(base, 'notes'), readOnly: true }], ...extra }
}

const ctx = () => ({ actor: 'agent-1', session: 's', requestId: 'r', signal: new AbortController().signal })

async function act(surface: FileSurface, action: string, input?: JsonValue): Promise<JsonValue | undefined> {
  const frame = await surface.snapshot()
  return surface.perform({ frame, ...resolveTarget(frame, action), input: input ?? {} }, ctx())
}

async function failure(surface: FileSurface, action: string, input: JsonValue): Promise<TesseraError> {
  const error = await act(surface, action, input).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error, `${action} ${JSON.stringify(input).slice(0, 80)} should fail`).toBeInstanceOf(TesseraError)
  const typed = error as TesseraError
  expect(typed.message).toMatch(/expected/)
  expect(JSON.stringify(typed.toJSON())).not.toContain(base)
  return typed
}

function findByPath(tree: UiNode, path: string): UiNode | null {
  if (tree.semantic?.data?.path === path) return tree
  for (const child of tree.children ?? []) {
    const hit = findByPath(child, path)
    if (hit !== null) return hit
  }
  return null
}

function isWithin(node: UiNode, id: string): boolean {
  return node.id === id || (node.children ?? []).some((child) => isWithin(child, id))
}


/** The entries of a `list` (its output is {path, files, total?}). */
async function listFiles(surface: FileSurface, input: JsonValue = {}): Promise<FileInfo[]> {
  return ((await act(surface, 'list', input)) as { files: FileInfo[] }).files
}

describe('list', () => {
  it('returns FileInfo in a deterministic order with grid positions and colours', async () => {
    const surface = await createFileSurface(surfaceOptions())
    const files = await listFiles(surface, {})
    expect(files.map((f) => f.name)).toEqual(['docs', 'src', '.hidden', 'Makefile', 'a.png', 'archive.tar.gz', 'b.txt', 'etc', 'link', 'out'])
    const byName = new Map(files.map((f) => [f.name, f]))
    expect(byName.get('docs')).toMatchObject({ path: '/docs', file_type: 'directory', x: 0, y: 80, color: COLOR_TABLE.directory.color })
    expect(byName.get('src')).toMatchObject({ x: 120, y: 80 })
    expect(byName.get('b.txt')).toMatchObject({ path: '/b.txt', file_type: 'file', size: 4, x: 720, y: 80, color: COLOR_TABLE.text.color })
    expect(byName.get('link')).toMatchObject({ file_type: 'symlink', x: 0, y: 200, color: COLOR_TABLE.symlink.color })
    expect(byName.get('Makefile')?.color).toBe(COLOR_TABLE.code.color)
    expect(byName.get('a.png')?.color).toBe(COLOR_TABLE.image.color)
    expect(byName.get('archive.tar.gz')?.color).toBe(COLOR_TABLE.archive.color)
    expect(byName.get('.hidden')?.color).toBe(COLOR_TABLE.file.color)
    for (const file of files) {
      expect(Object.keys(file).sort()).toEqual(['color', 'file_type', 'modified', 'name', 'path', 'permissions', 'size', 'x', 'y'])
      expect(file.permissions).toMatch(/^[r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-]$/)
      expect(new Date(file.modified).toISOString()).toBe(file.modified)
    }
    expect(await listFiles(surface, {})).toEqual(files)
    // Pages keep each entry's place in the whole listing.
    expect(await listFiles(surface, { path: '/', offset: 8, limit: 5 })).toEqual(files.slice(8))
    // A page that is not the whole directory says how many entries there are; the whole one does not.
    expect(await act(surface, 'list', { path: '/', offset: 8, limit: 5 })).toMatchObject({ path: '/', total: 10 })
    expect(await act(surface, 'list', {})).not.toHaveProperty('total')
    expect(await listFiles(surface, { path: 'notes:/' })).toMatchObject([{ name: 'todo.md', path: 'notes:/todo.md', x: 0, y: 80 }])
    await surface.close()
  })

  it('refuses a file, an unknown field and a listing through a symlink to /etc', async () => {
    const surface = await createFileSurface(surfaceOptions())
    expect((await failure(surface, 'list', { path: 'b.txt' })).code).toBe('invalid_request')
    expect((await failure(surface, 'list', { dir: '/' })).code).toBe('invalid_input')
    expect((await failure(surface, 'list', { path: '/', limit: 10_001 })).code).toBe('invalid_input')
    const etc = await failure(surface, 'list', { path: 'etc' })
    expect(etc.code).toBe('forbidden')
    await surface.close()
  })
})

describe('navigate', () => {
  it('moves the tile, after which list and find default to the new directory', async () => {
    const surface = await createFileSurface(surfaceOptions())
    expect(await act(surface, 'navigate', { path: 'src' })).toEqual({ success: true, files_count: 3, path: '/src' })
    expect(surface.cwd).toBe('/src')
    expect((await listFiles(surface)).map((f) => f.path)).toEqual(['/src/deep', '/src/index.ts', '/src/util.ts'])
    expect(((await act(surface, 'find', { pattern: '*.ts' })) as { matches: Array<{ path: string }> }).matches.map((m) => m.path)).toEqual([
      '/src/index.ts',
      '/src/util.ts',
      '/src/deep/x/y/z.ts',
    ])
    const frame = await surface.snapshot()
    expect(frame.state).toMatchObject({ cwd: '/src', root: 'main', entries: 3, shown: 3, error: null })
    expect(frame.route).toBe('/src')
    // Through an inside symlink the tile lands on the real directory.
    await act(surface, 'navigate', { path: '/' })
    expect(await act(surface, 'navigate', { path: 'link' })).toMatchObject({ path: '/src' })
    expect(await act(surface, 'navigate', { path: 'notes:/' })).toEqual({ success: true, files_count: 1, path: 'notes:/' })
    expect((await surface.snapshot()).state).toMatchObject({ root: 'notes', cwd: 'notes:/' })
    await surface.close()
  })

  it('refuses files, missing directories and escapes, leaving the tile where it was', async () => {
    const surface = await createFileSurface(surfaceOptions())
    await act(surface, 'navigate', { path: 'docs' })
    expect((await failure(surface, 'navigate', { path: 'b.txt' })).code).toBe('invalid_request')
    expect((await failure(surface, 'navigate', { path: 'nowhere' })).code).toBe('not_found')
    expect((await failure(surface, 'navigate', { path: 'out' })).code).toBe('forbidden')
    expect((await failure(surface, 'navigate', { path: '../..' })).code).toBe('forbidden')
    expect((await failure(surface, 'navigate', {})).code).toBe('invalid_input')
    expect(surface.cwd).toBe('/docs')
    await surface.close()
  })
})

describe('every escape attempt through the actions is a typed error naming what was expected', () => {
  const attempts: Array<[string, JsonValue, string]> = [
    ['read', { path: '../../etc/passwd' }, 'forbidden'],
    ['read', { path: '/etc/passwd' }, 'forbidden'], // "etc" in this root is a symlink to /etc
    ['read', { path: 'docs/../../outside/secret.ts' }, 'forbidden'],
    ['read', { path: 'main:../x' }, 'forbidden'],
    ['read', { path: 'out/secret.ts' }, 'forbidden'],
    ['read', { path: 'etc/passwd' }, 'forbidden'],
    ['read', { path: 'a\u0000b' }, 'invalid_request'],
    ['read', { path: 'x'.repeat(5000) }, 'invalid_input'], // longer than any path: the schema refuses it before the root is consulted,
    ['read', { path: `dir/${'y'.repeat(300)}` }, 'invalid_request'],
    ['read', { path: '~' }, 'invalid_request'],
    ['read', { path: '~/.ssh/id_rsa' }, 'invalid_request'],
    ['read', { path: '%2e%2e/%2e%2e/etc/passwd' }, 'invalid_request'],
    ['read', { path: '..\\..\\etc\\passwd' }, 'invalid_request'],
    ['list', { path: '../' }, 'forbidden'],
    ['find', { pattern: '*', path: 'out' }, 'forbidden'],
    ['find', { pattern: '../../*' }, 'invalid_input'],
    ['write', { path: '../escape.txt', content: 'x' }, 'forbidden'],
    ['write', { path: 'out/planted.txt', content: 'x' }, 'forbidden'],
    ['write', { path: 'etc/planted', content: 'x', create_dirs: true }, 'forbidden'],
    ['write', { path: 'notes:/todo.md', content: 'x' }, 'forbidden'],
    ['edit', { path: 'out/secret.ts', old_text: 'SECRET', new_text: 'x' }, 'forbidden'],
  ]

  it.each(attempts)('%s %j → %s', async (action, input, code) => {
    const surface = await createFileSurface(surfaceOptions())
    const error = await failure(surface, action, input)
    expect(error.code).toBe(code)
    await surface.close()
  })

  it('left nothing behind outside the root', () => {
    expect(readdirSync(outside)).toEqual(['secret.ts'])
    expect(readFileSync(join(outside, 'secret.ts'), 'utf8')).toBe('SECRET\n')
    expect(readdirSync(base).sort()).toEqual(['notes', 'outside', 'root'])
  })
})

describe('read, write and edit through perform', () => {
  it('round-trips a write, an edit and a read, and the frame shows the new file', async () => {
    const surface = await createFileSurface(surfaceOptions())
    let changes = 0
    const unsubscribe = surface.subscribe(() => changes++)
    expect(await act(surface, 'write', { path: 'src/new.ts', content: 'let x = 1\n' })).toEqual({ success: true, path: '/src/new.ts', bytes_written: 10, created: true })
    expect(await act(surface, 'edit', { path: 'src/new.ts', old_text: 'x = 1', new_text: 'x = 2' })).toEqual({ success: true, path: '/src/new.ts', replacements: 1, bytes_written: 10 })
    expect(await act(surface, 'read', { path: 'src/new.ts' })).toMatchObject({ content: 'let x = 2\n', encoding: 'utf8', truncated: false })
    expect(await act(surface, 'read', { path: 'a.png', max_bytes: 4 })).toMatchObject({ content: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'), encoding: 'base64', truncated: true })
    const error = await failure(surface, 'edit', { path: 'src/new.ts', old_text: 'let', new_text: 'const', expected_count: 2 })
    expect(error).toMatchObject({ code: 'conflict', details: { expected: 2, found: 1 } })
    await act(surface, 'navigate', { path: 'src' })
    expect(findByPath((await surface.snapshot()).tree, '/src/new.ts')).not.toBeNull()
    // The shown directory is watched: a file written by anyone else is a change too.
    writeFileSync(join(rootDir, 'src', 'other.ts'), 'x\n')
    await expect.poll(() => changes, { timeout: 5000 }).toBeGreaterThan(0)
    rmSync(join(rootDir, 'src', 'other.ts'))
    unsubscribe()
    rmSync(join(rootDir, 'src', 'new.ts'))
    await surface.close()
  })

  it('refuses unknown actions and a closed surface', async () => {
    const surface = await createFileSurface(surfaceOptions())
    const frame = await surface.snapshot()
    const list = resolveTarget(frame, 'list')
    const call = { frame, ...list, contract: { ...list.contract, id: 'delete' }, input: {} }
    await expect(surface.perform(call, ctx())).rejects.toMatchObject({ code: 'not_found', details: { expected: ['list', 'navigate', 'find', 'read', 'write', 'edit'], found: 'delete' } })
    await expect(surface.perform({ frame, ...list, input: { path: 7 } }, ctx())).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('path') })
    await surface.close()
    await expect(surface.perform({ frame, ...list, input: {} }, ctx())).rejects.toMatchObject({ code: 'conflict' })
  })
})

describe('the frame', () => {
  it('draws one node per entry exactly where FileInfo places it, and is deterministic', async () => {
    const one = await createFileSurface(surfaceOptions())
    const two = await createFileSurface(surfaceOptions())
    const frame = await one.snapshot()
    expect((await two.snapshot()).id).toBe(frame.id)
    expect((await one.snapshot()).id).toBe(frame.id)
    const files = await listFiles(one, {})
    for (const file of files) {
      const node = findByPath(frame.tree, file.path)
      expect(node, file.path).not.toBeNull()
      const bounds = frame.layout[(node as UiNode).id]
      expect(bounds).toEqual({ x: file.x, y: file.y, width: 120, height: 120 })
      expect((node as UiNode).semantic?.data).toMatchObject({ file_type: file.file_type, color: file.color })
      // A click in the middle of the cell lands on the entry (or its label).
      const hit = hitTest(frame.tree, frame.layout, { x: file.x + 60, y: file.y + 60 })
      expect(hit !== null && isWithin(node as UiNode, hit.id), `centre of ${file.name}`).toBe(true)
    }
    expect(frame.state).toEqual({
      roots: [
        { name: 'main', read_only: false },
        { name: 'notes', read_only: true },
      ],
      root: 'main',
      cwd: '/',
      entries: files.length,
      shown: files.length,
      capped: false,
      error: null,
    })
    await one.close()
    await two.close()
  })

  it('carries all six actions as actions of the whole tile, each with both schemas', async () => {
    const surface = await createFileSurface(surfaceOptions())
    const frame = await surface.snapshot()
    expect(frame.targets.every((t) => t.nodeId === undefined && t.ref === t.contract && t.enabled)).toBe(true)
    for (const contract of frame.contracts) expect([contract.inputSchema?.type, contract.outputSchema?.type !== undefined]).toEqual(['object', true])
    expect(frame.contracts.map((c) => [c.id, c.risk])).toEqual([
      ['list', 'read'],
      ['navigate', 'read'],
      ['find', 'read'],
      ['read', 'read'],
      ['write', 'write'],
      ['edit', 'write'],
    ])
    await surface.close()
  })

  it('caps the entries it draws and says how many more there are', async () => {
    const surface = await createFileSurface(surfaceOptions({ maxFrameEntries: 4, columns: 2 }))
    const frame = await surface.snapshot()
    expect(frame.state).toMatchObject({ entries: 10, shown: 4 })
    const texts: string[] = []
    const collect = (node: UiNode): void => {
      if (node.text !== undefined) texts.push(node.text)
      node.children?.forEach(collect)
    }
    collect(frame.tree)
    expect(texts).toContain('6 more entries not drawn; list with offset 4 to page through them')
    const files = await listFiles(surface, {})
    expect(files[3]).toMatchObject({ x: 120, y: 200 })
    await surface.close()
  })

  it('shows an error instead of failing when the current directory disappears', async () => {
    mkdirSync(join(rootDir, 'temp-dir'))
    const surface = await createFileSurface(surfaceOptions({ cwd: 'temp-dir' }))
    rmSync(join(rootDir, 'temp-dir'), { recursive: true })
    const frame = await surface.snapshot()
    expect(frame.state).toMatchObject({ cwd: '/temp-dir', entries: 0 })
    expect(String(frame.state.error)).toContain('expected it to exist')
    await surface.close()
  })

  it('refuses a bad configuration when created', async () => {
    await expect(createFileSurface({ roots: [] })).rejects.toMatchObject({ code: 'invalid_request' })
    await expect(createFileSurface(surfaceOptions({ cwd: 'out' }))).rejects.toMatchObject({ code: 'forbidden' })
    expect(() => new FileSurface(surfaceOptions({ columns: 0 }))).toThrow(/columns/)
  })
})

function findNodeById(tree: UiNode, id: string): UiNode | null {
  if (tree.id === id) return tree
  for (const child of tree.children ?? []) {
    const hit = findNodeById(child, id)
    if (hit !== null) return hit
  }
  return null
}

describe('through the gateway', () => {
  it('validates inputs against the schemas, runs actions and reports refusals as typed errors', async () => {
    const agent: Principal = { id: 'agent-1', roles: ['agent'] }
    const gateway = new Gateway({ store: openMemoryStore(), session: 'files' })
    const surface = await createFileSurface(surfaceOptions())
    gateway.addSurface(surface)
    const listed = await gateway.request({ surface: 'files', action: 'list', input: { path: 'docs' } }, agent)
    expect(listed.status).toBe('completed')
    expect(listed.output).toMatchObject({ path: '/docs', files: [{ name: 'readme.md', path: '/docs/readme.md' }] })
    const moved = await gateway.request({ surface: 'files', action: 'navigate', input: { path: 'docs' } }, agent)
    expect(moved).toMatchObject({ status: 'completed', output: { success: true, files_count: 1 } })
    const escape = await gateway.request({ surface: 'files', action: 'read', input: { path: '../../etc/passwd' } }, agent)
    expect(escape).toMatchObject({ status: 'failed', error: { code: 'forbidden' } })
    const tooBig = await gateway.request({ surface: 'files', action: 'read', input: { path: 'b.txt', max_bytes: 16 * 1024 * 1024 + 1 } }, agent)
    expect(tooBig.error?.code).toBe('invalid_input')
    await gateway.close()
  })
})
