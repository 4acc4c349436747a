import jsep from 'jsep'
import { describe, expect, it } from 'vitest'
import { TesseraError } from '../errors.js'
import type { ConditionAst } from './ast.js'
import { MAX_DEPTH, MAX_NODES, MAX_SOURCE_LENGTH } from './limits.js'
import { parseCondition } from './parse.js'
import { printCondition } from './print.js'

function parseError(source: string): TesseraError {
  try {
    parseCondition(source)
  } catch (error) {
    expect(error).toBeInstanceOf(TesseraError)
    return error as TesseraError
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused`)
}

const id = (name: string): ConditionAst => ({ kind: 'identifier', name })
const lit = (value: string | number | boolean | null): ConditionAst => ({ kind: 'literal', value })
const dot = (object: ConditionAst, name: string): ConditionAst => ({ kind: 'member', computed: false, object, name })

describe('parseCondition: the documented examples', () => {
  it('parses a string equality on a member', () => {
    expect(parseCondition('claim.status === "ready"')).toEqual({
      kind: 'binary',
      operator: '===',
      left: dot(id('claim'), 'status'),
      right: lit('ready'),
    })
  })

  it('parses a numeric comparison', () => {
    expect(parseCondition('claim.fraudScore < 0.75')).toEqual({
      kind: 'binary',
      operator: '<',
      left: dot(id('claim'), 'fraudScore'),
      right: lit(0.75),
    })
  })

  it('parses `in` with an array literal, joined by && at lower precedence', () => {
    expect(parseCondition('actor.role in ["admin","approver"] && input.amount <= 1000')).toEqual({
      kind: 'logical',
      operator: '&&',
      left: {
        kind: 'binary',
        operator: 'in',
        left: dot(id('actor'), 'role'),
        right: { kind: 'array', elements: [lit('admin'), lit('approver')] },
      },
      right: { kind: 'binary', operator: '<=', left: dot(id('input'), 'amount'), right: lit(1000) },
    })
  })

  it('parses a whitelisted call', () => {
    expect(parseCondition('len(claims) > 0')).toEqual({
      kind: 'binary',
      operator: '>',
      left: { kind: 'call', callee: 'len', arguments: [id('claims')] },
      right: lit(0),
    })
  })
})

describe('parseCondition: the rest of the language', () => {
  it('parses computed members, unary operators, ?? and the conditional', () => {
    expect(parseCondition('items[0]')).toEqual({ kind: 'member', computed: true, object: id('items'), property: lit(0) })
    expect(parseCondition('!done')).toEqual({ kind: 'unary', operator: '!', argument: id('done') })
    expect(parseCondition('-x')).toEqual({ kind: 'unary', operator: '-', argument: id('x') })
    expect(parseCondition('+x')).toEqual({ kind: 'unary', operator: '+', argument: id('x') })
    expect(parseCondition('a ?? 1')).toEqual({ kind: 'logical', operator: '??', left: id('a'), right: lit(1) })
    expect(parseCondition('a ? 1 : 2')).toEqual({ kind: 'conditional', test: id('a'), consequent: lit(1), alternate: lit(2) })
  })

  it('parses literals true, false, null, numbers and both quote styles', () => {
    expect(parseCondition('true')).toEqual(lit(true))
    expect(parseCondition('false')).toEqual(lit(false))
    expect(parseCondition('null')).toEqual(lit(null))
    expect(parseCondition('1.5e3')).toEqual(lit(1500))
    expect(parseCondition("'it\\'s'")).toEqual(lit("it's"))
    expect(parseCondition('"tab\\there"')).toEqual(lit('tab\there'))
  })

  it('follows JavaScript precedence', () => {
    expect(printCondition(parseCondition('1 + 2 * 3 === 7 || a && b'))).toBe('((1 + (2 * 3)) === 7) || (a && b)')
    expect(printCondition(parseCondition('a - b - c'))).toBe('(a - b) - c')
    expect(printCondition(parseCondition('x + 1 in xs'))).toBe('(x + 1) in xs')
  })

  it('accepts every binary and logical operator of the language', () => {
    for (const op of ['===', '!==', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'in']) {
      expect(parseCondition(`a ${op} b`)).toMatchObject({ kind: 'binary', operator: op })
    }
    for (const op of ['&&', '||', '??']) {
      expect(parseCondition(`a ${op} b`)).toMatchObject({ kind: 'logical', operator: op })
    }
  })

  it('does not mistake names that start with "in" for the operator', () => {
    expect(parseCondition('input.index')).toEqual(dot(id('input'), 'index'))
    expect(parseError('a index').code).toBe('invalid_condition')
  })

  it('allows keywords as property names after a dot', () => {
    expect(parseCondition('a.in')).toEqual(dot(id('a'), 'in'))
    expect(parseCondition('a.new')).toEqual(dot(id('a'), 'new'))
  })

  it('returns frozen trees so a compiled condition cannot be altered', () => {
    const ast = parseCondition('a.b === [1, 2]')
    expect(Object.isFrozen(ast)).toBe(true)
    if (ast.kind !== 'binary' || ast.right.kind !== 'array') throw new Error('unexpected shape')
    expect(Object.isFrozen(ast.right.elements)).toBe(true)
  })

  it('round-trips through printCondition', () => {
    for (const source of [
      'claim.status === "ready"',
      'actor.role in ["admin", "approver"] && input.amount <= 1000',
      'a ? -b : (c ?? "x\\n\\"y\\"")',
      'max(1, 2, x[0]) % 2 !== 0',
      '(1.5).length',
      'a[b[c]]["d"]',
    ]) {
      const ast = parseCondition(source)
      expect(parseCondition(printCondition(ast))).toEqual(ast)
    }
  })
})

describe('parseCondition: refusals', () => {
  const refusals: Array<[string, string]> = [
    ['', 'an empty condition'],
    ['   ', 'an empty condition'],
    ['this', '`this`'],
    ['this.x', '`this`'],
    ['new Foo()', 'the JavaScript keyword `new`'],
    ['typeof x', 'the JavaScript keyword `typeof`'],
    ['a = 1', '"= 1"'],
    ['a == 1; b', '2 expressions in a row (is an operator missing?)'],
    ['a b', '2 expressions in a row (is an operator missing?)'],
    ['(()=>1)()', '"=>1)()"'],
    ['`x`', '"`x`"'],
    ['/x/', '"/x/"'],
    ['{a: 1}', '"{a: 1}"'],
    ['[1,,2]', 'an empty slot (`[a, , b]`)'],
    ['f(...a)', '"..a)"'],
    ['a?.b', 'optional chaining `?.` (use `??` or `in` instead)'],
    ['a | b', '`|`'],
    ['a & b', '`&`'],
    ['a ^ b', '`^`'],
    ['a << 1', '`<<`'],
    ['a >>> 1', '`>>>`'],
    ['a ** 2', '`**`'],
    ['~a', '`~`'],
    ['foo(1)', 'a call of `foo`'],
    ['a.b()', 'a call of a method (calls are only allowed on bare function names)'],
    ['len(a)(b)', 'a call of the result of a call'],
    ['now()', 'a call of `now`'],
    ['1e999', '`1e999`'],
    ['(a', 'the end of the condition'],
    ['a[', 'the end of the condition'],
    ['"unclosed', 'the end of the condition'],
  ]

  for (const [source, found] of refusals) {
    it(`refuses ${JSON.stringify(source)}, saying what it found`, () => {
      const error = parseError(source)
      expect(error.code).toBe('invalid_condition')
      expect(error.details).toMatchObject({ source, found })
      expect(typeof error.details?.expected).toBe('string')
      expect(error.message).toContain(`expected ${String(error.details?.expected)}`)
      expect(error.message).toContain(`found ${found}`)
    })
  }

  it('reports the jsep position for syntax errors', () => {
    const error = parseError('a = 1')
    expect(error.details).toMatchObject({ position: 2 })
    expect(error.message).toContain('at character 2')
  })

  it('checks arity of whitelisted functions at parse time', () => {
    expect(parseError('len()').details).toMatchObject({ expected: 'len(string | array | object)', found: '0 arguments' })
    expect(parseError('len(a, b)').details).toMatchObject({ found: '2 arguments' })
    expect(parseError('includes(a)').details).toMatchObject({ found: '1 argument' })
    expect(parseError('min()').details).toMatchObject({ found: '0 arguments' })
    expect(parseCondition('min(1, 2, 3, 4, 5)')).toMatchObject({ kind: 'call', callee: 'min' })
  })

  it('refuses prototype-chain names as identifiers, static members and literal keys', () => {
    for (const source of [
      '__proto__',
      'constructor',
      'prototype',
      'a.__proto__',
      'a.constructor',
      'a.b.prototype',
      'a["__proto__"]',
      "a['constructor']",
      'a["prototype"].x',
    ]) {
      const error = parseError(source)
      expect(error.code).toBe('invalid_condition')
      expect(error.details?.expected).toBe('a property name other than __proto__, constructor or prototype')
    }
  })

  it('refuses a non-string source', () => {
    expect(parseError(42 as unknown as string).details).toMatchObject({ expected: 'a condition string', found: 'number' })
  })
})

describe('parseCondition: limits', () => {
  it(`refuses sources longer than ${MAX_SOURCE_LENGTH} characters`, () => {
    const source = `a === "${'x'.repeat(MAX_SOURCE_LENGTH)}"`
    expect(parseError(source).details).toMatchObject({
      expected: `at most ${MAX_SOURCE_LENGTH} characters`,
      found: `${source.length} characters`,
    })
  })

  it('accepts a source of exactly the maximum length', () => {
    const source = `"${'x'.repeat(MAX_SOURCE_LENGTH - 2)}"`
    expect(parseCondition(source)).toEqual(lit('x'.repeat(MAX_SOURCE_LENGTH - 2)))
  })

  it(`accepts ${MAX_DEPTH} nested brackets and refuses one more before calling jsep`, () => {
    expect(parseCondition(`${'('.repeat(MAX_DEPTH)}a${')'.repeat(MAX_DEPTH)}`)).toEqual(id('a'))
    const error = parseError(`${'('.repeat(MAX_DEPTH + 1)}a${')'.repeat(MAX_DEPTH + 1)}`)
    expect(error.details).toMatchObject({ expected: `at most ${MAX_DEPTH} nested brackets`, position: MAX_DEPTH })
  })

  it('ignores brackets inside string literals when measuring nesting', () => {
    const inside = '('.repeat(100)
    expect(parseCondition(`a === "${inside}"`)).toMatchObject({ right: lit(inside) })
  })

  it(`refuses trees deeper than ${MAX_DEPTH} levels without brackets`, () => {
    const chain = `a${'.b'.repeat(MAX_DEPTH)}`
    expect(parseError(chain).details?.found).toBe('deeper nesting')
    const unary = `${'!'.repeat(MAX_DEPTH)}a`
    expect(parseError(unary).details?.found).toBe('deeper nesting')
    const sum = Array.from({ length: 40 }, () => '1').join(' + ')
    expect(parseError(sum).details?.found).toBe('deeper nesting')
  })

  it(`refuses more than ${MAX_NODES} nodes`, () => {
    const wide = `[${Array.from({ length: MAX_NODES }, (_, i) => String(i)).join(',')}]`
    expect(parseError(wide).details).toMatchObject({ expected: `at most ${MAX_NODES} syntax nodes` })
    const fits = `[${Array.from({ length: MAX_NODES - 1 }, () => '1').join(',')}]`
    expect(parseCondition(fits)).toMatchObject({ kind: 'array' })
  })

  it('survives long unary chains and ternary chains that jsep itself must recurse through', () => {
    expect(parseError(`${'-'.repeat(1999)}a`).code).toBe('invalid_condition')
    expect(parseError(`${'a?b:'.repeat(499)}c`).code).toBe('invalid_condition')
  })
})

describe('jsep registration', () => {
  it('adds `in` at relational precedence and leaves the other operators alone', () => {
    expect(jsep.binary_ops.in).toBe(jsep.binary_ops['<'])
    expect(jsep.binary_ops['|']).toBe(3)
    expect(jsep.binary_ops['**']).toBe(11)
    expect(Object.keys(jsep.unary_ops).sort()).toEqual(['!', '+', '-', '~'])
  })
})
