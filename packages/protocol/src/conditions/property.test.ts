import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TesseraError } from '../errors.js'
import type { JsonObject, JsonValue } from '../schemas/json.js'
import type { BinaryOperator, ConditionAst } from './ast.js'
import { evaluateCondition } from './evaluate.js'
import { CONDITION_FUNCTIONS } from './functions.js'
import { FORBIDDEN_NAMES } from './limits.js'
import { parseCondition } from './parse.js'
import { printCondition } from './print.js'

// ---------------------------------------------------------------------------------------
// Helpers

const finiteNumber = fc.double({ noNaN: true, noDefaultInfinity: true })
const safeKey = fc.string({ maxLength: 8 }).filter((key) => !FORBIDDEN_NAMES.has(key))
const jsonObject: fc.Arbitrary<JsonObject> = fc.dictionary(safeKey, fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>, {
  maxKeys: 8,
})

const literal = (value: string | number | boolean | null): ConditionAst => ({ kind: 'literal', value })
const identifier = (name: string): ConditionAst => ({ kind: 'identifier', name })
const index = (object: ConditionAst, key: string): ConditionAst => ({ kind: 'member', computed: true, object, property: literal(key) })
const binary = (operator: BinaryOperator, left: ConditionAst, right: ConditionAst): ConditionAst => ({ kind: 'binary', operator, left, right })

/** Evaluates through the printer and parser, so both are exercised by every case. */
function viaSource(ast: ConditionAst, scope: JsonObject): unknown {
  return evaluateCondition(parseCondition(printCondition(ast)), scope)
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, value: run() }
  } catch (error) {
    return { ok: false, error }
  }
}

function expectConditionError(result: Outcome): void {
  expect(result.ok).toBe(false)
  if (result.ok) return
  expect(result.error).toBeInstanceOf(TesseraError)
  expect((result.error as TesseraError).code).toBe('condition_error')
}

/** Plain JSON, as the spec has it: finite numbers, plain objects, arrays. */
function isJson(value: unknown, depth = 0): boolean {
  if (depth > 1000) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1))
  const proto: unknown = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined
  if (proto === Object.prototype || proto === null) {
    return Object.values(value as object).every((item) => isJson(item, depth + 1))
  }
  return false
}

/** Reference equality: structural, no coercion, 0 equals -0 (as === does). */
function referenceEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => referenceEquals(item, b[i]))
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const aKeys = Object.keys(a)
    const bRecord = b as Record<string, unknown>
    return (
      aKeys.length === Object.keys(b).length &&
      aKeys.every((key) => Object.hasOwn(b, key) && referenceEquals((a as Record<string, unknown>)[key], bRecord[key]))
    )
  }
  return false
}

const COMPARISONS = ['===', '!==', '==', '!=', '<', '<=', '>', '>='] as const

