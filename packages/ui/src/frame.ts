import {
  type ActionContractInput,
  Capabilities,
  type Frame,
  JsonObject,
  type TargetSpec,
  TesseraError,
  UiNode,
  parseOrThrow,
  sealFrame,
} from '@tessera/protocol'
import type { ElementNode } from './elements.js'
import type { LayoutEngine, Viewport } from './layout-engine.js'
import { computeLayout } from './layout.js'
import { finalizeTree } from './node-ids.js'

export interface BuildFrameInput {
  surface: string
  route: string
  /** An element tree (ids are derived) or a finished UiNode tree (its ids are kept). */
  tree: UiNode | ElementNode
  /** The business state conditions read; must be plain JSON. */
  state: JsonObject
  viewport: Viewport
  /** Omitted fields take the protocol defaults. */
  capabilities?: Partial<Capabilities> | undefined
  /**
   * A surface that snapshots repeatedly passes its own engine, so each layout reuses the
   * yoga nodes of the last one; without it, layout starts from scratch.
   */
  layoutEngine?: LayoutEngine | undefined
  /** Contracts of the whole surface, besides those the tree's nodes carry. */
  contracts?: readonly ActionContractInput[] | undefined
  /** Where those contracts run, when not on the whole surface. */
  targets?: readonly TargetSpec[] | undefined
  /**
   * `false` skips checking the tree against the UiNode schema: for a tree the surface's
   * own code builds with these elements, which TypeScript has checked, snapshotted on every
   * action (a terminal's screen). A tree from an app module is always checked.
   */
  validateTree?: boolean | undefined
}

/**
 * Snapshots a UI written with these elements: stable ids, a yoga layout, then the
 * protocol's sealFrame (contracts, targets, the meaning id). Deterministic: the same input
 * always yields byte-identical JSON and the same id.
 */
export function buildFrame(input: BuildFrameInput): Frame {
  if (typeof input.surface !== 'string' || input.surface.length === 0) {
    throw new TesseraError('invalid_frame', `expected a non-empty surface id, found ${JSON.stringify(input.surface)}`, {
      expected: 'non-empty string',
      found: typeof input.surface,
    })
  }
  if (typeof input.route !== 'string') {
    throw new TesseraError('invalid_frame', `expected a route string, found ${typeof input.route}`, {
      expected: 'string',
      found: typeof input.route,
    })
  }
  // Finalizing is idempotent on a finished tree (explicit ids win), and it strips keys,
  // undefined fields and functions either way.
  const finished = finalizeTree(input.tree)
  const tree = input.validateTree === false ? finished : parseOrThrow(UiNode, finished, 'frame tree', 'invalid_frame')
  const state = parseOrThrow(JsonObject, input.state, 'frame state', 'invalid_frame')
  const capabilities = parseOrThrow(Capabilities, input.capabilities ?? {}, 'frame capabilities', 'invalid_frame')
  const layout = input.layoutEngine ? input.layoutEngine.layout(tree, input.viewport) : computeLayout(tree, input.viewport)
  return sealFrame({
    surface: input.surface,
    route: input.route,
    tree,
    layout,
    state,
    capabilities,
    contracts: input.contracts,
    targets: input.targets,
  })
}
