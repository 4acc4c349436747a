import { z } from 'zod'

export const ConfirmationMode = z.enum(['console', 'cli', 'elicitation', 'http'])
export type ConfirmationMode = z.infer<typeof ConfirmationMode>

/** What the host of a surface supports, so clients can adapt instead of guessing. */
export const Capabilities = z.looseObject({
  tools: z.array(z.string()).default([]),
  confirmationModes: z.array(ConfirmationMode).default(['console', 'cli']),
  exportModes: z.array(z.string()).default(['jsonl']),
  replay: z.boolean().default(true),
  capture: z.boolean().default(false),
})
export type Capabilities = z.infer<typeof Capabilities>
