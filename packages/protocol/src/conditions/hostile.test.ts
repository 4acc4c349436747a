import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TesseraError } from '../errors.js'
import type { JsonObject } from '../schemas/json.js'
import { compileCondition } from './compile.js'
import { evaluateCondition } from './evaluate.js'
import { MAX_SOURCE_LENGTH } from './limits.js'
import { parseCondition } from './parse.js'

/** Everything here must end in a TesseraError with the given code — never a crash, never a success. */
function expectRefused(run: () => unknown, code: 'invalid_condition' | 'condition_error'): TesseraError {
  let caught: unknown
  try {
    run()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(TesseraError)
  expect((caught as TesseraError).code).toBe(code)
  return caught as TesseraError
}

const prototypeNamesBefore = Object.getOwnPropertyNames(Object.prototype).sort()
const arrayPrototypeNamesBefore = Object.getOwnPropertyNames(Array.prototype).sort()

function expectPrototypesUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNamesBefore)
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(arrayPrototypeNamesBefore)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(Object.prototype.toString.call({})).toBe('[object Object]')
}

describe('hostile sources are refused at parse time', () => {
  beforeAll(expectPrototypesUntouched)
  afterAll(expectPrototypesUntouched)

  const sources = [
    'constructor.constructor("return process")()',
    'a.constructor.constructor("return process")()',
    '"".constructor.constructor("return process")()',
    'a.__proto__.polluted',
    'a.__proto__',
    'a["__proto__"]',
    'a["__proto__"]["polluted"]',
    "a['constructor']['prototype']",
    'a.prototype',
    'this',
    'this.constructor',
    'process.exit()',
    'require("fs")',
    'import("fs")',
    'eval("1")',
    'Function("return this")()',
    '(()=>1)()',
    '(function(){ return 1 })()',
    'new Foo()',
    'new Function("x")',
    'a = 1',
    'a.b = 1',
    'a += 1',
    'a++',
    'delete a.b',
    'typeof a',
    'void 0',
    'a, b',
    'a; b',
    '`${a}`',
    'tag`x`',
    '/a+/.test(a)',
    '{}',
    '({a: 1})',
    '[...a]',
    'f(...a)',
    '"x".repeat(1e9)',
    '"x"["repeat"](1e9)',
    'a.repeat(10)',
    'len.call(a)',
    'len.constructor',
    'lower(a).toUpperCase()',
    'a?.b',
    'a?.[0]',
    'len?.(a)',
    'a instanceof b',
    'a ** 2',
    'a | 0',
    '~a',
  ]

  for (const source of sources) {
    it(`refuses ${JSON.stringify(source)}`, () => {
      const error = expectRefused(() => parseCondition(source), 'invalid_condition')
      expect(error.details).toMatchObject({ source })
      expect(typeof error.details?.expected).toBe('string')
      expect(typeof error.details?.found).toBe('string')
    })
  }
})

describe('global names mean nothing', () => {
  it('resolves names only in the scope, never in the JavaScript global object', () => {
    for (const source of ['globalThis', 'process', 'require', 'window', 'Object', 'eval']) {
      expect(compileCondition(source).evaluate({})).toBeUndefined()
    }
    const error = expectRefused(() => compileCondition('process.exit').evaluate({}), 'condition_error')
    expect(error.details).toMatchObject({ path: 'process.exit', expected: 'process to be an object or array', found: 'undefined (missing)' })
  })

  it('reads `--a` as two negations, not a decrement', () => {
    expect(compileCondition('--a').evaluate({ a: 3 })).toBe(3)
  })
})

describe('hostile sizes are refused before they cost anything', () => {
  it('refuses 10,000 nested parentheses', () => {
    const source = `${'('.repeat(10_000)}a${')'.repeat(10_000)}`
    expectRefused(() => parseCondition(source), 'invalid_condition')
  })

  it('refuses nesting that fits the length limit, before calling jsep', () => {
    for (const open of ['(', '[']) {
      const source = open.repeat(MAX_SOURCE_LENGTH)
      const error = expectRefused(() => parseCondition(source), 'invalid_condition')
      expect(error.details?.found).toBe('deeper nesting')
    }
    expectRefused(() => parseCondition(`${'len('.repeat(400)}a${')'.repeat(400)}`), 'invalid_condition')
    expectRefused(() => parseCondition(`${'a['.repeat(600)}0${']'.repeat(600)}`), 'invalid_condition')
  })

  it('refuses a 1 MB source quickly and without echoing it whole', () => {
    const source = `a === "${'x'.repeat(1024 * 1024)}"`
    const started = performance.now()
    const error = expectRefused(() => parseCondition(source), 'invalid_condition')
    expect(performance.now() - started).toBeLessThan(250)
    expect(error.message.length).toBeLessThan(500)
    expect(String(error.details?.source).length).toBeLessThan(MAX_SOURCE_LENGTH + 100)
  })

  it('refuses long chains of unary operators and conditionals', () => {
    expectRefused(() => parseCondition(`${'!'.repeat(MAX_SOURCE_LENGTH - 1)}a`), 'invalid_condition')
    expectRefused(() => parseCondition(`${'a?'.repeat(600)}b${':c'.repeat(600)}`.slice(0, MAX_SOURCE_LENGTH)), 'invalid_condition')
  })
})

