import { z } from 'zod'

const finite = z.number().refine(Number.isFinite, { message: 'expected a finite number' })

/** A rectangle in the coordinates used both to render and to hit-test. */
export const Bounds = z.object({
  x: finite,
  y: finite,
  width: finite.refine((n) => n >= 0, 'expected a width ≥ 0'),
  height: finite.refine((n) => n >= 0, 'expected a height ≥ 0'),
})
export type Bounds = z.infer<typeof Bounds>

/** Absolute bounds of every laid-out node, keyed by node id. */
export const Layout = z.record(z.string(), Bounds)
export type Layout = z.infer<typeof Layout>
