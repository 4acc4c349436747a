/**
 * Bounds on condition size and cost. Conditions come from app contracts and policy files,
 * which may be written by someone we do not trust, so every dimension that could make the
 * parser or evaluator do unbounded work has a ceiling here.
 */

/** Same ceiling the action-contract schema puts on a condition string. */
export const MAX_SOURCE_LENGTH = 2000

/** Deep enough for any condition a person writes; shallow enough that recursion is safe. */
export const MAX_DEPTH = 32

export const MAX_NODES = 500

/**
 * Each evaluated node and each value visited by a deep comparison costs one step, so a
 * condition over a huge state fails loudly instead of stalling the gateway.
 */
export const MAX_STEPS = 10_000

/** Conditions compare text; they have no business building large strings. */
export const MAX_STRING_LENGTH = 100_000

/** Names that lead into the prototype chain in JavaScript; never addressable in a condition. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])
