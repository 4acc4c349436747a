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
const Point = z.strictObject({ x: z.number().int().min(0).max(16_384), y: z.number().int().min(0).max(16_384) })
export const DragAtInput = z.strictObject({
  from: Point,
  to: Point,
  button: z.enum(['left', 'middle', 'right']).optional(),
})
/** Wheel clicks at a point: dy down (negative: up), dx right (negative: left). */
export const ScrollAtInput = z.strictObject({
  x: z.number().int().min(0).max(16_384),
  y: z.number().int().min(0).max(16_384),
  dx: z.number().int().min(-50).max(50).optional(),
  dy: z.number().int().min(-50).max(50).optional(),
})
export const DoneOutput = z.object({ done: z.string() })
export const WaitInput = z.strictObject({
  /** The widget's role as the frame says it (dialog, button, textbox, window…). */
  role: z.string().min(1).max(40),
  /** Its name, whole; any letter case. */
  name: z.string().min(1).max(1000).optional(),
  /** Wait for it to go instead. */
  gone: z.boolean().optional(),
  /** Seconds, at most 30; default 10. */
  time: z.number().min(0).max(30).optional(),
})
export const WaitOutput = z.object({ done: z.string(), waitedMs: z.number() })
export const TypeTextInput = z.strictObject({ text: z.string().min(1).max(10_000) })
export const ShortcutsInput = z.strictObject({
  /** all, built-in (the app's and its toolkit's), ai-added, or a category (file, edit…). */
  category: z.string().min(1).max(40).optional(),
})
export const ShortcutsOutput = z.object({ shortcuts: z.array(z.record(z.string(), z.unknown())) })
export const DiscoverInput = z.strictObject({
  /** Open each menu that has not said its items, and each popup button, to read them; closes them again. */
  deep: z.boolean().optional(),
})
export const DiscoverOutput = z.record(z.string(), z.unknown())
