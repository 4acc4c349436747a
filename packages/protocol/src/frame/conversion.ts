import { contentHash } from '../content-hash.js'
import { TesseraError, describeValue } from '../errors.js'
import type { ActionContract, ActionContractInput } from '../schemas/action-contract.js'
import { Frame } from '../schemas/frame.js'
import type { Bounds, Layout } from '../schemas/geometry.js'
import type { JsonObject } from '../schemas/json.js'
import { UiNode } from '../schemas/node.js'
import { parseOrThrow } from '../validate.js'
import { LEGACY_PROTOCOL_VERSION, PREVIOUS_PROTOCOL_VERSION, PROTOCOL_VERSION, SUPPORTED_VERSIONS } from '../version.js'
import { frameId } from './frame-id.js'
import { type TargetSpec, sealFrame } from './seal-frame.js'
import { resolvedTargets } from './targets.js'

export interface UpConvertOptions {
  /** Surface id for legacy frames, which did not carry one. */
  surface?: string
}

type Loose = Record<string, unknown>

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Legacy layouts were a geometry tree parallel to the UI tree. Flatten it into the
 * id-keyed record this version uses, walking both trees in step.
 */
function flattenLegacyLayout(tree: unknown, layout: unknown, out: Layout): void {
  if (!isObject(tree) || !isObject(layout)) return
  const { x, y, width, height } = layout as Partial<Bounds>
  if (typeof tree.id === 'string' && [x, y, width, height].every((n) => typeof n === 'number')) {
    out[tree.id] = { x: x as number, y: y as number, width: width as number, height: height as number }
  }
  const nodeChildren = Array.isArray(tree.children) ? tree.children : []
  const layoutChildren = Array.isArray(layout.children) ? layout.children : []
  nodeChildren.forEach((child, index) => flattenLegacyLayout(child, layoutChildren[index], out))
}

function nodeAtPath(tree: unknown, path: unknown): Loose | undefined {
  if (!Array.isArray(path)) return undefined
  let node: unknown = tree
  for (const index of path) {
    if (!isObject(node) || !Array.isArray(node.children) || typeof index !== 'number') return undefined
    node = node.children[index]
  }
  return isObject(node) ? node : undefined
}

/**
 * Frames before this version embedded the whole contract in every action target and
 * repeated it on the node. Here each contract is listed once and each target points at it;
 * the rest of the frame (unknown fields included) is kept as it was.
 */
function fromEmbeddedActions(raw: Loose, layout: Layout, options: UpConvertOptions, extra: Loose): Frame {
  const { version: _version, id: _id, actions, tree, layout: _layout, trace: _trace, ...rest } = raw
  const contracts: ActionContractInput[] = []
  const targets: TargetSpec[] = []
  for (const action of Array.isArray(actions) ? actions : []) {
    if (!isObject(action) || !isObject(action.contract)) throw new TesseraError('invalid_frame', `expected actions with a contract, found ${describeValue(action)}`)
    const nodeId = typeof action.nodeId === 'string' ? action.nodeId : nodeAtPath(tree, action.path)?.id
    contracts.push(action.contract as ActionContractInput)
    targets.push({ contract: String(action.contract.id), nodeId: typeof nodeId === 'string' ? nodeId : undefined, enabled: action.enabled !== false })
  }
  const checkedTree = parseOrThrow(UiNode, tree, 'frame tree', 'invalid_frame')
  const frame = sealFrame({
    surface: typeof raw.surface === 'string' ? raw.surface : (options.surface ?? 'legacy'),
    route: typeof raw.route === 'string' ? raw.route : '/',
    tree: stripCarried(checkedTree),
    layout,
    state: (isObject(raw.state) ? raw.state : {}) as JsonObject,
    capabilities: isObject(raw.capabilities) ? raw.capabilities : {},
    contracts,
    targets,
  })
  const { surface: _s, route: _r, state: _st, capabilities: _c, ...unknownFields } = rest
  const kept = { ...unknownFields, ...extra, ...frame }
  return { ...kept, id: frameId(kept as Frame) } as Frame
}

/** The old node kept a copy of its contract; the converted frame lists it once. */
function stripCarried(node: UiNode): UiNode {
  const children = node.children?.map(stripCarried)
  const semantic = node.semantic
  let out: UiNode = children === undefined ? node : { ...node, children }
  if (semantic?.agentAction !== undefined) {
    const { agentAction: _a, ...others } = semantic
    const { semantic: _s, ...bare } = out
    out = Object.keys(others).length > 0 ? { ...bare, semantic: others } : bare
  }
  return out
}

