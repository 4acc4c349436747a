import { z } from 'zod'
import { ActionTarget } from './action-target.js'
import { Capabilities } from './capabilities.js'
import { Layout } from './geometry.js'
import { JsonObject } from './json.js'
import { UiNode } from './node.js'
import { PROTOCOL_VERSION } from '../version.js'

export const SurfaceKind = z.enum(['app', 'browser', 'terminal', 'files', 'desktop', 'genui'])
export type SurfaceKind = z.infer<typeof SurfaceKind>

/**
 * A deterministic snapshot of one surface. `id` is a content hash of everything else, so
 * the same UI always yields the same id and a request can name the frame it was made on.
 */
export const Frame = z.looseObject({
  version: z.literal(PROTOCOL_VERSION),
  surface: z.string().min(1),
  route: z.string(),
  id: z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha-256 hex content hash'),
  tree: UiNode,
  layout: Layout,
  actions: z.array(ActionTarget),
  state: JsonObject,
  capabilities: Capabilities,
})
export type Frame = z.infer<typeof Frame>

/** A frame before its id is computed. */
export const FrameBody = Frame.omit({ id: true })
export type FrameBody = z.infer<typeof FrameBody>
