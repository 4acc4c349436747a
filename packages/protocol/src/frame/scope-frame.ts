import { TesseraError } from '../errors.js'
import type { Frame } from '../schemas/frame.js'
import type { Layout } from '../schemas/geometry.js'
import type { UiNode } from '../schemas/node.js'
import { frameId } from './frame-id.js'
import { frameIndex } from './frame-index.js'

export interface ScopeOptions {
  /** Node id (or ref) the view starts at; the root when absent. */
  scope?: string | undefined
  /** Keep at most this many nodes, breadth first, so the top of a huge tree comes first. */
  maxNodes?: number | undefined
}

/**
 * Part of a frame: the subtree at `scope`, cut to `maxNodes` nodes breadth first, with the
 * targets, contracts and bounds of what is kept and the surface-wide actions. For surfaces
 * that cannot ask their UI for less, this is how `snapshot({scope, maxNodes})` answers.
 */
export function scopeFrame(frame: Frame, options: ScopeOptions): Frame {
  if (options.scope === undefined && options.maxNodes === undefined) return frame
  const index = frameIndex(frame)
  const scopeId = options.scope === undefined ? frame.tree.id : (index.refs.resolve(options.scope) ?? options.scope)
  const start = index.nodes.get(scopeId)
  if (start === undefined) {
    throw new TesseraError('not_found', `the frame has no node "${options.scope}" to scope to`, { found: options.scope ?? null })
  }
  const limit = options.maxNodes ?? Infinity
  if (!(limit >= 1)) throw new TesseraError('invalid_request', `expected maxNodes of at least 1, found ${String(options.maxNodes)}`)
  const keep = new Set<string>()
  const queue: UiNode[] = [start]
  let total = 0
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as UiNode
    total++
    if (keep.size < limit) keep.add(node.id)
    for (const child of node.children ?? []) queue.push(child)
  }
  const copy = (node: UiNode): UiNode => {
    const children = node.children?.filter((child) => keep.has(child.id)).map(copy)
    const { children: _all, ...rest } = node
    return children === undefined || children.length === 0 ? rest : { ...rest, children }
  }
  const targets = frame.targets.filter((target) => target.nodeId === undefined || keep.has(target.nodeId))
  const used = new Set(targets.map((target) => target.contract))
  const layout: Layout = {}
  for (const id of keep) if (frame.layout[id] !== undefined) layout[id] = frame.layout[id]
  const body = {
    ...frame,
    tree: copy(start),
    layout,
    contracts: frame.contracts.filter((contract) => used.has(contract.id)),
    targets,
    partial: { ...(options.scope === undefined ? {} : { scope: scopeId }), omitted: total - keep.size, of: frame.partial?.of ?? frame.id },
  }
  return { ...body, id: frameId(body) }
}
