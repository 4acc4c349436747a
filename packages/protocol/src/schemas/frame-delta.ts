import { z } from 'zod'

const NodeSummary = z.object({
  nodeId: z.string(),
  role: z.string().optional(),
  name: z.string().optional(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
})

/** What changed between two frames, small enough to hand a model instead of a snapshot. */
export const FrameDelta = z.object({
  from: z.string(),
  to: z.string(),
  route: z.object({ from: z.string(), to: z.string() }).optional(),
  added: z.array(NodeSummary),
  removed: z.array(NodeSummary),
  changed: z.array(NodeSummary.extend({ fields: z.array(z.string()) })),
  actionsAdded: z.array(z.string()),
  actionsRemoved: z.array(z.string()),
  actionsEnabledChanged: z.array(z.object({ id: z.string(), enabled: z.boolean() })),
})
export type FrameDelta = z.infer<typeof FrameDelta>