function checkPreviousId(raw: Loose): void {
  const { id, ...rest } = raw
  if (typeof id === 'string' && contentHash(rest) !== id) {
    throw new TesseraError('invalid_frame', 'frame id does not match its content: the frame was altered after it was sealed', { expected: contentHash(rest), found: id })
  }
}

function versionOf(raw: Loose): unknown {
  return raw.protocol ?? raw.version
}

/**
 * Reads a frame of any supported version and returns it in this version, validated. The
 * id is checked against the content: a frame whose id does not match was altered.
 */
export function readFrame(raw: unknown, options: UpConvertOptions = {}): Frame {
  if (!isObject(raw)) throw new TesseraError('invalid_frame', `expected a frame object, found ${describeValue(raw)}`)
  const version = versionOf(raw)
  if (version === LEGACY_PROTOCOL_VERSION) {
    const layout: Layout = {}
    if (isObject(raw.layout) && ('children' in raw.layout || 'width' in raw.layout)) flattenLegacyLayout(raw.tree, raw.layout, layout)
    else if (isObject(raw.layout)) Object.assign(layout, raw.layout)
    // The legacy inline trace is kept as an unknown field: preserved, never acted upon.
    return fromEmbeddedActions(raw, layout, options, raw.trace === undefined ? {} : { legacyTrace: raw.trace })
  }
  if (version === PREVIOUS_PROTOCOL_VERSION) {
    checkPreviousId(raw)
    return fromEmbeddedActions(raw, (isObject(raw.layout) ? raw.layout : {}) as Layout, options, {})
  }
  if (version !== PROTOCOL_VERSION) {
    throw new TesseraError('unsupported_version', `expected a frame version in ${SUPPORTED_VERSIONS.join(', ')}, found ${describeValue(version)}`, {
      expected: SUPPORTED_VERSIONS,
      found: (version ?? null) as string | null,
    })
  }
  const frame = parseOrThrow(Frame, raw, 'frame', 'invalid_frame')
  const expected = frameId(frame)
  if (expected !== frame.id) {
    throw new TesseraError('invalid_frame', 'frame id does not match its content: the frame was altered after it was sealed', { expected, found: frame.id })
  }
  return frame
}

export interface LegacyFrame {
  version: typeof LEGACY_PROTOCOL_VERSION
  surface: string
  route: string
  tree: UiNode
  layout: Layout
  actions: Loose[]
  state: JsonObject
  capabilities: Loose
  [unknown: string]: unknown
}

/**
 * For clients that only speak the original protocol (`geometra.agent-native/0`), where each action sat on a node with its
 * whole contract. Actions of the whole surface have no node there and are left out;
 * fields old clients do not know stay, as that protocol ignores unknown fields.
 */
export function downConvert(frame: Frame, target: typeof LEGACY_PROTOCOL_VERSION): LegacyFrame {
  const { id: _id, version: _version, protocol: _protocol, contracts: _contracts, targets: _targets, ...rest } = frame
  const actions: Loose[] = []
  const carried = new Map<string, ActionContract>()
  for (const resolved of resolvedTargets(frame)) {
    if (resolved.target.nodeId === undefined || resolved.node === undefined) continue
    carried.set(resolved.target.nodeId, resolved.contract)
    actions.push({
      id: resolved.contract.id,
      contract: resolved.contract,
      nodeId: resolved.target.nodeId,
      role: resolved.node.role ?? 'button',
      name: resolved.node.name ?? resolved.contract.title,
      ...(frame.layout[resolved.target.nodeId] === undefined ? {} : { bounds: frame.layout[resolved.target.nodeId] }),
      enabled: resolved.target.enabled,
    })
  }
  const putBack = (node: UiNode): UiNode => {
    const contract = carried.get(node.id)
    const children = node.children?.map(putBack)
    const withChildren = children === undefined ? node : { ...node, children }
    return contract === undefined ? withChildren : { ...withChildren, semantic: { ...node.semantic, agentAction: contract } }
  }
  return { ...rest, tree: putBack(frame.tree), actions, version: target } as LegacyFrame
}
