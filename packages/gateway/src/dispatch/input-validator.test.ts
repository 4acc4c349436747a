import { describe, expect, it } from 'vitest'
import { InputValidator } from './input-validator.js'

describe('InputValidator', () => {
  const validator = new InputValidator()

  it('says what a described pattern wants and what it found, not the pattern', () => {
    const schema = { type: 'object', properties: { url: { type: 'string', pattern: '^https?://', description: 'a web address (https://…)' } } }
    expect(validator.validate(schema, { url: 'file:///etc/passwd' })).toEqual([{ path: 'input.url', message: 'expected a web address (https://…), found "file:///etc/passwd"' }])
    expect(validator.validate(schema, { url: 'https://example.org' })).toEqual([])
  })

  it("keeps ajv's words where the schema describes nothing", () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z]+$' }, count: { type: 'integer' } } }
    expect(validator.validate(schema, { name: 'A1', count: 'x' })).toEqual([
      { path: 'input.name', message: 'must match pattern "^[a-z]+$"' },
      { path: 'input.count', message: 'expected integer, found a string "x"' },
    ])
  })

  it('names a field it does not take, and those it does; and what a value of the wrong kind is', () => {
    const schema = { type: 'object', properties: { kind: { type: 'string' }, config: { type: 'object' }, values: { type: 'array' } }, additionalProperties: false }
    expect(validator.validate(schema, { kind: 'browser', url: 'http://x' })).toEqual([{ path: '(input)', message: 'has "url", which it does not take; expected only "kind", "config", "values"' }])
    expect(validator.validate(schema, { values: 'Fast' })).toEqual([{ path: 'input.values', message: 'expected array, found a string "Fast"' }])
  })

  it("runs a schema's pattern in linear time, as a page's WebMCP tool may give one to stop the hub", () => {
    // A backtracking engine takes years on this value; a pattern RE2 cannot run (zod's email format) still runs.
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a|aa)*b$' }, email: { type: 'string', pattern: "^(?!\\.)(?!.*\\.\\.)[A-Za-z0-9_'+.-]*@[a-z.]+$" } } }
    expect(validator.validate(schema, { name: 'a'.repeat(5_000) })).toEqual([{ path: 'input.name', message: 'must match pattern "^(a|aa)*b$"' }])
    expect(validator.validate(schema, { name: 'aab', email: 'ada@example.org' })).toEqual([])
    expect(validator.validate(schema, { email: 'a..b@example.org' })).toHaveLength(1)
  })
})
