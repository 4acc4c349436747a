import type { JsonValue } from '../schemas/json.js'

/**
 * The condition language's own syntax tree. It is deliberately closed: the parser maps
 * jsep's open-ended output onto these shapes and refuses everything else, so the evaluator
 * only ever sees constructs it knows to be safe.
 */
export type ConditionAst =
  | LiteralNode
  | IdentifierNode
  | MemberNode
  | UnaryNode
  | BinaryNode
  | LogicalNode
  | ConditionalNode
  | ArrayNode
  | CallNode

export type LiteralValue = string | number | boolean | null

export interface LiteralNode {
  readonly kind: 'literal'
  readonly value: LiteralValue
}

/** A top-level name, looked up among the scope's own properties. */
export interface IdentifierNode {
  readonly kind: 'identifier'
  readonly name: string
}

export type MemberNode = StaticMemberNode | ComputedMemberNode

/** `object.name` */
export interface StaticMemberNode {
  readonly kind: 'member'
  readonly computed: false
  readonly object: ConditionAst
  readonly name: string
}

/** `object[property]` */
export interface ComputedMemberNode {
  readonly kind: 'member'
  readonly computed: true
  readonly object: ConditionAst
  readonly property: ConditionAst
}

export const UNARY_OPERATORS = ['!', '-', '+'] as const
export type UnaryOperator = (typeof UNARY_OPERATORS)[number]

export interface UnaryNode {
  readonly kind: 'unary'
  readonly operator: UnaryOperator
  readonly argument: ConditionAst
}

export const BINARY_OPERATORS = [
  '===',
  '!==',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  'in',
] as const
export type BinaryOperator = (typeof BINARY_OPERATORS)[number]

export interface BinaryNode {
  readonly kind: 'binary'
  readonly operator: BinaryOperator
  readonly left: ConditionAst
  readonly right: ConditionAst
}

/** Kept apart from binary operators because these short-circuit. */
export const LOGICAL_OPERATORS = ['&&', '||', '??'] as const
export type LogicalOperator = (typeof LOGICAL_OPERATORS)[number]

export interface LogicalNode {
  readonly kind: 'logical'
  readonly operator: LogicalOperator
  readonly left: ConditionAst
  readonly right: ConditionAst
}

/** `test ? consequent : alternate` */
export interface ConditionalNode {
  readonly kind: 'conditional'
  readonly test: ConditionAst
  readonly consequent: ConditionAst
  readonly alternate: ConditionAst
}

export interface ArrayNode {
  readonly kind: 'array'
  readonly elements: readonly ConditionAst[]
}

/** A call of a whitelisted function by bare name; calls of anything else never parse. */
export interface CallNode {
  readonly kind: 'call'
  readonly callee: string
  readonly arguments: readonly ConditionAst[]
}

/**
 * What evaluation yields: a JSON value, or `undefined` when a property is missing. Keeping
 * `undefined` distinct from `null` lets `claim.note === null` and "claim has no note" differ.
 */
export type ConditionValue = JsonValue | undefined
