import { TesseraError } from './errors.js'

export interface JsonBounds {
  maxDepth: number
  maxNodes: number
  maxStringLength: number
}

export const REQUEST_BOUNDS: JsonBounds = { maxDepth: 64, maxNodes: 100_000, maxStringLength: 1_000_000 }

/**
 * Walks a value without recursion and refuses it when it nests too deep, has too many
 * parts or too long a string — before any recursive code (schemas, hashing, redaction)
 * touches it, so hostile input cannot overflow the stack or flood the trace.
 */
export function assertJsonBounds(value: unknown, what: string, bounds: JsonBounds = REQUEST_BOUNDS): void {
  const stack: Array<[unknown, number]> = [[value, 1]]
  let nodes = 0
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number]
    nodes += 1
    if (nodes > bounds.maxNodes) {
      throw new TesseraError('invalid_request', `${what} has more than ${bounds.maxNodes} values`, { expected: `at most ${bounds.maxNodes} values`, found: `more than ${bounds.maxNodes}` })
    }
    if (typeof current === 'string' && current.length > bounds.maxStringLength) {
      throw new TesseraError('invalid_request', `${what} holds a string of ${current.length} characters`, { expected: `strings of at most ${bounds.maxStringLength} characters`, found: current.length })
    }
    if (current === null || typeof current !== 'object') continue
    if (depth > bounds.maxDepth) {
      throw new TesseraError('invalid_request', `${what} nests deeper than ${bounds.maxDepth} levels`, { expected: `depth ≤ ${bounds.maxDepth}`, found: `> ${bounds.maxDepth}` })
    }
    if (!Array.isArray(current) && Object.prototype.hasOwnProperty.call(current, '__proto__')) {
      // JSON.parse makes "__proto__" an own key; merged into an object later it would set
      // the prototype. No legitimate request needs the name.
      throw new TesseraError('invalid_request', `${what} contains the key "__proto__"`, { expected: 'no "__proto__" keys', found: '__proto__' })
    }
    const children = Array.isArray(current) ? current : Object.values(current)
    for (const child of children) stack.push([child, depth + 1])
  }
}
