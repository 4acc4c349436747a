import { z } from 'zod'

export const EmptyInput = z.strictObject({})
export const TypeInput = z.strictObject({
  text: z.string().max(100_000),
  /** Press Return after the text. */
  submit: z.boolean().optional(),
})
export const KeyInput = z.strictObject({ key: z.string().min(1).max(500).describe('chords such as Ctrl+Shift+S or Return; several separated by spaces') })
export const ClickAtInput = z.strictObject({
  x: z.number().int().min(0).max(16_384),
  y: z.number().int().min(0).max(16_384),
  button: z.enum(['left', 'middle', 'right']).optional(),
  double: z.boolean().optional(),
})
export const DoneOutput = z.object({ done: z.string() })
