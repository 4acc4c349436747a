import { type ActionTarget, type Frame, type FrameDelta, type UiNode, targetLabel } from '@tessera/protocol'

type Summary = FrameDelta['added'][number]

function summarize(node: UiNode): Summary {
  const out: Summary = { nodeId: node.id }
  if (node.role !== undefined) out.role = node.role
  if (node.name !== undefined) out.name = node.name
  else if (node.text !== undefined) out.name = node.text
  if (node.value !== undefined) out.value = node.value
  return out
}

function index(tree: UiNode, into = new Map<string, UiNode>()): Map<string, UiNode> {
  into.set(tree.id, tree)
  for (const child of tree.children ?? []) index(child, into)
  return into
}

const COMPARED = ['role', 'name', 'text', 'value', 'states'] as const

function changedFields(a: UiNode, b: UiNode): string[] {
  return COMPARED.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]))
}

/**
 * What a model needs after an action: nodes that appeared, vanished or changed meaning,
 * and actions that came, went or changed enabled state — not geometry churn.
 */
export function frameDelta(before: Frame, after: Frame): FrameDelta {
  const a = index(before.tree)
  const b = index(after.tree)
  const delta: FrameDelta = {
    from: before.id,
    to: after.id,
    added: [],
    removed: [],
    changed: [],
    actionsAdded: [],
    actionsRemoved: [],
    actionsEnabledChanged: [],
  }
  if (before.route !== after.route) delta.route = { from: before.route, to: after.route }
  for (const [id, node] of b) {
    const old = a.get(id)
    if (old === undefined) delta.added.push(summarize(node))
    else {
      const fields = changedFields(old, node)
      if (fields.length > 0) delta.changed.push({ ...summarize(node), fields })
    }
  }
  for (const [id, node] of a) if (!b.has(id)) delta.removed.push(summarize(node))
  // Keyed by label: `approve-payout`, or `delete@n1k2` for a contract on several elements.
  // Targets that supply their own input (one per row) come and go with their rows, which the
  // node lines show; listing each again would repeat the rows.
  const labelled = (frame: Frame): Map<string, ActionTarget> => new Map(frame.targets.filter((t) => t.input === undefined).map((t) => [targetLabel(frame, t), t]))
  const oldActions = labelled(before)
  const newActions = labelled(after)
  for (const [id, target] of newActions) {
    const old = oldActions.get(id)
    if (old === undefined) delta.actionsAdded.push(id)
    else if (old.enabled !== target.enabled) delta.actionsEnabledChanged.push({ id, enabled: target.enabled })
  }
  for (const id of oldActions.keys()) if (!newActions.has(id)) delta.actionsRemoved.push(id)
  return delta
}
