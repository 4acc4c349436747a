import { describe, expect, it } from 'vitest'
import { TesseraError } from '../errors.js'
import type { JsonObject } from '../schemas/json.js'
import type { ConditionAst } from './ast.js'
import { compileCondition, compileConditions } from './compile.js'
import { checkCondition, evaluateCondition } from './evaluate.js'
import { MAX_STEPS, MAX_STRING_LENGTH } from './limits.js'
import { parseCondition } from './parse.js'

const state: JsonObject = {
  claim: { id: 'c-1', status: 'ready', fraudScore: 0.42, amount: 900, tags: ['auto', 'urgent'], note: null, details: { region: 'EU' } },
  actor: { role: 'approver', name: 'Ada' },
  input: { amount: 1000 },
  claims: [{ id: 'c-1' }, { id: 'c-2' }],
  empty: [],
  text: 'Hello World',
}

const evaluate = (source: string, scope: JsonObject = state) => evaluateCondition(parseCondition(source), scope)
const check = (source: string, scope: JsonObject = state) => checkCondition(parseCondition(source), scope)

function runtimeError(source: string, scope: JsonObject = state): TesseraError {
  try {
    evaluate(source, scope)
  } catch (error) {
    expect(error).toBeInstanceOf(TesseraError)
    expect((error as TesseraError).code).toBe('condition_error')
    return error as TesseraError
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`)
}

describe('evaluateCondition: the documented examples', () => {
  it('evaluates them against a claim', () => {
    expect(check('claim.status === "ready"')).toBe(true)
    expect(check('claim.fraudScore < 0.75')).toBe(true)
    expect(check('actor.role in ["admin","approver"] && input.amount <= 1000')).toBe(true)
    expect(check('len(claims) > 0')).toBe(true)
  })

  it('changes its answer when the state does', () => {
    const risky: JsonObject = { ...state, claim: { status: 'draft', fraudScore: 0.9 }, actor: { role: 'agent' }, claims: [] }
    expect(check('claim.status === "ready"', risky)).toBe(false)
    expect(check('claim.fraudScore < 0.75', risky)).toBe(false)
    expect(check('actor.role in ["admin","approver"] && input.amount <= 1000', risky)).toBe(false)
    expect(check('len(claims) > 0', risky)).toBe(false)
  })
})

describe('evaluateCondition: members', () => {
  it('reads nested members, computed keys and array indexes', () => {
    expect(evaluate('claim.details.region')).toBe('EU')
    expect(evaluate('claim["details"]["region"]')).toBe('EU')
    expect(evaluate('claims[1].id')).toBe('c-2')
    expect(evaluate('claim.tags[len(claim.tags) - 1]')).toBe('urgent')
  })

  it('gives .length of arrays and strings', () => {
    expect(evaluate('claims.length')).toBe(2)
    expect(evaluate('text.length')).toBe(11)
    expect(evaluate('claim.tags["length"]')).toBe(2)
  })

  it('reads `length` of an object as an ordinary own key', () => {
    expect(evaluate('o.length', { o: { length: 7 } })).toBe(7)
    expect(evaluate('o.length', { o: {} })).toBeUndefined()
  })

  it('yields undefined for a missing property, name or index, distinct from null', () => {
    expect(evaluate('claim.missing')).toBeUndefined()
    expect(evaluate('nobody')).toBeUndefined()
    expect(evaluate('claims[5]')).toBeUndefined()
    expect(evaluate('claim.note')).toBeNull()
    expect(check('claim.note === null')).toBe(true)
    expect(check('claim.missing === null')).toBe(false)
    expect(check('claim.missing === undefined')).toBe(true)
  })

  it('fails with the path when reading a property of undefined or null', () => {
    const missing = runtimeError('claim.missing.deeper')
    expect(missing.details).toMatchObject({
      source: 'claim.missing.deeper',
      path: 'claim.missing.deeper',
      expected: 'claim.missing to be an object or array',
      found: 'undefined (missing)',
    })
    expect(missing.message).toContain('expected claim.missing to be an object or array, found undefined (missing)')
    expect(runtimeError('claim.note.text').details).toMatchObject({ path: 'claim.note.text', found: 'null' })
  })

  it('refuses indexes that are not non-negative integers, and members of scalars', () => {
    expect(runtimeError('claims[-1]').details).toMatchObject({ expected: 'a non-negative integer index or `length` on an array', found: 'number -1' })
    expect(runtimeError('claims[0.5]').details).toMatchObject({ found: 'number 0.5' })
    expect(runtimeError('claims["0"]').details).toMatchObject({ found: 'string "0"' })
    expect(runtimeError('claims.first').details).toMatchObject({ found: 'string "first"' })
    expect(runtimeError('claim[1]').details).toMatchObject({ expected: 'a string key on an object', found: 'number 1' })
    expect(runtimeError('text[0]').details).toMatchObject({ expected: '`length`, the only property of a string' })
    expect(runtimeError('claim.amount.value').details).toMatchObject({ found: 'number 900' })
  })
})

describe('evaluateCondition: equality and comparison', () => {
  it('treats == and != exactly like === and !== (no coercion)', () => {
    expect(check('input.amount == "1000"')).toBe(false)
    expect(check('input.amount != "1000"')).toBe(true)
    expect(check('claim.note == claim.missing')).toBe(false)
    expect(check('0 == false')).toBe(false)
    expect(check('"" == 0')).toBe(false)
  })

  it('compares arrays and objects structurally, ignoring key order', () => {
    expect(check('claim.tags === ["auto", "urgent"]')).toBe(true)
    expect(check('claim.tags === ["urgent", "auto"]')).toBe(false)
    expect(check('a === b', { a: { x: 1, y: [1, { z: null }] }, b: { y: [1, { z: null }], x: 1 } })).toBe(true)
    expect(check('a === b', { a: { x: 1 }, b: { x: 1, y: 2 } })).toBe(false)
    expect(check('a !== b', { a: [1], b: { 0: 1 } })).toBe(true)
  })

  it('orders two numbers or two strings', () => {
    expect(check('1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3')).toBe(true)
    expect(check('"apple" < "banana"')).toBe(true)
    expect(check('"Z" < "a"')).toBe(true)
  })

  it('refuses to order mixed or non-scalar operands', () => {
    const error = runtimeError('claim.status < 1')
    expect(error.details).toMatchObject({
      path: 'claim.status < 1',
      expected: 'two numbers or two strings for `<`',
      found: 'string "ready" and number 1',
    })
    expect(runtimeError('claim.missing > 0').details).toMatchObject({ found: 'undefined (missing) and number 0' })
    expect(runtimeError('null >= 0').details).toMatchObject({ found: 'null and number 0' })
    expect(runtimeError('claims < claims').details).toMatchObject({ found: 'array(2) and array(2)' })
  })
})

describe('evaluateCondition: arithmetic', () => {
  it('computes with finite numbers', () => {
    expect(evaluate('1 + 2 * 3 - 4 / 2')).toBe(5)
    expect(evaluate('7 % 3')).toBe(1)
    expect(evaluate('-claim.amount + +input.amount')).toBe(100)
    expect(check('input.amount - claim.amount === 100')).toBe(true)
  })

  it('concatenates two strings with +', () => {
    expect(evaluate('actor.name + "!"')).toBe('Ada!')
  })

  it('refuses mixed operands and non-finite results', () => {
    expect(runtimeError('actor.name + 1').details).toMatchObject({ expected: 'two numbers (or two strings) for `+`', found: 'string "Ada" and number 1' })
    expect(runtimeError('"3" * 2').details).toMatchObject({ expected: 'two numbers for `*`' })
    expect(runtimeError('1 / 0').details).toMatchObject({ expected: 'a finite result', found: 'division by zero' })
    expect(runtimeError('1 % 0').details).toMatchObject({ found: 'division by zero' })
    expect(runtimeError('1e308 * 10').details).toMatchObject({ expected: 'a finite result', found: 'Infinity' })
    expect(runtimeError('-actor.name').details).toMatchObject({ expected: 'a number for `-`', found: 'string "Ada"' })
    expect(runtimeError('+true').details).toMatchObject({ expected: 'a number for `+`' })
  })
})

describe('evaluateCondition: logic', () => {
  it('short-circuits && and ||', () => {
    expect(check('false && claim.missing.deeper')).toBe(false)
    expect(check('true || claim.missing.deeper')).toBe(true)
    expect(check('!(claim.status === "draft")')).toBe(true)
  })

  it('takes booleans only, so 0, "" and missing fields never mean "no" by accident', () => {
    expect(runtimeError('claim.amount && true').details).toMatchObject({ path: 'claim.amount', expected: 'a boolean for `&&`', found: 'number 900' })
    expect(runtimeError('true && claim.status').details).toMatchObject({ path: 'claim.status', found: 'string "ready"' })
    expect(runtimeError('false || claim.missing').details).toMatchObject({ found: 'undefined (missing)' })
    expect(runtimeError('!claim.note').details).toMatchObject({ expected: 'a boolean for `!`', found: 'null' })
    expect(runtimeError('claim.amount ? 1 : 2').details).toMatchObject({ expected: 'a boolean for `? :`' })
  })

  it('uses ?? for null and missing values only', () => {
    expect(evaluate('claim.note ?? "none"')).toBe('none')
    expect(evaluate('claim.missing ?? 0')).toBe(0)
    expect(evaluate('claim.amount ?? 0')).toBe(900)
    expect(evaluate('false ?? true')).toBe(false)
    expect(check('(claim.missing ?? 0) < 1')).toBe(true)
  })

  it('picks a branch of the conditional', () => {
    expect(evaluate('claim.amount > 500 ? "big" : "small"')).toBe('big')
    expect(evaluate('claim.amount > 5000 ? "big" : "small"')).toBe('small')
  })
})

describe('evaluateCondition: in', () => {
  it('tests membership in an array by structural equality', () => {
    expect(check('"urgent" in claim.tags')).toBe(true)
    expect(check('"late" in claim.tags')).toBe(false)
    expect(check('claims[1] in claims')).toBe(true)
    expect(check('[1, 2] in [[1, 2], [3]]')).toBe(true)
    expect(check('1 in ["1"]')).toBe(false)
  })

  it('tests own keys of an object', () => {
    expect(check('"status" in claim')).toBe(true)
    expect(check('"missing" in claim')).toBe(false)
    expect(check('"note" in claim')).toBe(true)
    expect(check('"toString" in claim')).toBe(false)
    expect(check('"hasOwnProperty" in claim')).toBe(false)
  })

  it('refuses other operands', () => {
    expect(runtimeError('"a" in text').details).toMatchObject({ expected: 'an array or object on the right of `in`', found: 'string "Hello World"' })
    expect(runtimeError('1 in claim').details).toMatchObject({ expected: 'a string key on the left of `in` an object', found: 'number 1' })
  })
})

describe('evaluateCondition: functions', () => {
  it('len counts strings, arrays and object keys', () => {
    expect(evaluate('len(text)')).toBe(11)
    expect(evaluate('len(empty)')).toBe(0)
    expect(evaluate('len(claim.details)')).toBe(1)
    expect(runtimeError('len(claim.amount)').details).toMatchObject({
      path: 'len(claim.amount)',
      expected: 'argument 1 of len() to be a string, array or object',
      found: 'number 900',
    })
  })

  it('lower and upper change case', () => {
    expect(evaluate('lower(text)')).toBe('hello world')
    expect(evaluate('upper(actor.name)')).toBe('ADA')
    expect(runtimeError('lower(1)').details).toMatchObject({ expected: 'argument 1 of lower() to be a string' })
  })

  it('includes searches arrays structurally and strings by substring', () => {
    expect(evaluate('includes(claim.tags, "auto")')).toBe(true)
    expect(evaluate('includes(claims, claims[0])')).toBe(true)
    expect(evaluate('includes(text, "World")')).toBe(true)
    expect(evaluate('includes(text, "world")')).toBe(false)
    expect(runtimeError('includes(text, 1)').details).toMatchObject({ expected: 'argument 2 of includes() to be a string when searching a string' })
    expect(runtimeError('includes(1, 1)').details).toMatchObject({ expected: 'argument 1 of includes() to be an array or a string' })
  })

  it('startsWith and endsWith', () => {
    expect(evaluate('startsWith(claim.id, "c-")')).toBe(true)
    expect(evaluate('endsWith(text, "World")')).toBe(true)
    expect(runtimeError('startsWith(claim.id, 1)').details).toMatchObject({ expected: 'argument 2 of startsWith() to be a string' })
  })

  it('abs, round, min and max', () => {
    expect(evaluate('abs(-3)')).toBe(3)
    expect(evaluate('round(2.5)')).toBe(3)
    expect(evaluate('round(-2.5)')).toBe(-2)
    expect(evaluate('min(3, 1, 2)')).toBe(1)
    expect(evaluate('max(3, 1, 2)')).toBe(3)
    expect(evaluate('max(xs)', { xs: [4, 9, 2] })).toBe(9)
    expect(evaluate('min(5)')).toBe(5)
    expect(runtimeError('max(empty)').details).toMatchObject({ expected: 'a non-empty array for max()' })
    expect(runtimeError('min(1, "2")').details).toMatchObject({ expected: 'every value passed to min() to be a finite number', found: 'string "2"' })
    expect(runtimeError('abs(claim.missing)').details).toMatchObject({ found: 'undefined (missing)' })
  })
})

describe('evaluateCondition: array literals and results', () => {
  it('builds arrays from evaluated elements', () => {
    expect(evaluate('[claim.amount, actor.name, null]')).toEqual([900, 'Ada', null])
  })

  it('refuses undefined inside an array literal, which JSON cannot hold', () => {
    expect(runtimeError('[claim.missing]').details).toMatchObject({ path: 'claim.missing', expected: 'a JSON value in an array literal' })
  })

  it('returns objects from the scope as they are', () => {
    expect(evaluate('claim.details')).toEqual({ region: 'EU' })
  })
})

describe('checkCondition', () => {
  it('insists on a boolean result', () => {
    for (const [source, found] of [
      ['claim.amount', 'number 900'],
      ['claim.status', 'string "ready"'],
      ['claim.missing', 'undefined (missing)'],
      ['claim.note', 'null'],
      ['claims', 'array(2)'],
    ] as const) {
      let error: unknown
      try {
        check(source)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(TesseraError)
      expect((error as TesseraError).code).toBe('condition_error')
      expect((error as TesseraError).details).toMatchObject({ source, expected: 'the condition to evaluate to true or false', found })
    }
  })
})

describe('budgets', () => {
  it(`stops after ${MAX_STEPS} steps, counting values visited by deep comparison`, () => {
    const big = Array.from({ length: MAX_STEPS }, (_, i) => i)
    const error = runtimeError('-1 in big', { big })
    expect(error.details).toMatchObject({ expected: `at most ${MAX_STEPS} evaluation steps`, found: 'a condition that needs more' })
    expect(check('0 in big', { big })).toBe(true)
  })

  it('accepts a smaller or larger budget from the caller', () => {
    const ast = parseCondition('1 + 1 === 2')
    expect(() => evaluateCondition(ast, {}, { maxSteps: 2 })).toThrow(TesseraError)
    expect(evaluateCondition(ast, {}, { maxSteps: 10 })).toBe(true)
  })

  it(`caps strings built by + at ${MAX_STRING_LENGTH} characters`, () => {
    const half = 'x'.repeat(MAX_STRING_LENGTH / 2 + 1)
    expect(runtimeError('s + s', { s: half }).details).toMatchObject({
      expected: `a string of at most ${MAX_STRING_LENGTH} characters`,
      found: `${MAX_STRING_LENGTH + 2} characters`,
    })
    expect(evaluate('len(s + "")', { s: half })).toBe(half.length)
  })
})

describe('compileCondition', () => {
  it('parses once and evaluates many times', () => {
    const compiled = compileCondition('claim.fraudScore < 0.75')
    expect(compiled.source).toBe('claim.fraudScore < 0.75')
    expect(compiled.ast).toEqual(parseCondition('claim.fraudScore < 0.75'))
    for (let score = 0; score <= 1; score += 0.25) {
      expect(compiled.check({ claim: { fraudScore: score } })).toBe(score < 0.75)
      expect(compiled.evaluate({ claim: { fraudScore: score } })).toBe(score < 0.75)
    }
  })

  it('quotes the original source, not a reprint, in runtime errors', () => {
    const compiled = compileCondition('claim . fraudScore<0.75')
    let error: unknown
    try {
      compiled.check({ claim: { fraudScore: 'high' } })
    } catch (caught) {
      error = caught
    }
    expect((error as TesseraError).details).toMatchObject({ source: 'claim . fraudScore<0.75', path: 'claim.fraudScore < 0.75' })
  })

  it('throws invalid_condition for a bad source, at compile time', () => {
    expect(() => compileCondition('a =')).toThrow(TesseraError)
  })
})

describe('compileConditions', () => {
  it('compiles a list', () => {
    const compiled = compileConditions(['claim.status === "ready"', 'len(claims) > 0'])
    expect(compiled.map((c) => c.check(state))).toEqual([true, true])
  })

  it('names the entry that failed', () => {
    let error: unknown
    try {
      compileConditions(['true', 'a.b()'])
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(TesseraError)
    expect((error as TesseraError).code).toBe('invalid_condition')
    expect((error as TesseraError).message).toMatch(/^Condition 2 of 2: Invalid condition "a\.b\(\)"/)
    expect((error as TesseraError).details).toMatchObject({ index: 1, source: 'a.b()' })
  })
})

describe('hand-built trees', () => {
  it('are checked at run time as well, since they never passed the parser', () => {
    const calls: ConditionAst = { kind: 'call', callee: 'eval', arguments: [] }
    const forbidden: ConditionAst = { kind: 'member', computed: false, object: { kind: 'identifier', name: 'a' }, name: '__proto__' }
    const bogus = { kind: 'with', body: [] } as unknown as ConditionAst
    for (const ast of [calls, forbidden, bogus]) {
      expect(() => evaluateCondition(ast, { a: {} })).toThrow(TesseraError)
    }
  })

  it('refuses a tree deeper than the limit instead of overflowing the stack', () => {
    let ast: ConditionAst = { kind: 'literal', value: true }
    for (let i = 0; i < 100_000; i++) ast = { kind: 'unary', operator: '!', argument: ast }
    expect(() => evaluateCondition(ast, {})).toThrow(TesseraError)
  })

  it('refuses a scope that is not a plain object', () => {
    expect(() => evaluateCondition(parseCondition('true'), [] as unknown as JsonObject)).toThrow(TesseraError)
  })

  it('refuses non-JSON values found in the scope', () => {
    const scope = { f: () => 1, d: new Date(0), n: Number.NaN } as unknown as JsonObject
    for (const source of ['f', 'd', 'n', 'd.x']) {
      expect(() => evaluateCondition(parseCondition(source), scope)).toThrow(TesseraError)
    }
  })
})
