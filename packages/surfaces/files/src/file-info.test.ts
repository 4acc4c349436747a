import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { COLOR_TABLE, type ColorCategory, type ColorEntry, colorCategory, compareEntries, gridPosition, permissionString, toFileInfo } from './file-info.js'

describe('FileInfo fields', () => {
  it('formats permissions as ls does', () => {
    expect(permissionString(0o755)).toBe('rwxr-xr-x')
    expect(permissionString(0o640)).toBe('rw-r-----')
    expect(permissionString(0o4755)).toBe('rwsr-xr-x')
    expect(permissionString(0o2644)).toBe('rw-r-Sr--')
    expect(permissionString(0o1777)).toBe('rwxrwxrwt')
    expect(permissionString(0o1776)).toBe('rwxrwxrwT')
    expect(permissionString(0o100644)).toBe('rw-r--r--')
  })

  it('places entries on an 8 × 120 px grid under the 80 px header', () => {
    expect(gridPosition(0)).toEqual({ x: 0, y: 80 })
    expect(gridPosition(7)).toEqual({ x: 840, y: 80 })
    expect(gridPosition(8)).toEqual({ x: 0, y: 200 })
    expect(gridPosition(17, { columns: 4, cell: 50, top: 80 })).toEqual({ x: 50, y: 280 })
  })

  it('sorts directories first, then by code unit, independent of locale', () => {
    const entries = [
      { name: 'b', file_type: 'file' as const },
      { name: 'Z', file_type: 'directory' as const },
      { name: 'a', file_type: 'directory' as const },
      { name: 'B', file_type: 'file' as const },
      { name: 'é', file_type: 'file' as const },
      { name: '.x', file_type: 'symlink' as const },
    ]
    expect(entries.sort(compareEntries).map((e) => e.name)).toEqual(['Z', 'a', '.x', 'B', 'b', 'é'])
  })

  it('colours by type, then exact name, then extension', () => {
    expect(colorCategory('src', 'directory')).toBe('directory')
    expect(colorCategory('x.ts', 'symlink')).toBe('symlink')
    expect(colorCategory('fifo', 'other')).toBe('other')
    expect(colorCategory('Main.TS', 'file')).toBe('code')
    expect(colorCategory('Dockerfile', 'file')).toBe('code')
    expect(colorCategory('backup.tar.gz', 'file')).toBe('archive')
    expect(colorCategory('.env', 'file')).toBe('file')
    expect(colorCategory('prod.env', 'file')).toBe('config')
    expect(colorCategory('trailing.', 'file')).toBe('file')
    expect(colorCategory('README', 'file')).toBe('text')
  })

  it('builds a FileInfo with the documented fields only', () => {
    const info = toFileInfo('a.png', '/img/a.png', 'file', { size: 42, mode: 0o100644, mtimeMs: Date.UTC(2024, 0, 2, 3, 4, 5, 678.9) }, 9)
    expect(info).toEqual({ name: 'a.png', path: '/img/a.png', file_type: 'file', size: 42, permissions: 'rw-r--r--', modified: '2024-01-02T03:04:05.678Z', x: 120, y: 200, color: 0xec407a })
  })
})

describe('docs/files.md', () => {
  it('documents exactly the colour table the code uses', () => {
    const doc = readFileSync(new URL('../../../../docs/files.md', import.meta.url), 'utf8')
    const rows = doc.split('\n').filter((line) => /^\| `[a-z]+` \| `#[0-9a-f]{6}`/.test(line))
    const documented = Object.fromEntries(
      rows.map((row) => {
        const [, category, hex, color, description, list] = /^\| `([a-z]+)` \| `(#[0-9a-f]{6})` \((\d+)\) \| (.+?) \| (.+) \|$/.exec(row) ?? []
        return [category, { hex, color: Number(color), description, list: list === '—' ? [] : (list ?? '').split(' ') }]
      }),
    )
    const actual = Object.fromEntries(
      (Object.entries(COLOR_TABLE) as Array<[ColorCategory, ColorEntry]>).map(([category, entry]) => [
        category,
        { hex: entry.hex, color: entry.color, description: entry.description, list: [...entry.extensions.map((e) => `.${e}`), ...entry.names] },
      ]),
    )
    expect(documented).toEqual(actual)
  })
})
