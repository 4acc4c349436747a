import { randomBytes } from 'node:crypto'
import { TesseraError } from '@tessera/protocol'
import type { CDPSession, Page } from 'playwright-core'
import coreBundle from 'playwright-core/lib/coreBundle'

/**
 * What an agent may name an element by besides a ref — whatever Playwright MCP accepts, so
 * prompts written for it work unchanged: a CSS selector (`#save`), a Playwright selector
 * (`text=Drop here`, `role=button[name="Save"]`, `… >> nth=1`) or a locator as its code says
 * it (`getByRole('button', { name: 'Save' })`, `getByText('Drop here')`). Playwright's own
 * parser turns each into one selector, so the syntax is exactly Playwright's.
 */
export const SELECTOR_FORMS = 'a CSS selector, a Playwright selector (text=…, role=…) or a locator (getByRole(…), getByText(…))'

/** How long a selector may take to settle on its one element: it matched already, so only the page's own work delays it. */
const SETTLE_MS = 2000

/** Playwright's parser of selectors and locator code, from its bundle (exported by the package, not typed): checked, since it is no public API. */
function parseSelector(named: string): string {
  const parse = coreBundle.iso?.locatorOrSelectorAsSelector
  if (typeof parse !== 'function') throw new TesseraError('internal', 'this playwright-core has no locatorOrSelectorAsSelector: selectors other than refs cannot be read', { expected: 'playwright-core 1.65', found: typeof parse })
  // What is neither a selector nor a locator's code parses as ''.
  const selector = parse('javascript', named, 'data-testid')
  if (selector.trim() === '') throw new TesseraError('invalid_input', `expected ${SELECTOR_FORMS}, found "${named}"`, { expected: SELECTOR_FORMS, found: named })
  return selector
}

/** The backend node id of the one element of the page's top document a selector names; an error says how many it named otherwise. */
export async function backendNodeOf(page: Page, session: CDPSession, named: string): Promise<number> {
  const locator = page.locator(parseSelector(named))
  const count = await locator.count().catch((error: unknown) => {
    throw new TesseraError('invalid_input', `"${named}" is not a selector this page accepts: ${firstLine(error)}`, { expected: SELECTOR_FORMS, found: named })
  })
  if (count !== 1) throw new TesseraError(count === 0 ? 'not_found' : 'conflict', `${named} names ${count} elements; name exactly one (or use a @ref)`, { expected: 1, found: count })
  // Playwright's element and the DevTools node are the same object: a one-use slot on the window hands it over. Its
  // name is random and it is not enumerable, so a page can hardly find it; what DevTools read from it is checked to be
  // Playwright's element before the slot goes, so a page that swapped it in between is caught.
  const key = `__tessera_${randomBytes(6).toString('hex')}`
  const lost = (error: unknown): never => {
    throw new TesseraError('conflict', `${named} named an element that went before it could be reached: ${firstLine(error)}`, { found: named })
  }
  const inTop = await locator
    .evaluate(
      (element, slot) => {
        if (window !== window.top) return false
        Object.defineProperty(window, slot, { value: element, configurable: true, enumerable: false, writable: false })
        return true
      },
      key,
      { timeout: SETTLE_MS },
    )
    .catch(lost)
  if (!inTop) throw new TesseraError('not_found', `${named} names an element inside an iframe; name it by its @ref`, { expected: 'an element of the top document', found: named })
  let objectId: string | undefined
  try {
    objectId = (await session.send('Runtime.evaluate', { expression: `window[${JSON.stringify(key)}]` }).catch(lost)).result.objectId
    const same = await locator.evaluate((element, slot) => (window as unknown as Record<string, unknown>)[slot] === element, key, { timeout: SETTLE_MS }).catch(lost)
    if (objectId === undefined || !same) throw new TesseraError('conflict', `${named} named an element the page no longer holds where it was`, { found: named })
    const described = await session.send('DOM.describeNode', { objectId }).catch(lost)
    return described.node.backendNodeId
  } finally {
    await page.evaluate((slot) => delete (window as unknown as Record<string, unknown>)[slot], key).catch(() => undefined)
    if (objectId !== undefined) await session.send('Runtime.releaseObject', { objectId }).catch(() => undefined)
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
}