function referenceCompare(op: (typeof COMPARISONS)[number], left: unknown, right: unknown): Outcome {
  if (op === '===' || op === '==') return { ok: true, value: referenceEquals(left, right) }
  if (op === '!==' || op === '!=') return { ok: true, value: !referenceEquals(left, right) }
  const comparable =
    (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string')
  if (!comparable) return { ok: false, error: 'condition_error' }
  const [a, b] = [left as number, right as number]
  return { ok: true, value: op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b }
}

function expectAgreement(actual: Outcome, expected: Outcome): void {
  if (expected.ok) {
    expect(actual).toEqual({ ok: true, value: expected.value })
  } else {
    expectConditionError(actual)
  }
}

// ---------------------------------------------------------------------------------------
// (1) The evaluator agrees with a reference computation.

describe('property: agreement with a reference', () => {
  it('comparing a member of random JSON with a numeric literal', () => {
    fc.assert(
      fc.property(jsonObject, safeKey, fc.nat(), fc.boolean(), fc.constantFrom(...COMPARISONS), finiteNumber, (data, randomKey, pick, existing, op, number) => {
        const keys = Object.keys(data)
        const key = existing && keys.length > 0 ? (keys[pick % keys.length] as string) : randomKey
        const value = Object.hasOwn(data, key) ? data[key] : undefined
        const ast = binary(op, index(identifier('data'), key), literal(number))
        expectAgreement(
          outcome(() => viaSource(ast, { data })),
          referenceCompare(op, value, number),
        )
      }),
      { numRuns: 500 },
    )
  })

  it('comparing two numbers, either order, with literals on either side', () => {
    fc.assert(
      fc.property(finiteNumber, finiteNumber, fc.constantFrom(...COMPARISONS), fc.boolean(), (n, m, op, literalLeft) => {
        const ast = literalLeft ? binary(op, literal(m), identifier('n')) : binary(op, identifier('n'), literal(m))
        const [left, right] = literalLeft ? [m, n] : [n, m]
        expectAgreement(
          outcome(() => viaSource(ast, { n })),
          referenceCompare(op, left, right),
        )
      }),
      { numRuns: 500 },
    )
  })

  it('arithmetic on two numbers gives the JavaScript result, or an error when that is not finite', () => {
    fc.assert(
      fc.property(finiteNumber, finiteNumber, fc.constantFrom('+', '-', '*', '/', '%' as const), (n, m, op) => {
        const js = op === '+' ? n + m : op === '-' ? n - m : op === '*' ? n * m : op === '/' ? n / m : n % m
        const result = outcome(() => viaSource(binary(op, identifier('n'), literal(m)), { n }))
        if (Number.isFinite(js)) {
          expect(result).toEqual({ ok: true, value: js })
        } else {
          expectConditionError(result)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('`in` an array agrees with structural membership, and `in` an object with own keys', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 6 }), jsonObject, fc.jsonValue({ maxDepth: 2 }), safeKey, (list, object, needle, key) => {
        const scope = { list, object, needle, key } as JsonObject
        expect(viaSource(binary('in', identifier('needle'), identifier('list')), scope)).toBe(
          list.some((item) => referenceEquals(item, needle)),
        )
        expect(viaSource(binary('in', identifier('key'), identifier('object')), scope)).toBe(Object.hasOwn(object, key))
      }),
    )
  })
})

// ---------------------------------------------------------------------------------------
// (2) Parsing arbitrary text fails only ever with invalid_condition.

const TOKENS = [
  'a', 'b', 'xs', '.', '[', ']', '(', ')', ',', '"s"', "'t'", '1', '2.5', '1e3', '0x1', '+', '-', '*', '/', '%',
  '!', '===', '!==', '==', '!=', '<', '<=', '>', '>=', '&&', '||', '??', '?', ':', ' in ', 'in', 'len', 'max',
  'includes', 'this', 'new ', '=', '=>', '`', '{', '}', '...', '\\', '"', "'", ' ', '__proto__', 'constructor',
  'prototype', ';', '~', '|', '&', '^', '**', '?.', 'true', 'null', '\n', '\u2028', 'é', '\uD800',
]

const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((parts) => parts.join(''))

function expectParseIsSafe(source: string): void {
  let ast: ConditionAst
  try {
    ast = parseCondition(source)
  } catch (error) {
    expect(error).toBeInstanceOf(TesseraError)
    expect((error as TesseraError).code).toBe('invalid_condition')
    return
  }
  // Whatever parses must print back to source that parses to the same tree.
  expect(parseCondition(printCondition(ast))).toEqual(ast)
}

describe('property: parse never throws anything but invalid_condition', () => {
  it('for arbitrary ASCII-ish strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), expectParseIsSafe), { numRuns: 1000 })
  })

  it('for arbitrary full-Unicode strings, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), expectParseIsSafe), { numRuns: 1000 })
  })

  it('for soups of condition-ish tokens', () => {
    fc.assert(fc.property(tokenSoup, expectParseIsSafe), { numRuns: 2000 })
  })

  it('for nonsense appended to or wrapped around a valid condition', () => {
    fc.assert(
      fc.property(tokenSoup, tokenSoup, (before, after) => expectParseIsSafe(`${before}claim.status === "ready"${after}`)),
      { numRuns: 500 },
    )
  })
})

// ---------------------------------------------------------------------------------------
// (3) Random trees over random scopes: a JSON value (or undefined) or a condition_error.

const NAMES = ['a', 'b', 'n', 's', 'xs', 'o', 'missing'] as const
const MEMBER_NAMES = ['length', 'x', 'y', 'a', 'in', 'new'] as const
const STRINGS = fc.oneof(fc.constantFrom('x', 'y', 'length', 'constr', 'uctor', '__pro', 'to__', 'proto', 'type', ''), fc.string({ maxLength: 6 }))

