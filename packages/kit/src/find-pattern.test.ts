import { describe, expect, it } from 'vitest'
import { agentPattern, byLines } from './find-pattern.js'

describe('an agent\'s regular expression', () => {
  it('reads slashes as a pattern with flags, but never global or sticky ones', () => {
    expect(agentPattern('Error', 'regex').test('an error')).toBe(false)
    expect(agentPattern('/Error/i', 'regex').test('an error')).toBe(true)
    const pattern = agentPattern('/a/gy', 'regex')
    expect(pattern.flags).toBe('')
    // A test remembers nothing: asked twice, it answers the same.
    expect([pattern.test('a'), pattern.test('a')]).toEqual([true, true])
  })

  it('reads slashes as part of the pattern where they are a path, not flags', () => {
    expect(agentPattern('/api/', 'filter', false).test('http://host/api/items')).toBe(true)
    expect(agentPattern('/api/', 'filter', false).test('http://host/apis')).toBe(false)
  })

  it('refuses what does not parse, what can take exponential time and what is too long, saying which', () => {
    expect(() => agentPattern('(', 'regex')).toThrow(/expected "regex" to be a regular expression, found "\(": /)
    expect(() => agentPattern('(a+)+$', 'filter', false)).toThrow(/expected "filter" to be a regular expression without nested repetition/)
    expect(() => agentPattern('/(x*)*y/', 'regex')).toThrow(/nested repetition/)
    // A lookbehind is no repetition: taken, though the checker cannot read it; one that holds a nested repetition is not.
    expect(agentPattern('(?<!a)b', 'regex').test('cb')).toBe(true)
    expect(agentPattern('(?<=\\$)\\d+', 'regex').test('$12')).toBe(true)
    expect(() => agentPattern('(?<!a)(b+)+$', 'regex')).toThrow(/nested repetition/)
    expect(() => agentPattern('a'.repeat(501), 'regex')).toThrow(/at most 500 characters, found 501/)
  })

  it('runs a find on a text of many lines with its anchors at each line, keeping the agent\'s flags', () => {
    const code = 'import x\nexport function run() {}\n'
    expect(agentPattern('^export function', 'regex').test(code)).toBe(false)
    expect(byLines(agentPattern('^export function', 'regex')).test(code)).toBe(true)
    expect(byLines(agentPattern('/^EXPORT/i', 'regex')).flags).toBe('im')
  })
})
