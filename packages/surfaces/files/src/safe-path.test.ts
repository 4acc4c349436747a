import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TesseraError } from '@tessera/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MAX_SYMLINK_HOPS,
  type ResolvedRoot,
  displayPath,
  openDirectory,
  openFileForReading,
  prepareRoots,
  resolveInRoot,
} from './safe-path.js'

let base: string
let rootDir: string
let outside: string
let roots: ResolvedRoot[]

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tessera-safe-path-')))
  rootDir = join(base, 'root')
  outside = join(base, 'outside')
  mkdirSync(join(rootDir, 'dir', 'sub'), { recursive: true })
  mkdirSync(outside)
  mkdirSync(join(base, 'docs'))
  writeFileSync(join(rootDir, 'a.txt'), 'alpha')
  writeFileSync(join(rootDir, 'dir', 'b.txt'), 'beta')
  writeFileSync(join(outside, 'secret.txt'), 'top secret')
  writeFileSync(join(base, 'docs', 'guide.md'), '# guide')
  symlinkSync('dir', join(rootDir, 'link-in'))
  symlinkSync(join(rootDir, 'dir', 'b.txt'), join(rootDir, 'abs-in'))
  symlinkSync('../outside', join(rootDir, 'link-out'))
  symlinkSync('/etc', join(rootDir, 'etc-link'))
  symlinkSync('chain2', join(rootDir, 'chain1'))
  symlinkSync('chain3', join(rootDir, 'chain2'))
  symlinkSync(outside, join(rootDir, 'chain3'))
  symlinkSync('in2', join(rootDir, 'in1'))
  symlinkSync('dir/../a.txt', join(rootDir, 'in2'))
  symlinkSync('loop2', join(rootDir, 'loop1'))
  symlinkSync('loop1', join(rootDir, 'loop2'))
  symlinkSync(join(outside, 'does-not-exist'), join(rootDir, 'dangling-out'))
  symlinkSync('missing.txt', join(rootDir, 'dangling-in'))
  // Physically, link-in/.. is the root (link-in is dir, dir/.. is the root); lexically it would be too.
  symlinkSync('link-in/../../outside', join(rootDir, 'sneaky'))
  roots = await prepareRoots([
    { name: 'main', path: rootDir },
    { name: 'docs', path: join(base, 'docs'), readOnly: true },
  ])
})

afterAll(() => {
  rmSync(base, { recursive: true, force: true })
})

async function refusal(requested: string): Promise<TesseraError> {
  const error = await resolveInRoot(roots, requested).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error, `expected "${requested}" to be refused`).toBeInstanceOf(TesseraError)
  const typed = error as TesseraError
  // Never a host path in what the agent sees.
  expect(JSON.stringify(typed.toJSON())).not.toContain(base)
  expect(typed.message).toMatch(/expected/)
  return typed
}

describe('resolveInRoot: ordinary paths', () => {
  it('reads "/", "" and "." as the root itself', async () => {
    for (const requested of ['/', '', '.', '//', './']) {
      const resolved = await resolveInRoot(roots, requested)
      expect(resolved).toMatchObject({ relative: '', display: '/', exists: true, kind: 'directory', absolute: rootDir })
      expect(resolved.root.name).toBe('main')
    }
  })

  it('resolves root-relative paths with or without a leading slash, and ".." that stays inside', async () => {
    for (const requested of ['dir/b.txt', '/dir/b.txt', 'dir/./b.txt', 'dir/sub/../b.txt', '/dir/../dir/b.txt', 'dir//b.txt']) {
      const resolved = await resolveInRoot(roots, requested)
      expect(resolved).toMatchObject({ relative: 'dir/b.txt', display: '/dir/b.txt', exists: true, kind: 'file' })
      expect(resolved.absolute).toBe(join(rootDir, 'dir', 'b.txt'))
    }
  })

  it('follows symlinks that stay inside the root and reports the real path', async () => {
    expect(await resolveInRoot(roots, 'link-in/b.txt')).toMatchObject({ relative: 'dir/b.txt', exists: true })
    expect(await resolveInRoot(roots, 'abs-in')).toMatchObject({ relative: 'dir/b.txt', exists: true })
    // A chain of two links, the second with a physical "..".
    expect(await resolveInRoot(roots, 'in1')).toMatchObject({ relative: 'a.txt', exists: true, kind: 'file' })
  })

  it('resolves a path that does not exist yet as far as it exists', async () => {
    expect(await resolveInRoot(roots, 'dir/new/file.txt')).toMatchObject({ relative: 'dir/new/file.txt', exists: false, missing: 2, kind: null })
    // A dangling link whose target would be inside the root resolves to that target.
    expect(await resolveInRoot(roots, 'dangling-in')).toMatchObject({ relative: 'missing.txt', exists: false, missing: 1 })
  })

  it('picks a root by name prefix and displays paths of other roots with it', async () => {
    const resolved = await resolveInRoot(roots, 'docs:/guide.md')
    expect(resolved).toMatchObject({ relative: 'guide.md', display: 'docs:/guide.md', exists: true })
    expect(resolved.root).toMatchObject({ name: 'docs', readOnly: true, index: 1 })
    expect(await resolveInRoot(roots, 'docs:guide.md')).toMatchObject({ display: 'docs:/guide.md' })
    expect(await resolveInRoot(roots, 'main:/a.txt')).toMatchObject({ display: '/a.txt' })
    // An unknown prefix is just part of a file name in the default root.
    expect(await resolveInRoot(roots, 'nope:a.txt')).toMatchObject({ relative: 'nope:a.txt', exists: false })
    expect(displayPath(resolved.root, '')).toBe('docs:/')
  })

  it('accepts an absolute host path that lies inside a root', async () => {
    expect(await resolveInRoot(roots, join(rootDir, 'dir', 'b.txt'))).toMatchObject({ relative: 'dir/b.txt', exists: true })
    expect(await resolveInRoot(roots, join(base, 'docs', 'guide.md'))).toMatchObject({ display: 'docs:/guide.md' })
  })
})

