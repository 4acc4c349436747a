import { z } from 'zod'
import { ActionContract } from './action-contract.js'
import { Bounds } from './geometry.js'

/** A contract located in the frame: where it is, what it is called, whether it can run. */
export const ActionTarget = z.looseObject({
  id: z.string(),
  contract: ActionContract,
  /** Child indices from the root to the node that carries the contract. */
  path: z.array(z.number().int().nonnegative()),
  nodeId: z.string(),
  role: z.string(),
  name: z.string(),
  bounds: Bounds,
  enabled: z.boolean(),
})
export type ActionTarget = z.infer<typeof ActionTarget>
