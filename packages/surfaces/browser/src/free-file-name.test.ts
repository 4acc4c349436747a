import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { freeFileName } from './free-file-name.js'

describe('freeFileName', () => {
  const folders: string[] = []
  const folder = (): string => {
    const made = mkdtempSync(join(tmpdir(), 'tessera-free-name-'))
    folders.push(made)
    return made
  }
  afterEach(() => {
    for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true })
  })

  it('keeps a name no file has, and numbers one a file or a download under way has, as a browser does', () => {
    const dir = folder()
    expect(freeFileName(dir, 'report.csv')).toBe(join(dir, 'report.csv'))
    writeFileSync(join(dir, 'report.csv'), 'a')
    expect(freeFileName(dir, 'report.csv')).toBe(join(dir, 'report (1).csv'))
    expect(freeFileName(dir, 'report.csv', new Set([join(dir, 'report (1).csv')]))).toBe(join(dir, 'report (2).csv'))
    writeFileSync(join(dir, 'notes'), 'a')
    expect(freeFileName(dir, 'notes')).toBe(join(dir, 'notes (1)'))
    writeFileSync(join(dir, 'archive.tar.gz'), 'a')
    expect(freeFileName(dir, 'archive.tar.gz')).toBe(join(dir, 'archive (1).tar.gz'))
  })
})