describe('resolveInRoot: escapes are refused with typed errors', () => {
  it('"../../etc/passwd" and every ".." above the root: forbidden, before touching the disk', async () => {
    for (const requested of ['../../etc/passwd', '..', '/..', 'dir/../../outside/secret.txt', 'main:../x', 'docs:../root/a.txt']) {
      const error = await refusal(requested)
      expect(error.code).toBe('forbidden')
      expect(error.message).toContain('expected a path inside root')
      expect(error.message).toContain('climbs above the root')
    }
  })

  it('"root:../x" with a root named "root": forbidden', async () => {
    const named = await prepareRoots([{ name: 'root', path: rootDir }])
    const error = await resolveInRoot(named, 'root:../x').catch((e: TesseraError) => e)
    expect(error).toMatchObject({ code: 'forbidden' })
  })

  it('"/etc/passwd" means etc/passwd inside the root: not found there, never the host file', async () => {
    const resolved = await resolveInRoot(roots, '/etc/passwd')
    expect(resolved).toMatchObject({ relative: 'etc/passwd', exists: false })
    expect(resolved.absolute.startsWith(rootDir)).toBe(true)
    const error = await openFileForReading(resolved).catch((e: TesseraError) => e)
    expect(error).toMatchObject({ code: 'not_found' })
    expect((error as TesseraError).message).toContain('paths are relative to the root')
  })

  it('a symlink to /etc inside the root: the link, and anything through it, is forbidden', async () => {
    for (const requested of ['etc-link', 'etc-link/passwd', 'etc-link/../etc-link/hostname', 'link-out/secret.txt', 'link-out']) {
      const error = await refusal(requested)
      expect(error.code).toBe('forbidden')
      expect(error.message).toContain('symlink pointing outside the root')
    }
  })

  it('a chain of symlinks that ends outside the root: forbidden', async () => {
    expect((await refusal('chain1/secret.txt')).code).toBe('forbidden')
    expect((await refusal('chain1')).code).toBe('forbidden')
  })

  it('a relative link whose physical ".." leaves the root: forbidden', async () => {
    const error = await refusal('sneaky/secret.txt')
    expect(error.code).toBe('forbidden')
    expect(error.message).toContain('"/sneaky" is a symlink pointing outside the root')
  })

  it('a dangling link pointing outside is forbidden, not "not found" (no oracle for what exists outside)', async () => {
    expect((await refusal('dangling-out')).code).toBe('forbidden')
  })

  it('a symlink loop: invalid_request after a bounded number of hops', async () => {
    const error = await refusal('loop1')
    expect(error.code).toBe('invalid_request')
    expect(error.message).toContain(`at most ${MAX_SYMLINK_HOPS} symlinks`)
  })

  it('a NUL byte: invalid_request', async () => {
    const error = await refusal('a\u0000b')
    expect(error).toMatchObject({ code: 'invalid_request', details: { expected: 'no NUL bytes' } })
    expect(error.message).toContain('\\u0000')
  })

  it('a 5000-character path and a 300-character component: invalid_request naming the limits', async () => {
    const long = await refusal('a/'.repeat(2500))
    expect(long).toMatchObject({ code: 'invalid_request' })
    expect(long.message).toContain('at most 4096 bytes, found 5000 bytes')
    const component = await refusal(`dir/${'x'.repeat(300)}`)
    expect(component.message).toContain('at most 255 bytes, found one of 300 bytes')
    // Bytes, not characters: 100 three-byte characters are 300 bytes.
    expect((await refusal('€'.repeat(100))).message).toContain('found one of 300 bytes')
  })

  it('"~" is not expanded: invalid_request', async () => {
    for (const requested of ['~', '~/.ssh/id_rsa', 'main:~/x']) {
      const error = await refusal(requested)
      expect(error.code).toBe('invalid_request')
      expect(error.message).toContain('"~" is not expanded')
    }
  })

  it('URL-encoded "%2e%2e/" and encoded separators: invalid_request (paths are never URL-decoded)', async () => {
    for (const requested of ['%2e%2e/%2e%2e/etc/passwd', '%2E%2E', 'dir/%2e', 'a%2fb', '..%2f..%2fetc']) {
      const error = await refusal(requested)
      expect(error.code).toBe('invalid_request')
      expect(error.message).toContain('not URL-decoded')
    }
    // A literal percent sign that decodes to nothing dangerous is an ordinary name.
    expect(await resolveInRoot(roots, '100%25 done.txt')).toMatchObject({ exists: false })
  })

  it('Windows-style "..\\\\..\\\\": invalid_request (backslashes are refused, not treated as names)', async () => {
    for (const requested of ['..\\..\\etc\\passwd', 'dir\\b.txt', 'C:\\Windows']) {
      const error = await refusal(requested)
      expect(error.code).toBe('invalid_request')
      expect(error.message).toContain('backslash')
    }
  })

  it('a lone surrogate and a non-string: invalid_request', async () => {
    expect((await refusal('bad\uD800name')).code).toBe('invalid_request')
    expect((await refusal(42 as unknown as string)).message).toContain('expected a path string, found number')
  })

  it('a path through a file: not_found saying a directory was expected', async () => {
    const error = await refusal('a.txt/more')
    expect(error.code).toBe('not_found')
    expect(error.message).toContain('expected "/a.txt" to be a directory')
  })
})

