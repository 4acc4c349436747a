import { describe, expect, it } from 'vitest'
import { agentPattern } from './find-pattern.js'

describe('an agent\'s regular expression', () => {
  it('reads slashes as a pattern with flags; global and sticky ones change nothing', () => {
    expect(agentPattern('Error', 'regex').test('an error')).toBe(false)
    expect(agentPattern('/Error/i', 'regex').test('an error')).toBe(true)
    const pattern = agentPattern('/a/gy', 'regex')
    // A test remembers nothing: asked twice, it answers the same.
    expect([pattern.test('a'), pattern.test('a')]).toEqual([true, true])
    expect(agentPattern('/(?<word>caf\\u00e9)/', 'regex').firstMatch('un café')).toEqual({ index: 3, text: 'café' })
  })

  it('reads slashes as part of the pattern where they are a path, not flags', () => {
    expect(agentPattern('/api/', 'filter', false).test('http://host/api/items')).toBe(true)
    expect(agentPattern('/api/', 'filter', false).test('http://host/apis')).toBe(false)
  })

  it('refuses what does not parse, what it cannot run in linear time and what is too long, saying which', () => {
    expect(() => agentPattern('(', 'regex')).toThrow(/expected "regex" to be a regular expression, found "\(": /)
    expect(() => agentPattern('a(?=b)', 'filter', false)).toThrow(/expected "filter" to be a regular expression that runs in time linear in the text it reads \(no lookahead or backreference.*found "a\(\?=b\)": invalid or unsupported Perl syntax/)
    expect(() => agentPattern('/(a)\\1/', 'regex')).toThrow(/runs in time linear/)
    // A named one too; before, it read as the letters "k<c>" and matched "Fail k<c>".
    expect(() => agentPattern('(?<c>Fail) \\k<c>', 'regex')).toThrow(/runs in time linear.*invalid escape sequence: `\\k<c>`/)
    expect(() => agentPattern('/(?<c>x)\\k<c>/u', 'regex')).toThrow(/invalid escape sequence/)
    // Without named groups, JavaScript reads \k as the letter.
    expect(agentPattern('\\k<c>', 'regex').test('k<c>')).toBe(true)
    expect(agentPattern('(?<c>Fail) \\\\k<c>', 'regex').test('Fail \\k<c>')).toBe(true)
    // A lookbehind runs in linear time too.
    expect(agentPattern('(?<!a)b', 'regex').test('cb')).toBe(true)
    expect(agentPattern('(?<=\\$)\\d+', 'regex').firstMatch('costs $12')).toEqual({ index: 7, text: '12' })
    expect(() => agentPattern('a'.repeat(501), 'regex')).toThrow(/at most 500 characters, found 501/)
  })

  it('answers at once where JavaScript\'s engine would backtrack for ever', () => {
    // Each of these takes JavaScript's own engine seconds to years on these texts.
    const texts = ['a'.repeat(100_000), `${'a'.repeat(100_000)}!`, `x${' '.repeat(50_000)}`]
    const answers: Record<string, boolean[]> = {
      '/^(a|aa)*b/i': [false, false, false],
      '(a+)+$': [true, false, false],
      '(?<=x)(a|aa)*b': [false, false, false],
      '\\s*\\s*\\s*y$': [false, false, false],
      '(\\w+\\s?)*!$': [false, true, false],
    }
    for (const [given, expected] of Object.entries(answers)) expect([given, texts.map((text) => agentPattern(given, 'regex').test(text))]).toEqual([given, expected])
  })

  it('runs a find on a text of many lines with its anchors at each line, keeping the agent\'s flags', () => {
    const code = 'import x\nexport function run() {}\n'
    expect(agentPattern('^export function', 'regex').test(code)).toBe(false)
    expect(agentPattern('^export function', 'regex').byLines().test(code)).toBe(true)
    expect(agentPattern('/^EXPORT/i', 'regex').byLines().firstMatch(code)).toEqual({ index: 9, text: 'export' })
  })
})
