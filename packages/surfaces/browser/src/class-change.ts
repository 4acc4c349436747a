import { SELECTOR_HINT } from '@tessera/protocol'
import { type ClassChange, MOST_CLASSES } from './browser-schemas.js'

/** Class attributes read around a click: the element's, and its document's root and body's together. */
export interface ClassesAround {
  element: string | null
  page: string
}

/**
 * Run on the element in its page: its class attribute (an SVG element's className is no
 * string), and its document's `html` and `body` classes, where a theme or a mode is set.
 */
export const CLASSES_AROUND = `function () {
  const doc = this.ownerDocument
  return { element: this.getAttribute('class'), page: [doc.documentElement, doc.body].map((e) => (e && e.getAttribute('class')) || '').join(' ') }
}`

/**
 * The classes an element gained and lost between two reads of its class attribute — only
 * plain CSS names, a few of each; nothing where none changed or a read failed (the element
 * went with the click).
 */
export function classChangeOf(before: string | null | undefined, after: string | null | undefined): ClassChange | undefined {
  if (before === undefined || after === undefined) return undefined
  const was = namesIn(before)
  const now = namesIn(after)
  const added = [...now].filter((name) => !was.has(name)).slice(0, MOST_CLASSES)
  const removed = [...was].filter((name) => !now.has(name)).slice(0, MOST_CLASSES)
  return added.length === 0 && removed.length === 0 ? undefined : { added, removed }
}

function namesIn(classes: string | null): Set<string> {
  return new Set((classes ?? '').split(/\s+/).filter((name) => SELECTOR_HINT.test(`.${name}`)))
}
