import type { Page } from 'playwright-core'
import { type ChangeMark, alreadyRead } from './change-mark.js'

/** One capture of a page in progress, and the notices of its top document heard meanwhile. */
interface Run {
  page: Page
  notices: ChangeMark[]
}

/**
 * Notices of change from a page's top document that come in while a capture of that page runs:
 * each is held until the capture says where the document stood when it was read, and told on
 * only if it speaks of a later change (see ChangeMark). A notice heard with no capture running,
 * from another frame, or without a mark is told at once, as before there were marks.
 */
export class CaptureNotices {
  readonly #runs = new Set<Run>()

  /** Whether this notice is held by the captures of its page that run; false: tell it now. */
  hold(page: Page, mark: ChangeMark | null): boolean {
    if (mark === null) return false
    let held = false
    for (const run of this.#runs) {
      if (run.page !== page) continue
      run.notices.push(mark)
      held = true
    }
    return held
  }

  /**
   * Runs a capture of `page`, then tells of the notices it held that the capture did not read
   * (`tell`, once); all of them when the capture failed.
   */
  async around<T>(page: Page, capture: () => Promise<T>, markOf: (value: T) => ChangeMark | null, tell: () => void): Promise<T> {
    const run: Run = { page, notices: [] }
    this.#runs.add(run)
    let read: ChangeMark | null = null
    try {
      const value = await capture()
      read = markOf(value)
      return value
    } finally {
      this.#runs.delete(run)
      if (run.notices.some((notice) => !alreadyRead(read, notice))) tell()
    }
  }
}