describe('open-time re-checks (TOCTOU)', () => {
  it('a directory swapped for a symlink to outside after the check is refused when opened', async () => {
    mkdirSync(join(rootDir, 'swap', 'inner'), { recursive: true })
    writeFileSync(join(rootDir, 'swap', 'inner', 'secret.txt'), 'inside')
    mkdirSync(join(outside, 'inner'), { recursive: true })
    writeFileSync(join(outside, 'inner', 'secret.txt'), 'OUTSIDE')
    const resolved = await resolveInRoot(roots, 'swap/inner/secret.txt')
    expect(resolved.exists).toBe(true)

    // The attacker swaps an intermediate directory for a symlink after the check.
    renameSync(join(rootDir, 'swap'), join(rootDir, 'swap-old'))
    symlinkSync(outside, join(rootDir, 'swap'))
    try {
      const error = await openFileForReading(resolved).catch((e: TesseraError) => e)
      expect(error).toBeInstanceOf(TesseraError)
      expect((error as TesseraError).code).toBe('forbidden')
      expect(JSON.stringify((error as TesseraError).toJSON())).not.toContain(base)

      // The final directory swapped: O_NOFOLLOW refuses it.
      const dirResolved = { ...resolved, relative: 'swap', absolute: join(rootDir, 'swap') }
      const dirError = await openDirectory(dirResolved.root, 'swap').catch((e: TesseraError) => e)
      expect(dirError).toMatchObject({ code: 'forbidden' })
    } finally {
      rmSync(join(rootDir, 'swap'))
      renameSync(join(rootDir, 'swap-old'), join(rootDir, 'swap'))
    }
    // Unswapped, the same resolved path opens.
    const opened = await openFileForReading(resolved)
    expect((await opened.handle.readFile()).toString()).toBe('inside')
    await opened.handle.close()
  })

  it('refuses to open a directory or a missing file as a file', async () => {
    await expect(openFileForReading(await resolveInRoot(roots, 'dir'))).rejects.toMatchObject({ code: 'invalid_request' })
    await expect(openFileForReading(await resolveInRoot(roots, 'nope.txt'))).rejects.toMatchObject({ code: 'not_found' })
  })
})

describe('prepareRoots: configuration errors', () => {
  it('refuses bad names, duplicates, relative paths and missing directories', async () => {
    await expect(prepareRoots([])).rejects.toMatchObject({ code: 'invalid_request' })
    await expect(prepareRoots([{ name: 'a b', path: rootDir }])).rejects.toThrow(/root names/)
    await expect(prepareRoots([{ name: 'a', path: rootDir }, { name: 'a', path: outside }])).rejects.toThrow(/unique/)
    await expect(prepareRoots([{ name: 'a', path: 'relative/dir' }])).rejects.toThrow(/absolute/)
    await expect(prepareRoots([{ name: 'a', path: join(base, 'missing') }])).rejects.toThrow(/existing directory/)
    await expect(prepareRoots([{ name: 'a', path: join(rootDir, 'a.txt') }])).rejects.toThrow(/existing directory/)
  })

  it('resolves a root given through a symlink to its real path', async () => {
    symlinkSync(rootDir, join(base, 'root-link'))
    const [root] = await prepareRoots([{ name: 'linked', path: join(base, 'root-link') }])
    expect(root?.real).toBe(rootDir)
    expect(await resolveInRoot([{ name: 'linked', path: join(base, 'root-link') }], 'dir/b.txt')).toMatchObject({ absolute: join(rootDir, 'dir', 'b.txt') })
  })
})
