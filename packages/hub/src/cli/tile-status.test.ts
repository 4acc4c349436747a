import { describe, expect, it } from 'vitest'
import type { Tile } from '@tessera/protocol'
import { tileStatusLines } from './tile-status.js'

const tile = (id: string, kind: string, state: Tile['state'], error?: string): Tile => ({
  id,
  kind,
  title: id,
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  state,
  focused: false,
  frameId: null,
  ...(error === undefined ? {} : { error }),
})

describe('tileStatusLines', () => {
  it('gives every tile its state, and a tile in error its message and a fix', () => {
    const lines = tileStatusLines([tile('claims', 'app', 'running'), tile('files', 'files', 'error', 'file roots: no such folder')], { configFile: '/srv/tessera.config.json', demo: false })
    expect(lines[0]).toMatch(/^claims \(app\)\s+running$/)
    expect(lines[1]).toMatch(/^files \(files\)\s+error$/)
    expect(lines[2]?.trim()).toBe('file roots: no such folder')
    expect(lines[3]?.trim()).toBe('fix: fix the "files" tile in /srv/tessera.config.json, or remove it, and start again')
  })

  it('points a broken demo tile at the build and --no-demo', () => {
    const lines = tileStatusLines([tile('files', 'files', 'error', 'boom')], { configFile: null, demo: true })
    expect(lines.at(-1)).toContain('--no-demo')
  })

  it('says none when nothing is open', () => {
    expect(tileStatusLines([], { configFile: null, demo: false })).toEqual(['none'])
  })
})
