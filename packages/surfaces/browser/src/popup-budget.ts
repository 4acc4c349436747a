/**
 * Windows a tile's pages may open within POPUP_WINDOW_MS; any more are closed as they open.
 * Chromium's popup blocker is off under automation, so one click that loops over
 * `window.open` opened 60 tiles on the map.
 */
export const MAX_POPUPS = 5
const POPUP_WINDOW_MS = 60_000

/** The windows a tile's pages opened lately, and how many more they opened than may stay. */
export class PopupBudget {
  /** When each window that stayed came, within the last POPUP_WINDOW_MS. */
  #times: number[] = []
  #refused = 0

  /** Whether one more window may stay; one that may not is counted as refused. */
  take(now = performance.now()): boolean {
    this.#times = this.#times.filter((at) => now - at < POPUP_WINDOW_MS)
    if (this.#times.length === 0) this.#refused = 0
    if (this.#times.length >= MAX_POPUPS) {
      this.#refused += 1
      return false
    }
    this.#times.push(now)
    return true
  }

  /** A note of a window the page opened, with how many more it opened than it may, which were closed. */
  said(note: string): string {
    return this.#refused === 0 ? note : `${note}; ${this.#refused} more windows it opened within a minute were closed as they opened (at most ${MAX_POPUPS} stay)`
  }
}
