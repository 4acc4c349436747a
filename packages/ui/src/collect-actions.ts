import { type ActionTarget, type Bounds, type Layout, TesseraError, type UiNode } from '@tessera/protocol'
import { isDisabled, isHidden } from '@tessera/protocol'

/**
 * Every node carrying `semantic.agentAction`, in document order, located in the frame:
 * its child-index path, node id, role, name and absolute bounds, and whether it can run
 * now (not disabled, not hidden, no disabled or hidden ancestor). The bounds are the very
 * ones renderers draw and hit-testing uses, which is what makes an action trustworthy.
 */
export function collectAgentActions(tree: UiNode, layout: Layout): ActionTarget[] {
  const targets: ActionTarget[] = []
  const pathById = new Map<string, number[]>()
  const path: number[] = []

  const visit = (node: UiNode, ancestorsBlocked: boolean): void => {
    const blocked = ancestorsBlocked || isDisabled(node) || isHidden(node)
    const contract = node.semantic?.agentAction
    if (contract !== undefined) {
      const earlier = pathById.get(contract.id)
      if (earlier !== undefined) {
        throw new TesseraError(
          'invalid_frame',
          `expected unique action ids in a frame, found "${contract.id}" on two nodes: at path [${earlier.join(', ')}] and at path [${path.join(', ')}]`,
          { action: contract.id, firstPath: earlier, secondPath: [...path] },
        )
      }
      pathById.set(contract.id, [...path])
      targets.push({
        id: contract.id,
        contract,
        path: [...path],
        nodeId: node.id,
        role: node.role ?? 'button',
        name: node.name ?? contract.title,
        bounds: finiteBounds(layout, node.id, contract.id),
        enabled: !blocked,
      })
    }
    const children = node.children
    if (children === undefined) return
    for (let i = 0; i < children.length; i++) {
      path.push(i)
      visit(children[i] as UiNode, blocked)
      path.pop()
    }
  }

  visit(tree, false)
  return targets
}

function finiteBounds(layout: Layout, nodeId: string, actionId: string): Bounds {
  const bounds = Object.hasOwn(layout, nodeId) ? layout[nodeId] : undefined
  if (
    bounds === undefined ||
    !Number.isFinite(bounds.x) ||
    !Number.isFinite(bounds.y) ||
    !Number.isFinite(bounds.width) ||
    !Number.isFinite(bounds.height)
  ) {
    throw new TesseraError(
      'invalid_frame',
      `expected finite layout bounds for node "${nodeId}" (action "${actionId}"), found ${bounds === undefined ? 'none' : JSON.stringify(bounds)}`,
      { nodeId, action: actionId, expected: 'finite {x, y, width, height}', found: bounds ?? null },
    )
  }
  // A copy, so a consumer adjusting a target can never move the node in the layout.
  return { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height }
}
