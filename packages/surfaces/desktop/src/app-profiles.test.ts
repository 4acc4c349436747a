import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keepTemplate, seedProfile } from './app-profiles.js'

describe('profile templates', () => {
  const root = mkdtempSync(join(tmpdir(), 'tessera-profiles-'))
  const before = process.env.XDG_CACHE_HOME
  beforeAll(() => {
    process.env.XDG_CACHE_HOME = join(root, 'cache')
  })
  afterAll(() => {
    if (before === undefined) delete process.env.XDG_CACHE_HOME
    else process.env.XDG_CACHE_HOME = before
    rmSync(root, { recursive: true, force: true })
  })

  it('keep a first fresh profile, lock files left out, and seed the next tiles with it', () => {
    const first = join(root, 'tile-1', 'profile')
    expect(seedProfile('app', first)).toBe(false)
    mkdirSync(join(first, 'user'), { recursive: true })
    writeFileSync(join(first, 'user', 'registrymodifications.xcu'), '<items/>')
    writeFileSync(join(first, '.lock'), 'held by tile 1')
    keepTemplate('app', first)
    const second = join(root, 'tile-2', 'profile')
    expect(seedProfile('app', second)).toBe(true)
    expect(readFileSync(join(second, 'user', 'registrymodifications.xcu'), 'utf8')).toBe('<items/>')
    expect(existsSync(join(second, '.lock'))).toBe(false)
    // A template is made once: what a later tile did never replaces it.
    writeFileSync(join(second, 'user', 'registrymodifications.xcu'), '<items>recent: secret.ods</items>')
    keepTemplate('app', second)
    const third = join(root, 'tile-3', 'profile')
    seedProfile('app', third)
    expect(readFileSync(join(third, 'user', 'registrymodifications.xcu'), 'utf8')).toBe('<items/>')
  })
})
