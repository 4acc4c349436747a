export type {
  ArrayNode,
  BinaryNode,
  BinaryOperator,
  CallNode,
  ComputedMemberNode,
  ConditionAst,
  ConditionValue,
  ConditionalNode,
  IdentifierNode,
  LiteralNode,
  LiteralValue,
  LogicalNode,
  LogicalOperator,
  MemberNode,
  StaticMemberNode,
  UnaryNode,
  UnaryOperator,
} from './ast.js'
export { BINARY_OPERATORS, LOGICAL_OPERATORS, UNARY_OPERATORS } from './ast.js'
export { parseCondition } from './parse.js'
export { evaluateCondition, checkCondition, type EvaluateOptions } from './evaluate.js'
export { compileCondition, compileConditions, type CompiledCondition } from './compile.js'
export { printCondition } from './print.js'
export { CONDITION_FUNCTION_NAMES } from './functions.js'
export {
  MAX_DEPTH as MAX_CONDITION_DEPTH,
  MAX_NODES as MAX_CONDITION_NODES,
  MAX_SOURCE_LENGTH as MAX_CONDITION_LENGTH,
  MAX_STEPS as MAX_CONDITION_STEPS,
  MAX_STRING_LENGTH as MAX_CONDITION_STRING_LENGTH,
} from './limits.js'
export { compileSummary, readableValue, pathsRead, type CompiledSummary } from './summary-template.js'
