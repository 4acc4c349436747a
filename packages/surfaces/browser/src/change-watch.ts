/**
 * Runs in every document of a tile before the page's own scripts: tells the tile when the
 * DOM changes (at most every 80 ms, through the `__tesseraChanged` binding) so a cached frame
 * is never served stale, and offers `__tesseraQuiet(quietMs, maxMs)`, which resolves once
 * the DOM has gone quietMs without a change — how an action knows the page has settled.
 * Both are non-enumerable and set once; a page that overwrites them only blinds itself.
 */
export const CHANGE_WATCH_SCRIPT = `(() => {
  if (window.__tesseraQuiet) return
  let last = performance.now()
  let timer = 0
  const changed = () => {
    last = performance.now()
    if (timer) return
    timer = setTimeout(() => {
      timer = 0
      const notify = window.__tesseraChanged
      if (typeof notify === 'function') notify().catch(() => {})
    }, 80)
  }
  Object.defineProperty(window, '__tesseraQuiet', {
    value: (quietMs, maxMs) => new Promise((resolve) => {
      const started = performance.now()
      const check = () => {
        const now = performance.now()
        if (now - last >= quietMs || now - started >= maxMs) resolve(now - started)
        // Looks again the moment the page would have been quiet that long, not on a coarser beat.
        else setTimeout(check, Math.max(1, Math.min(last + quietMs - now, started + maxMs - now)))
      }
      check()
    }),
  })
  new MutationObserver(changed).observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
  addEventListener('scroll', changed, { capture: true, passive: true })
  addEventListener('input', changed, { capture: true, passive: true })
})()`
