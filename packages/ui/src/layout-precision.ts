/** Decimals every layout coordinate is rounded to: the same input gives byte-identical frames. */
export const LAYOUT_PRECISION = 2
const SCALE = 10 ** LAYOUT_PRECISION

/** Rounds to LAYOUT_PRECISION and folds -0 into 0. */
export function round(value: number): number {
  return Math.round(value * SCALE) / SCALE + 0
}
