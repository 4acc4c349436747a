/**
 * Where a document stands in its changes: which document (a random word each document draws
 * for itself) and how many changes its change watch has counted. A notice of change carries the
 * mark of when it was sent; a capture reads the mark before it reads the page. A notice that
 * comes in while a capture runs, of changes no newer than the capture's mark, tells of what the
 * capture read already: the frame it makes is not stale for it, and is not taken again. A
 * huge page's first capture took 2.7 s, and a notice late by a few milliseconds made it a
 * second one. A page that fakes its marks only misleads the frame of itself.
 */
export interface ChangeMark {
  document: string
  changes: number
}

/** The `[document, changes]` pair the change watch gives, or null for anything else. */
export function readChangeMark(value: unknown): ChangeMark | null {
  if (!Array.isArray(value) || value.length !== 2) return null
  const [document, changes] = value as unknown[]
  return typeof document === 'string' && typeof changes === 'number' && Number.isFinite(changes) ? { document, changes } : null
}

/** Whether a capture that read the page at `read` saw every change `notice` tells of. */
export function alreadyRead(read: ChangeMark | null, notice: ChangeMark | null): boolean {
  return read !== null && notice !== null && notice.document === read.document && notice.changes <= read.changes
}
