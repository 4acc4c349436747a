import { Approval, TesseraError, parseOrThrow } from '@tessera/protocol'

/** Validates before storing, so a store never holds an approval it could not give back. */
export function validApproval(approval: Approval): Approval {
  return parseOrThrow(Approval, approval, 'approval', 'invalid_request')
}

/** Stores keep an approval as JSON text; indexed columns beside it serve the filters. */
export function approvalFromJson(text: string, id: string): Approval {
  try {
    return JSON.parse(text) as Approval
  } catch (error) {
    throw new TesseraError('store_error', `stored approval ${id} is not JSON`, {
      id,
      expected: 'JSON of an approval',
      found: text.slice(0, 120),
      cause: error instanceof Error ? error.message : String(error),
    })
  }
}

/** Oldest first; id breaks ties so every backend lists in the same order. */
export function compareApprovals(a: Approval, b: Approval): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
