import { TesseraError, describeValue } from './errors.js'
import { sealFrame } from './frame-id.js'
import { Frame, FrameBody } from './schemas/frame.js'
import type { Bounds, Layout } from './schemas/geometry.js'
import type { UiNode } from './schemas/node.js'
import { parseOrThrow } from './validate.js'
import { LEGACY_PROTOCOL_VERSION, PROTOCOL_VERSION, SUPPORTED_VERSIONS } from './version.js'

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

function nodeAtPath(tree: unknown, path: unknown): UiNode | undefined {
  if (!Array.isArray(path)) return undefined
  let node: unknown = tree
  for (const index of path) {
    if (!isObject(node) || !Array.isArray(node.children) || typeof index !== 'number') return undefined
    node = node.children[index]
  }
  return isObject(node) ? (node as UiNode) : undefined
}

function upConvertLegacy(raw: Loose, options: UpConvertOptions): Frame {
  const { version: _legacy, trace, layout, actions, ...rest } = raw
  const flatLayout: Layout = {}
  if (isObject(layout) && ('children' in layout || 'width' in layout)) flattenLegacyLayout(raw.tree, layout, flatLayout)
  else if (isObject(layout)) Object.assign(flatLayout, layout)
  const upActions = Array.isArray(actions)
    ? actions.map((action) => {
        if (!isObject(action) || typeof action.nodeId === 'string') return action
        const node = nodeAtPath(raw.tree, action.path)
        return node ? { ...action, nodeId: node.id } : action
      })
    : actions
  const body = {
    ...rest,
    version: PROTOCOL_VERSION,
    surface: typeof raw.surface === 'string' ? raw.surface : (options.surface ?? 'legacy'),
    route: typeof raw.route === 'string' ? raw.route : '/',
    layout: flatLayout,
    actions: upActions,
    state: isObject(raw.state) ? raw.state : {},
    capabilities: isObject(raw.capabilities) ? raw.capabilities : {},
    // The legacy inline trace is kept as an unknown field: preserved, never acted upon.
    ...(trace === undefined ? {} : { legacyTrace: trace }),
  }
  const { id: _staleId, ...withoutId } = body as Loose
  const checked = parseOrThrow(FrameBody, withoutId, 'legacy frame', 'invalid_frame')
  return sealFrame(checked)
}

/**
 * Reads a frame of any supported version and returns it in this version, validated.
 * The id is checked against the content: a frame whose id does not match was altered.
 */
export function readFrame(raw: unknown, options: UpConvertOptions = {}): Frame {
  if (!isObject(raw)) {
    throw new TesseraError('invalid_frame', `expected a frame object, found ${describeValue(raw)}`)
  }
  if (raw.version === LEGACY_PROTOCOL_VERSION) return upConvertLegacy(raw, options)
  if (raw.version !== PROTOCOL_VERSION) {
    throw new TesseraError(
      'unsupported_version',
      `expected a frame version in ${SUPPORTED_VERSIONS.join(', ')}, found ${describeValue(raw.version)}`,
      { expected: SUPPORTED_VERSIONS, found: raw.version ?? null },
    )
  }
  const frame = parseOrThrow(Frame, raw, 'frame', 'invalid_frame')
  const sealed = sealFrame(frame)
  if (sealed.id !== frame.id) {
    throw new TesseraError('invalid_frame', 'frame id does not match its content: the frame was altered after it was sealed', {
      expected: sealed.id,
      found: frame.id,
    })
  }
  return frame
}

export type LegacyFrame = Omit<Frame, 'version' | 'id'> & { version: typeof LEGACY_PROTOCOL_VERSION }

/**
 * For clients that only speak the seed protocol. Fields they do not know (surface, state,
 * nodeId) stay: old clients ignore unknown fields by that protocol's own rule.
 */
export function downConvert(frame: Frame, target: typeof LEGACY_PROTOCOL_VERSION): LegacyFrame {
  const { id: _id, version: _version, ...rest } = frame
  return { ...rest, version: target }
}
