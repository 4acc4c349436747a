import { z } from 'zod'
import { JsonObject } from './json.js'

/** Read-only view of a surface's business state, as the chat agent sees it. */
export const StateSnapshot = z.object({
  surface: z.string(),
  frameId: z.string(),
  route: z.string(),
  timestamp: z.string().datetime({ offset: true }),
  state: JsonObject,
  /** Labels of the targets currently enabled (the contract id, or `contract@ref` when it runs on several elements). */
  actions: z.array(z.string()),
})
export type StateSnapshot = z.infer<typeof StateSnapshot>
