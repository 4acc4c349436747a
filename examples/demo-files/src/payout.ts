export function payoutAmount(claimed: number, deductible: number): number {
  return Math.max(0, claimed - deductible)
}
