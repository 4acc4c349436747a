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
      { path: 'input.count', message: 'must be integer' },
    ])
  })
})