const scopeArbitrary: fc.Arbitrary<JsonObject> = fc.record({
  a: fc.jsonValue({ maxDepth: 3 }),
  b: fc.jsonValue({ maxDepth: 3 }),
  n: finiteNumber,
  s: fc.string({ maxLength: 10 }),
  xs: fc.array(fc.oneof(finiteNumber, fc.jsonValue({ maxDepth: 2 })), { maxLength: 5 }),
  o: fc.dictionary(fc.constantFrom(...MEMBER_NAMES, 'z'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
}) as fc.Arbitrary<JsonObject>

const FUNCTIONS = [...CONDITION_FUNCTIONS.entries()]

const { tree } = fc.letrec<{ tree: ConditionAst }>((tie) => {
  const sub = tie('tree')
  const options = { maxDepth: 5, depthIdentifier: 'condition-tree' }
  return {
    tree: fc.oneof(
      options,
      fc.oneof(
        finiteNumber.map(literal),
        STRINGS.map(literal),
        fc.constantFrom(true, false, null).map(literal),
        fc.constantFrom(...NAMES).map(identifier),
      ),
      fc.record({ object: sub, name: fc.constantFrom(...MEMBER_NAMES) }).map(
        ({ object, name }): ConditionAst => ({ kind: 'member', computed: false, object, name }),
      ),
      fc.record({ object: sub, property: sub }).map(
        ({ object, property }): ConditionAst => ({ kind: 'member', computed: true, object, property }),
      ),
      fc.record({ operator: fc.constantFrom('!', '-', '+' as const), argument: sub }).map(
        ({ operator, argument }): ConditionAst => ({ kind: 'unary', operator, argument }),
      ),
      fc
        .record({
          operator: fc.constantFrom('===', '!==', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'in' as const),
          left: sub,
          right: sub,
        })
        .map(({ operator, left, right }): ConditionAst => ({ kind: 'binary', operator, left, right })),
      fc
        .record({ operator: fc.constantFrom('&&', '||', '??' as const), left: sub, right: sub })
        .map(({ operator, left, right }): ConditionAst => ({ kind: 'logical', operator, left, right })),
      fc.record({ test: sub, consequent: sub, alternate: sub }).map(
        ({ test, consequent, alternate }): ConditionAst => ({ kind: 'conditional', test, consequent, alternate }),
      ),
      fc.array(sub, { maxLength: 3 }).map((elements): ConditionAst => ({ kind: 'array', elements })),
      fc
        .constantFrom(...FUNCTIONS)
        .chain(([callee, fn]) =>
          fc
            .array(sub, { minLength: fn.minArgs, maxLength: Math.min(fn.maxArgs, fn.minArgs + 2) })
            .map((args): ConditionAst => ({ kind: 'call', callee, arguments: args })),
        ),
    ),
  }
})

/** Parse refusals a generated tree may legitimately hit: a prototype name as a literal key. */
function isExpectedParseRefusal(error: unknown): boolean {
  return (
    error instanceof TesseraError &&
    error.code === 'invalid_condition' &&
    error.details?.expected === 'a property name other than __proto__, constructor or prototype'
  )
}

function expectJsonOrConditionError(run: () => unknown): void {
  const result = outcome(run)
  if (result.ok) {
    expect(result.value === undefined || isJson(result.value)).toBe(true)
  } else {
    expect(result.error).toBeInstanceOf(TesseraError)
    expect((result.error as TesseraError).code).toBe('condition_error')
  }
}

describe('property: evaluation yields JSON or a condition_error', () => {
  it('for random trees printed to source, over random scopes', () => {
    fc.assert(
      fc.property(tree, scopeArbitrary, (ast, scope) => {
        const source = printCondition(ast)
        let parsed: ConditionAst
        try {
          parsed = parseCondition(source)
        } catch (error) {
          expect(isExpectedParseRefusal(error)).toBe(true)
          return
        }
        expectJsonOrConditionError(() => evaluateCondition(parsed, scope, { source }))
      }),
      { numRuns: 2000 },
    )
  })

  it('for the same trees evaluated directly, without the parser in front', () => {
    fc.assert(
      fc.property(tree, scopeArbitrary, (ast, scope) => {
        expectJsonOrConditionError(() => evaluateCondition(ast, scope))
      }),
      { numRuns: 2000 },
    )
  })

  it('for whatever token soup happens to parse', () => {
    fc.assert(
      fc.property(tokenSoup, scopeArbitrary, (source, scope) => {
        let parsed: ConditionAst
        try {
          parsed = parseCondition(source)
        } catch {
          return
        }
        expectJsonOrConditionError(() => evaluateCondition(parsed, scope))
      }),
      { numRuns: 2000 },
    )
  })
})
