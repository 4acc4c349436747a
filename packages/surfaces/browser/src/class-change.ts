import { SELECTOR_HINT } from '@tessera/protocol'
import { type ClassChange, MOST_CLASSES } from './browser-schemas.js'
import { callOn } from './element-ops.js'
import type { ElementPlace } from './page-tree.js'

/** How long a read of the classes may take: a page that takes longer is blocked (a dialog it opened), and the answer does without. */
const READ_MS = 1000

/** Class attributes read around a click: the element's, and its document's root and body's together. */
export interface ClassesAround {
  element: string | null
  page: string
}

/**
 * Run on the element in its page: its class attribute (an SVG element's className is no
 * string), and its document's `html` and `body` classes, where a theme or a mode is set.
 */
const CLASSES_AROUND = `function () {
  const doc = this.ownerDocument
  return { element: this.getAttribute('class'), page: [doc.documentElement, doc.body].map((e) => (e && e.getAttribute('class')) || '').join(' ') }
}`

/** The classes around an element, read in its page; nothing where the read fails (the element went) or takes over a second. */
export async function readClassesAround(place: ElementPlace): Promise<ClassesAround | undefined> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), READ_MS)))
  try {
    return await Promise.race([callOn<ClassesAround>(place, CLASSES_AROUND).catch(() => undefined), late])
  } finally {
    clearTimeout(timer)
  }
}

/** What changed between two reads around a clicked element: its classes, and its page's. */
export function classNewsBetween(before: ClassesAround | undefined, after: ClassesAround | undefined): { classes?: ClassChange; pageClasses?: ClassChange } {
  const classes = classChangeOf(before?.element, after?.element)
  const pageClasses = classChangeOf(before?.page, after?.page)
  return { ...(classes === undefined ? {} : { classes }), ...(pageClasses === undefined ? {} : { pageClasses }) }
}

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
