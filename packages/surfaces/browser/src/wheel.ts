import type { Page } from 'playwright-core'

/** How long a wheel waits for what it turns to move: a box at its end never does. */
const WHEEL_SCROLL_MS = 1000
const WHEEL_POLL_MS = 15

/**
 * Where the page and every box under a point are scrolled to, as one string; nothing where no
 * box there (nor the page) can move the wheel's way, or over an iframe, whose own boxes this
 * document cannot read.
 */
function scrollStateAt(page: Page, x: number, y: number, deltaX: number, deltaY: number): Promise<string | null> {
  return page
    .evaluate(([px, py, dx, dy]) => {
      const root = document.scrollingElement ?? document.documentElement
      const boxes: Element[] = [root]
      for (let element = document.elementFromPoint(px, py); element !== null; element = element.parentElement) {
        if (element.tagName === 'IFRAME' || element.tagName === 'FRAME') return null
        if (element !== root) boxes.push(element)
      }
      // A box the page clips (overflow: hidden, a page behind a modal) is not moved by a wheel.
      const scrolls = (box: Element, axis: 'overflowX' | 'overflowY'): boolean => {
        const owner = box === root ? [document.documentElement, document.body] : [box]
        const styles = owner.filter((element): element is HTMLElement => element !== null).map((element) => getComputedStyle(element)[axis])
        return box === root ? !styles.includes('hidden') && !styles.includes('clip') : styles.some((style) => style === 'auto' || style === 'scroll' || style === 'overlay')
      }
      const canMove = (box: Element): boolean =>
        (dy !== 0 && scrolls(box, 'overflowY') && ((dy > 0 && box.scrollTop + box.clientHeight < box.scrollHeight - 1) || (dy < 0 && box.scrollTop > 0))) ||
        (dx !== 0 && scrolls(box, 'overflowX') && ((dx > 0 && box.scrollLeft + box.clientWidth < box.scrollWidth - 1) || (dx < 0 && box.scrollLeft > 0)))
      return boxes.some(canMove) ? boxes.map((box) => `${box.scrollLeft},${box.scrollTop}`).join(';') : null
    }, [x, y, deltaX, deltaY] as const)
    .catch(() => null)
}

/**
 * Turns the wheel at a point and waits until what it turned has moved, or a second has
 * passed. Chromium scrolls on its compositor and tells the page later: on a loaded machine,
 * later than the page's quiet, and an answer read at once showed the box where it was.
 */
export async function wheelAt(page: Page, x: number, y: number, deltaX: number, deltaY: number): Promise<void> {
  await page.mouse.move(x, y)
  const before = await scrollStateAt(page, x, y, deltaX, deltaY)
  await page.mouse.wheel(deltaX, deltaY)
  if (before === null) return
  const deadline = performance.now() + WHEEL_SCROLL_MS
  while (performance.now() < deadline) {
    const now = await scrollStateAt(page, x, y, deltaX, deltaY)
    if (now === null || now !== before) return
    await new Promise((done) => setTimeout(done, WHEEL_POLL_MS))
  }
}
