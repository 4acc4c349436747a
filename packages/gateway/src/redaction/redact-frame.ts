import { canonicalJson, type Frame, isSensitive, type JsonObject, type JsonValue, type UiNode, withFreshId } from '@tessera/protocol'
import { redactContent } from './redact-content.js'
import { redactJson } from './redact-json.js'
import { REDACTED } from './secret-names.js'

/** The node itself when nothing in it is sensitive, so an unchanged frame keeps its id without hashing it again. */
function redactNode(node: UiNode): UiNode {
  let children = node.children
  if (children !== undefined) {
    const redacted = children.map(redactNode)
    if (redacted.some((child, i) => child !== children?.[i])) children = redacted
  }
  if (!isSensitive(node)) return children === node.children ? node : { ...node, children }
  const out: UiNode = { ...node }
  if (out.value !== undefined && out.value !== null && out.value !== '') out.value = REDACTED
  if (out.text !== undefined && out.text !== '') out.text = REDACTED
  if (children) out.children = children
  return out
}

/**
 * Removes secrets a surface shows: values of password and sensitive nodes, state fields
 * named like secrets, and secrets found by content anywhere in the tree or the state.
 * Idempotent, so a frame already redacted at its surface keeps its id.
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
  // Marked nodes first, then what any node's name, value or text shows (a screen line, a cell).
  const tree = redactContent(redactNode(frame.tree) as unknown as JsonValue) as unknown as UiNode
  const state = redactJson(frame.state) as JsonObject
  // Most frames hold no secret: the same tree and equal state need no second hash.
  if (tree === frame.tree && canonicalJson(state) === canonicalJson(frame.state)) return frame
  const redacted = withFreshId({ ...frame, tree, state })
  return redacted.id === frame.id ? frame : redacted
}