describe('prototype names computed at run time are refused', () => {
  const scope = JSON.parse('{"a": {"x": 1}, "k": "constructor", "p": "__proto__", "q": "prototype"}') as JsonObject

  for (const source of [
    'a["constr" + "uctor"]',
    'a["__pro" + "to__"]',
    'a["proto" + "type"]',
    'a[k]',
    'a[p]',
    'a[q]',
    'a[k][k]',
    '"constructor" in a',
    '("__proto__") in a',
    'a[lower("CONSTRUCTOR")]',
    'a[true ? "constructor" : "x"]',
    '[1][k]',
    '"s"[k]',
  ]) {
    it(`refuses ${JSON.stringify(source)}`, () => {
      const error = expectRefused(() => compileCondition(source).evaluate(scope), 'condition_error')
      expect(error.details).toMatchObject({
        source,
        expected: 'a property name other than __proto__, constructor or prototype',
      })
      expectPrototypesUntouched()
    })
  }
})

describe('state with an own __proto__ key (as JSON.parse makes it)', () => {
  const scope = JSON.parse(
    '{"a": {"__proto__": {"polluted": true, "isAdmin": true}, "name": "x"}, "b": {"__proto__": {"polluted": true, "isAdmin": true}, "name": "x"}}',
  ) as JsonObject

  it('really has an own __proto__ key', () => {
    expect(Object.prototype.hasOwnProperty.call(scope.a, '__proto__')).toBe(true)
  })

  it('does not walk into it', () => {
    expect(compileCondition('a.polluted').evaluate(scope)).toBeUndefined()
    expect(compileCondition('a.isAdmin === true').check(scope)).toBe(false)
    expect(compileCondition('"polluted" in a').check(scope)).toBe(false)
    expect(compileCondition('a.name').evaluate(scope)).toBe('x')
  })

  it('counts and compares it like any other key', () => {
    expect(compileCondition('len(a)').evaluate(scope)).toBe(2)
    expect(compileCondition('a === b').check(scope)).toBe(true)
    expect(compileCondition('a in [b]').check(scope)).toBe(true)
  })

  it('still refuses to address it', () => {
    expectRefused(() => parseCondition('a.__proto__.polluted'), 'invalid_condition')
    expectRefused(() => compileCondition('a["__" + "proto__"].polluted').evaluate(scope), 'condition_error')
    expectPrototypesUntouched()
  })
})

describe('inherited and exotic members are invisible', () => {
  const scope: JsonObject = { a: { x: 1, hasOwnProperty: 'shadowed' }, list: [1, 2], s: 'text' }

  it('sees no inherited properties', () => {
    for (const source of ['a.toString', 'a.valueOf', 'a.__defineGetter__', 'a.isPrototypeOf']) {
      expect(compileCondition(source).evaluate(scope)).toBeUndefined()
    }
    expect(compileCondition('a.hasOwnProperty').evaluate(scope)).toBe('shadowed')
    expect(compileCondition('"toString" in a').check(scope)).toBe(false)
    expect(compileCondition('"x" in a').check(scope)).toBe(true)
    expect(compileCondition('toString').evaluate(scope)).toBeUndefined()
    expect(compileCondition('hasOwnProperty').evaluate(scope)).toBeUndefined()
  })

  it('does not expose array or string methods', () => {
    for (const source of ['list.map', 'list.push', 's.repeat', 'list["slice"]']) {
      expectRefused(() => compileCondition(source).evaluate(scope), 'condition_error')
    }
  })

  it('never invokes getters planted in the state', () => {
    let invoked = false
    const trap = {}
    Object.defineProperty(trap, 'x', {
      enumerable: true,
      get() {
        invoked = true
        return 1
      },
    })
    const hostile = { trap } as unknown as JsonObject
    expect(compileCondition('trap.x').evaluate(hostile)).toBeUndefined()
    expect(compileCondition('trap === trap').evaluate(hostile)).toBe(true)
    expect(invoked).toBe(false)
  })

  it('refuses objects with a prototype other than Object.prototype', () => {
    const proto = { secret: 's3cret' }
    const hostile = { o: Object.create(proto) as object, m: new Map([['k', 1]]) } as unknown as JsonObject
    expectRefused(() => compileCondition('o.secret').evaluate(hostile), 'condition_error')
    expectRefused(() => compileCondition('m.size').evaluate(hostile), 'condition_error')
    expectRefused(() => evaluateCondition(parseCondition('secret'), Object.create(proto) as JsonObject), 'condition_error')
  })
})

describe('hostile state shapes', () => {
  it('compares very deep state without overflowing the stack', () => {
    let deepA: unknown = 0
    let deepB: unknown = 0
    for (let i = 0; i < 100_000; i++) {
      deepA = [deepA]
      deepB = [deepB]
    }
    const scope = { a: deepA, b: deepB } as JsonObject
    const error = expectRefused(() => compileCondition('a === b').check(scope), 'condition_error')
    expect(error.details?.expected).toMatch(/evaluation steps/)
  })

  it('terminates on cyclic state instead of looping', () => {
    const a: Record<string, unknown> = {}
    a.self = a
    const b: Record<string, unknown> = {}
    b.self = b
    expectRefused(() => compileCondition('a === b').check({ a, b } as unknown as JsonObject), 'condition_error')
  })

  it('refuses to build huge strings', () => {
    const scope: JsonObject = { s: 'x'.repeat(60_000) }
    expectRefused(() => compileCondition('s + s').evaluate(scope), 'condition_error')
    expectRefused(() => compileCondition('len(upper(s + s)) > 0').evaluate(scope), 'condition_error')
  })

  it('bounds work on large arrays', () => {
    const scope: JsonObject = { big: Array.from({ length: 50_000 }, (_, i) => ({ i })) }
    expectRefused(() => compileCondition('includes(big, big[49999])').check(scope), 'condition_error')
    expectRefused(() => compileCondition('big[49999] in big').check(scope), 'condition_error')
    expect(compileCondition('big[0] in big').check(scope)).toBe(true)
  })
})

describe('after all of the above', () => {
  it('Object.prototype and Array.prototype are unchanged', () => {
    expectPrototypesUntouched()
  })
})
