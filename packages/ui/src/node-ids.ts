import { type NodeKind, TesseraError, type UiNode, sha256Hex } from '@tessera/protocol'
import type { ElementNode } from './elements.js'

/** The protocol's ceiling on a node id. */
export const MAX_NODE_ID_LENGTH = 256
/** A key or action id longer than this is almost certainly data pasted into the wrong prop. */
const MAX_SEGMENT_LENGTH = 128
/** Fields whose values are small flat records; undefined entries inside them are dropped too. */
const FLAT_RECORD_FIELDS: ReadonlySet<string> = new Set(['states', 'style', 'semantic'])

/**
 * Turns an element tree into a protocol tree with stable ids. An explicit `id` wins;
 * otherwise a node is named `${parentId}/${segment}`, the segment being its key, else its
 * action id, else `${kind}${n}` where n counts only unnamed siblings of that kind — so
 * inserting a keyed or action sibling never renames the others. Keys are dropped, and so
 * is anything that is not JSON (undefined, functions), so the result hashes the same way
 * every time.
 */
export function finalizeTree(root: ElementNode): UiNode {
  const rootId = root.id ?? (root.key === undefined ? 'root' : String(root.key))
  return finalizeNode(root, rootId, [], new Map())
}

function finalizeNode(element: ElementNode, id: string, path: number[], seen: Map<string, number[]>): UiNode {
  checkId(id, path)
  const earlier = seen.get(id)
  if (earlier !== undefined) {
    throw new TesseraError(
      'invalid_frame',
      `expected unique node ids, found "${id}" twice: at ${formatPath(earlier)} and at ${formatPath(path)}; give one of them a distinct key or id`,
      { id, firstPath: earlier, secondPath: path },
    )
  }
  seen.set(id, path)

  const node: UiNode = { id, kind: element.kind }
  for (const field of Object.keys(element)) {
    if (field === 'id' || field === 'kind' || field === 'key' || field === 'children') continue
    const value = jsonFieldValue(field, element[field])
    if (value !== undefined) node[field] = value
  }

  const children = element.children
  if (children !== undefined && children.length > 0) {
    const unnamedCounts = new Map<NodeKind, number>()
    node.children = children.map((child, index) => {
      const childId = child.id ?? childIdFor(id, namedSegment(child, path, index) ?? nextUnnamed(child.kind, unnamedCounts))
      return finalizeNode(child, childId, [...path, index], seen)
    })
  }
  return node
}

function namedSegment(child: ElementNode, parentPath: number[], index: number): string | undefined {
  const actionId = child.semantic?.agentAction?.id
  const segment = child.key !== undefined ? String(child.key) : typeof actionId === 'string' ? actionId : undefined
  if (segment !== undefined && (segment.length === 0 || segment.length > MAX_SEGMENT_LENGTH)) {
    throw new TesseraError(
      'invalid_frame',
      `expected a key of 1–${MAX_SEGMENT_LENGTH} characters at ${formatPath([...parentPath, index])}, found ${segment.length} characters`,
      { path: [...parentPath, index], expected: `1–${MAX_SEGMENT_LENGTH} characters`, found: segment.length },
    )
  }
  return segment
}

function nextUnnamed(kind: NodeKind, counts: Map<NodeKind, number>): string {
  const n = counts.get(kind) ?? 0
  counts.set(kind, n + 1)
  return `${kind}${n}`
}

/**
 * Deep trees would grow path ids past the protocol's limit; past it the parent part is
 * replaced by its hash, which is just as stable and keeps the readable segment.
 */
function childIdFor(parentId: string, segment: string): string {
  const id = `${parentId}/${segment}`
  return id.length <= MAX_NODE_ID_LENGTH ? id : `~${sha256Hex(parentId).slice(0, 24)}/${segment}`
}

function checkId(id: string, path: number[]): void {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_NODE_ID_LENGTH) {
    throw new TesseraError(
      'invalid_frame',
      `expected a node id of 1–${MAX_NODE_ID_LENGTH} characters at ${formatPath(path)}, found ${typeof id === 'string' ? `${id.length} characters` : typeof id}`,
      { path, expected: `string of 1–${MAX_NODE_ID_LENGTH} characters`, found: typeof id === 'string' ? id.length : typeof id },
    )
  }
  // Layouts are records keyed by node id; this one key would rewrite the record's prototype instead.
  if (id === '__proto__') {
    throw new TesseraError('invalid_frame', `expected a node id other than "__proto__" at ${formatPath(path)}`, {
      path,
      found: id,
    })
  }
}

function jsonFieldValue(field: string, value: unknown): unknown {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined
  if (FLAT_RECORD_FIELDS.has(field) && isPlainRecord(value)) return withoutUndefined(value)
  return value
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  let clean: Record<string, unknown> | undefined
  for (const key of Object.keys(record)) {
    const value = record[key]
    if (value === undefined || typeof value === 'function') {
      clean ??= { ...record }
      delete clean[key]
    }
  }
  return clean ?? record
}

/** A child-index path as people read it in a message: "the root", "path [0, 2]". */
export function formatPath(path: readonly number[]): string {
  return path.length === 0 ? 'the root' : `path [${path.join(', ')}]`
}
