import { type Frame, type Risk, type RiskAssessment, maxRisk } from '@tessera/protocol'

/**
 * The risk of a click at a point of the view: the highest of the targets drawn there (a button
 * that deletes, a link that leaves the site, the box around them), as a click on that element
 * would be weighed. A point is no way around an element's approval. Null where none is drawn
 * there: the action's own risk stands.
 */
export function riskAtPoint(frame: Frame, point: { x: number; y: number }): RiskAssessment | null {
  const layout = frame.layout ?? {}
  // The frame lays the page out in its own coordinates; the root's box is the view, scroll included.
  const view = layout[frame.tree.id]
  const x = point.x + (view?.x ?? 0)
  const y = point.y + (view?.y ?? 0)
  const contracts = new Map(frame.contracts.map((contract) => [contract.id, contract.risk]))
  let risk: Risk | undefined
  for (const target of frame.targets) {
    const box = target.nodeId === undefined ? undefined : layout[target.nodeId]
    if (box === undefined || x < box.x || y < box.y || x > box.x + box.width || y > box.y + box.height) continue
    const own = target.risk ?? contracts.get(target.contract)
    if (own !== undefined) risk = risk === undefined ? own : maxRisk(risk, own)
  }
  return risk === undefined ? null : { risk, reason: `what is drawn at ${point.x}, ${point.y} is ${risk}` }
}
