import type { CDPSession } from 'playwright-core'
import type { DomRanges } from './dom-ranges.js'

/**
 * Content the browser skips, drawn when an agent wants it. An element styled
 * `content-visibility: auto` is not laid out while it is off screen, and Chromium's
 * accessibility tree then holds it alone, empty (Node.js's all.html: 62 sections, one drawn).
 * Drawing one for a find or an expansion takes a rule of the tab's own inspector style sheet,
 * `content-visibility: visible` for that element and all it holds: about 70 ms for one of
 * all.html's sections, against 5.2 s for the whole page. A rule changes no DOM, so the page's
 * change watch hears nothing; it stays for the document, as the parts an agent expanded are
 * read again by every capture.
 */
interface SheetOfFrame {
  styleSheetId: string
  selectors: Set<string>
}

const SHEETS = new WeakMap<CDPSession, Map<string, Promise<SheetOfFrame | null>>>()

/** Draws the elements at `roots` (elements that skip their content) and all they hold; the ones it drew. */
export async function drawSkipped(session: CDPSession, frameId: string, ranges: DomRanges, roots: readonly number[]): Promise<Set<number>> {
  const wanted = roots.flatMap((root) => {
    const selector = ranges.selectorOf(root)
    return selector === undefined ? [] : [{ root, selector }]
  })
  if (wanted.length === 0) return new Set()
  for (let attempt = 0; attempt < 2; attempt++) {
    const sheet = await sheetOf(session, frameId, attempt > 0)
    if (sheet === null) return new Set()
    const before = sheet.selectors.size
    for (const { selector } of wanted) sheet.selectors.add(selector)
    const text = [...sheet.selectors].map((selector) => `${selector}, ${selector} * { content-visibility: visible !important }`).join('\n')
    // A sheet of a document gone (the tab moved on, or reloaded the same page, whose selectors are the same) is refused:
    // a new one is made for this document. Where the rules are already there, asking for its text says whether it lives.
    const alive = sheet.selectors.size === before ? session.send('CSS.getStyleSheetText', { styleSheetId: sheet.styleSheetId }) : session.send('CSS.setStyleSheetText', { styleSheetId: sheet.styleSheetId, text })
    const set = await alive.then(
      () => true,
      () => false,
    )
    if (set) return new Set(wanted.map(({ root }) => root))
  }
  return new Set()
}

function sheetOf(session: CDPSession, frameId: string, anew: boolean): Promise<SheetOfFrame | null> {
  let frames = SHEETS.get(session)
  if (frames === undefined) SHEETS.set(session, (frames = new Map()))
  let sheet = anew ? undefined : frames.get(frameId)
  if (sheet === undefined) {
    sheet = session
      .send('CSS.enable')
      .then(() => session.send('CSS.createStyleSheet', { frameId }))
      .then(({ styleSheetId }) => ({ styleSheetId, selectors: new Set<string>() }))
      .catch(() => null)
    frames.set(frameId, sheet)
  }
  return sheet
}
