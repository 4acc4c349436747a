import { z } from 'zod'
import { ActionContract } from './action-contract.js'
import { ActionTarget } from './action-target.js'
import { Capabilities } from './capabilities.js'
import { Layout } from './geometry.js'
import { JsonObject } from './json.js'
import { UiNode } from './node.js'
import { PROTOCOL_VERSION } from '../version.js'

export const SurfaceKind = z.enum(['app', 'browser', 'terminal', 'files', 'desktop', 'genui'])
export type SurfaceKind = z.infer<typeof SurfaceKind>

/** Set on a frame that shows part of its surface (a subtree, or the first nodes of a huge tree). */
export const PartialView = z.looseObject({
  /** The node the view starts at; absent when it starts at the root. */
  scope: z.string().optional(),
  /** Nodes left out below the scope because of `maxNodes`. */
  omitted: z.number().int().nonnegative(),
  /** The id of the whole frame this is part of: the one a request names. */
  of: z.string().optional(),
})
export type PartialView = z.infer<typeof PartialView>

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha-256 hex content hash')

/**
 * A snapshot of one surface. `id` hashes what the UI means — roles, names, values, states,
 * texts, contracts, targets, route and state — and not its geometry, so a clock ticking in a
 * corner changes the id while a scroll or a resize does not. `version` counts the frames a
 * hub has seen of the surface, so readers can order two frames even when an id recurs.
 */
export const Frame = z.looseObject({
  protocol: z.literal(PROTOCOL_VERSION),
  /** Monotonic per tile, assigned by the hub's frame cache; 0 in a frame no cache has seen. */
  version: z.number().int().nonnegative(),
  surface: z.string().min(1),
  route: z.string(),
  id: sha256,
  tree: UiNode,
  /** Bounds per node id, in the coordinates used to render and to hit-test; outside the id. */
  layout: Layout,
  /** Every contract the frame offers, each once. */
  contracts: z.array(ActionContract),
  /** Where each contract can run now: on which node (if any), and whether it is enabled. */
  targets: z.array(ActionTarget),
  state: JsonObject,
  capabilities: Capabilities,
  partial: PartialView.optional(),
})
export type Frame = z.infer<typeof Frame>

/** A frame before its id is computed. */
export const FrameBody = Frame.omit({ id: true })
export type FrameBody = z.infer<typeof FrameBody>
