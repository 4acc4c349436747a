import type { BrowserContext, Dialog, Page } from 'playwright-core'

/** A dialog open in a browser context, and the tile that shows it. */
export interface DialogElsewhere {
  readonly dialog: Dialog
  readonly tile: string
}

/**
 * The dialogs open in one browser context, whichever of its tiles shows each. A window a page
 * opens on its own site shares the page's thread (one renderer): while the window's dialog
 * waits for an answer, the opener runs no script either, and its tile must say what it waits
 * on rather than wait on it.
 */
export class ContextDialogs {
  static readonly #all = new WeakMap<BrowserContext, ContextDialogs>()

  static of(context: BrowserContext): ContextDialogs {
    let dialogs = ContextDialogs.#all.get(context)
    if (dialogs === undefined) {
      dialogs = new ContextDialogs()
      ContextDialogs.#all.set(context, dialogs)
      // Playwright dismisses a dialog no listener hears: one a window shows as it loads can come
      // before any tile took the window. Held here until one does (see claim).
      const held = dialogs.#unclaimed
      context.on('dialog', (dialog) => {
        const page = dialog.page()
        if (page !== null) held.set(page, dialog)
      })
    }
    return dialogs
  }

  readonly #open = new Map<Dialog, string>()
  readonly #unclaimed = new Map<Page, Dialog>()
  readonly #waiters = new Set<() => void>()
  readonly #watchers = new Set<() => void>()

  /** Calls `changed` whenever a dialog opens or is answered in the context; the function returned stops it. */
  watch(changed: () => void): () => void {
    this.#watchers.add(changed)
    return () => this.#watchers.delete(changed)
  }

  /** A dialog `page` showed before any tile heard it, now the caller's to show (and to answer). */
  claim(page: Page): Dialog | undefined {
    const dialog = this.#unclaimed.get(page)
    this.#unclaimed.delete(page)
    return dialog
  }

  opened(dialog: Dialog, tile: string): void {
    const page = dialog.page()
    if (page !== null && this.#unclaimed.get(page) === dialog) this.#unclaimed.delete(page)
    this.#open.set(dialog, tile)
    for (const waiter of [...this.#waiters]) waiter()
    for (const changed of [...this.#watchers]) changed()
  }

  answered(dialog: Dialog): void {
    this.#open.delete(dialog)
    for (const changed of [...this.#watchers]) changed()
  }

  /** A dialog open over another page of the context than `page`, if any. */
  elsewhere(page: Page): DialogElsewhere | undefined {
    for (const [dialog, tile] of this.#open) {
      const over = dialog.page()
      if (over === null || over.isClosed()) this.#open.delete(dialog)
      else if (over !== page) return { dialog, tile }
    }
    return undefined
  }

  /** The dialog a tile shows, if any. */
  shownBy(tile: string): Dialog | undefined {
    for (const [dialog, shower] of this.#open) if (shower === tile && dialog.page()?.isClosed() === false) return dialog
    return undefined
  }

  /** Settles when a dialog next opens anywhere in the context; `stop` ends the wait. */
  next(): { promise: Promise<void>; stop: () => void } {
    let release = (): void => undefined
    const promise = new Promise<void>((done) => {
      release = done
      this.#waiters.add(release)
    })
    return { promise, stop: () => this.#waiters.delete(release) }
  }
}
