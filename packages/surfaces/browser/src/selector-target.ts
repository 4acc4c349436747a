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

/** The backend node id of the one element of the page's top document a selector names; an error says how many it named otherwise. */
export async function backendNodeOf(page: Page, session: CDPSession, named: string): Promise<number> {
  let selector: string
  try {
    selector = coreBundle.iso.locatorOrSelectorAsSelector('javascript', named, 'data-testid')
  } catch (error) {
    throw new TesseraError('invalid_input', `expected ${SELECTOR_FORMS}, found "${named}": ${firstLine(error)}`, { expected: SELECTOR_FORMS, found: named })
  }
  // The parser's answer to what is neither a selector nor a locator's code.
  if (selector.trim() === '') throw new TesseraError('invalid_input', `expected ${SELECTOR_FORMS}, found "${named}"`, { expected: SELECTOR_FORMS, found: named })
  const locator = page.locator(selector)
  const count = await locator.count().catch((error: unknown) => {
    throw new TesseraError('invalid_input', `"${named}" is not a selector this page accepts: ${firstLine(error)}`, { expected: SELECTOR_FORMS, found: named })
  })
  if (count !== 1) throw new TesseraError(count === 0 ? 'not_found' : 'conflict', `${named} names ${count} elements; name exactly one (or use a @ref)`, { expected: 1, found: count })
  // Playwright's element and the DevTools node are the same object: a one-use global hands it over (named at random, so a page cannot expect it).
  const key = `__tessera_${randomBytes(6).toString('hex')}`
  const inTop = await locator
    .evaluate(
      (element, name) => {
        if (window !== window.top) return false
        ;(window as unknown as Record<string, unknown>)[name] = element
        return true
      },
      key,
      { timeout: SETTLE_MS },
    )
    .catch((error: unknown) => {
      throw new TesseraError('conflict', `${named} named an element that went before it could be reached: ${firstLine(error)}`, { found: named })
    })
  if (!inTop) throw new TesseraError('not_found', `${named} names an element inside an iframe; name it by its @ref`, { expected: 'an element of the top document', found: named })
  const found = await session.send('Runtime.evaluate', { expression: `(() => { const element = window[${JSON.stringify(key)}]; delete window[${JSON.stringify(key)}]; return element })()` })
  if (found.result.objectId === undefined) throw new TesseraError('conflict', `${named} named an element the page no longer holds`, { found: named })
  try {
    const described = await session.send('DOM.describeNode', { objectId: found.result.objectId })
    return described.node.backendNodeId
  } finally {
    await session.send('Runtime.releaseObject', { objectId: found.result.objectId }).catch(() => undefined)
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
}
