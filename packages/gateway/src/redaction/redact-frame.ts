import { type Frame, isSensitive, type JsonObject, type UiNode, withFreshId } from '@tessera/protocol'
import { redactJson } from './redact-json.js'
import { REDACTED } from './secret-names.js'

function redactNode(node: UiNode): UiNode {
  const children = node.children?.map(redactNode)
  if (!isSensitive(node)) return children ? { ...node, children } : node
  const out: UiNode = { ...node }
  if (out.value !== undefined && out.value !== null && out.value !== '') out.value = REDACTED
  if (out.text !== undefined && out.text !== '') out.text = REDACTED
  if (children) out.children = children
  return out
}

/**
 * Removes secrets a surface shows: values of password and sensitive nodes, state fields
 * named like secrets. Idempotent, so a frame already redacted at its surface keeps its id.
 */
const redactedCache = new WeakMap<Frame, Frame>()

export function redactFrame(frame: Frame): Frame {
  const cached = redactedCache.get(frame)
  if (cached !== undefined) return cached
  const result = redactUncached(frame)
  redactedCache.set(frame, result)
  redactedCache.set(result, result)
  return result
}

function redactUncached(frame: Frame): Frame {
  const redacted = withFreshId({ ...frame, tree: redactNode(frame.tree), state: redactJson(frame.state) as JsonObject })
  return redacted.id === frame.id ? frame : redacted
}
