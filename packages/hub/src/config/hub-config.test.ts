import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadHubConfig } from './hub-config.js'

describe('loadHubConfig', () => {
  const cwd = process.cwd()
  afterEach(() => process.chdir(cwd))

  it('resolves the default, relative data folder against the working directory, once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-config-'))
    try {
      process.chdir(dir)
      const config = loadHubConfig({ env: {} })
      expect(config.dataDir).toBe(join(dir, '.tessera'))
      const relative = loadHubConfig({ env: {}, overrides: { dataDir: 'state/hub' } })
      expect(relative.dataDir).toBe(join(dir, 'state/hub'))
      process.chdir(tmpdir())
      // Moving afterwards changes nothing: the folder is absolute already.
      expect(config.dataDir).toBe(join(dir, '.tessera'))
    } finally {
      process.chdir(cwd)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
