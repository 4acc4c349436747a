import { describe, expect, it } from 'vitest'
import { CaptureBuffer } from './capture-buffer.js'
import { MarkerParser } from './marker-parser.js'
import { OutputLog } from './output-log.js'
import { compilePattern } from './pattern.js'
import { TextCleaner, cleanTerminalText } from './text-cleaner.js'

describe('MarkerParser', () => {
  const intro = '\x1b]633;abc;'

  it('splits text and markers, also when a marker arrives in pieces', () => {
    const parser = new MarkerParser(intro)
    const stream = `hello${intro}C\x07out\r\n${intro}D;0;1;/tmp\x07`
    const segments = []
    for (let i = 0; i < stream.length; i += 3) segments.push(...parser.push(stream.slice(i, i + 3)))
    const texts = segments.filter((s) => 'text' in s).map((s) => ('text' in s ? s.text : '')).join('')
    const markers = segments.filter((s) => 'marker' in s).map((s) => ('marker' in s ? s.marker : ''))
    expect(texts).toBe('hello' + 'out\r\n')
    expect(markers).toEqual(['C', 'D;0;1;/tmp'])
  })

  it('leaves lookalike sequences with another nonce in the text', () => {
    const parser = new MarkerParser(intro)
    const forged = '\x1b]633;xyz;D;0\x07'
    expect(parser.push(`a${forged}b`)).toEqual([{ text: `a${forged}b` }])
  })
})

describe('TextCleaner', () => {
  it('removes escape sequences, CR before LF and other controls, across chunk boundaries', () => {
    const cleaner = new TextCleaner()
    const raw = '\x1b[31mred\x1b[0m\r\n\x1b]0;title\x07plain\x1b[?2004h\r\n\x1bPdcs\x1b\\done\b\x07\r\n'
    let out = ''
    for (const ch of raw) out += cleaner.push(ch)
    expect(out).toBe('red\nplain\ndone\n')
  })

  it('drops a lone carriage return', () => {
    expect(cleanTerminalText('10%\r50%\r100%\r\n')).toBe('10%50%100%\n')
  })
})

describe('OutputLog', () => {
  it('reads by offset, line and tail', () => {
    const log = new OutputLog(64 * 1024)
    log.append('zero\none\ntwo\nthree')
    expect(log.read(5).text).toBe('one\ntwo\nthree')
    expect(log.offsetOfLine(2)).toBe(9)
    expect(log.read(log.offsetOfLine(2)).text).toBe('two\nthree')
    expect(log.read(log.offsetOfTail(2)).text).toBe('two\nthree')
    expect(log.read(5, 4)).toMatchObject({ text: 'one\n', next: 9, more: true, line: 1 })
  })

  it('says how much was dropped instead of silently starting later', () => {
    const log = new OutputLog(64 * 1024)
    const block = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < 200; i++) log.append(block)
    expect(log.start).toBeGreaterThan(0)
    const slice = log.read(0, 10)
    expect(slice.offset).toBe(log.start)
    expect(slice.dropped).toBe(log.start)
    expect(slice.line).toBe(log.start / 1024)
    expect(log.end).toBe(200 * 1024)
  })
})

describe('CaptureBuffer', () => {
  it('keeps everything under the limit', () => {
    const capture = new CaptureBuffer(100)
    capture.append('a'.repeat(60))
    capture.append('b'.repeat(40))
    expect(capture.result()).toEqual({ text: 'a'.repeat(60) + 'b'.repeat(40), truncated: false, bytes: 100, omittedBytes: 0 })
  })

  it('keeps head and tail over the limit and says how much it left out', () => {
    const capture = new CaptureBuffer(100)
    for (let i = 0; i < 100; i++) capture.append(`${String(i).padStart(3, '0')}\n`)
    const result = capture.result()
    expect(result.truncated).toBe(true)
    expect(result.bytes).toBe(400)
    expect(result.omittedBytes).toBe(300)
    expect(result.text.startsWith('000\n001\n')).toBe(true)
    expect(result.text.endsWith('098\n099\n')).toBe(true)
    expect(result.text).toContain('[… 300 bytes omitted …]')
  })
})

describe('compilePattern', () => {
  it('matches plain text and /regex/flags', () => {
    expect(compilePattern('>>> ').find('x\n>>> ')).toEqual({ match: '>>> ', end: 6 })
    expect(compilePattern('/v(\\d+)/i').find('build V12 ok')).toEqual({ match: 'V12', end: 9 })
    expect(() => compilePattern('/(/')).toThrow(/expected "pattern" to be a regular expression, found/)
    expect(() => compilePattern('/x/g')).toThrow(/unsupported regex flags/)
    // Output is whatever a program printed: a pattern a backtracking engine takes exponential time on runs in linear time; one RE2 cannot bound is refused.
    expect(compilePattern('/^(a|aa)*b$/m').find(`${'a'.repeat(100_000)}\nab`)).toEqual({ match: 'ab', end: 100_003 })
    expect(() => compilePattern('/done(?=\\n)/')).toThrow(/expected "pattern" to be a regular expression that runs in time linear/)
  })
})
