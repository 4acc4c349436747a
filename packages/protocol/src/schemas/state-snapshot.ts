import { z } from 'zod'
import { JsonObject } from './json.js'

/** Read-only view of a surface's business state, as the chat agent sees it. */
export const StateSnapshot = z.object({
  surface: z.string(),
  frameId: z.string(),
  route: z.string(),
  timestamp: z.string().datetime({ offset: true }),
  state: JsonObject,
  /** Ids of the actions currently enabled. */
  actions: z.array(z.string()),
})
export type StateSnapshot = z.infer<typeof StateSnapshot>
