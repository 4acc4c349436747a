import type { Risk } from './schemas/action-contract.js'

/** Risks from the least to the most consequential; every comparison of risks reads this one order. */
export const RISK_ORDER: Readonly<Record<Risk, number>> = Object.freeze({ read: 0, write: 1, external: 2, destructive: 3 })

/** The most consequential of the given risks (absent ones are skipped): risks only ever combine upwards. */
export function maxRisk(first: Risk, ...rest: ReadonlyArray<Risk | null | undefined>): Risk {
  let highest = first
  for (const risk of rest) if (risk !== null && risk !== undefined && RISK_ORDER[risk] > RISK_ORDER[highest]) highest = risk
  return highest
}

/** Whether `risk` is at least as consequential as `floor`. */
export function riskAtLeast(risk: Risk, floor: Risk): boolean {
  return RISK_ORDER[risk] >= RISK_ORDER[floor]
}
