import { contentHash, sha256Hex } from '../content-hash.js'
import type { Frame, FrameBody } from '../schemas/frame.js'
import type { UiNode } from '../schemas/node.js'

/**
 * What of a node is meaning: everything but `style`, the geometry and paint a surface laid
 * out with. A node's bounds live in the frame's layout, which is left out altogether.
 */
function meaningOfNode(node: UiNode): Record<string, unknown> {
  const { style: _style, children, ...meaning } = node
  if (children === undefined) return meaning
  const kept = new Array<unknown>(children.length)
  for (let i = 0; i < children.length; i++) kept[i] = meaningOfNode(children[i] as UiNode)
  return { ...meaning, children: kept }
}

/**
 * The part of a frame its id hashes: roles, names, values, states, texts, contracts,
 * targets, route, state and capabilities — not the layout, node styles or the version. Two
 * frames with one id mean the same to an agent even if a scroll or a resize moved things.
 */
export function frameMeaning(body: FrameBody | Frame): Record<string, unknown> {
  const { id: _id, version: _version, layout: _layout, tree, ...rest } = body as Frame
  return { ...rest, tree: meaningOfNode(tree) }
}

/** The frame id: SHA-256 of the RFC 8785 canonical JSON of the frame's meaning. */
export function frameId(body: FrameBody | Frame): string {
  return contentHash(frameMeaning(body))
}

/**
 * A frame as it is stored: JSON of everything but `version` (which only orders frames), and
 * the hash of that text, which names the stored copy. Unlike the id, it covers geometry, so
 * two layouts of one meaning are two stored frames. Plain JSON.stringify, not the canonical
 * form: the stored text is the evidence and is read back as it is (its id is checked on
 * reading); a surface builds its frames in one key order, so one frame is still stored once,
 * and the native writer costs a fraction of the canonical one on every action.
 */
export function storedFrame(frame: Frame): { hash: string; text: string } {
  const known = storedCache.get(frame)
  if (known !== undefined) return known
  const { version: _version, ...content } = frame
  const text = JSON.stringify(content)
  const stored = { hash: sha256Hex(text), text }
  storedCache.set(frame, stored)
  return stored
}

/**
 * Frames are not changed once sealed, and the frame an action starts from is the one the
 * previous action ended with: each is serialized for the trace once, not at every step.
 */
const storedCache = new WeakMap<Frame, { hash: string; text: string }>()

/** A sealed frame whose content was changed (redacted, say), with its id computed again. */
export function withFreshId(frame: Frame): Frame {
  const id = frameId(frame)
  return id === frame.id ? frame : { ...frame, id }
}
