import { SELECTOR_HINT } from '@tessera/protocol'
import { type ClassChange, MOST_CLASSES, MOST_TAKEN_FROM, PEER_WORDS } from './browser-schemas.js'
import { callOn } from './element-ops.js'
import type { ElementPlace } from './page-tree.js'

/** How long a read of the classes may take: a page that takes longer is blocked (a dialog it opened), and the answer does without. */
const READ_MS = 1000

/** Most of an element's peers whose classes are read: a choice among more is a list too long to say it of. */
const MOST_PEERS = 50
/** How far up an element's peers are looked for: a link in an item of a list is three levels from its list. */
const PEER_LEVELS = 3

/** A peer of a clicked element as read: its class attribute, and the start of its words to name it by. */
export interface PeerRead {
  classes: string
  words: string
}

/** Class attributes read around a click: the element's, its peers', and its document's root and body's together. */
export interface ClassesAround {
  element: string | null
  /** Its like in its siblings (see CLASSES_AROUND), in the same order at every read. */
  peers: PeerRead[]
  page: string
}

/**
 * Run on the element in its page: its class attribute (an SVG element's className is no
 * string); its peers' — the elements at its place in the siblings of it or of its nearest
 * ancestor (up to PEER_LEVELS) that has some of its tag: the other items of a selectable
 * list, the links in a filter list's other items — where a choice that moved, or did not,
 * shows; and its document's `html` and `body` classes, where a theme or a mode is set.
 */
const CLASSES_AROUND = `function () {
  const doc = this.ownerDocument
  const path = []
  const peers = []
  for (let node = this; path.length < ${PEER_LEVELS} && node.parentElement; node = node.parentElement) {
    const alike = [...node.parentElement.children].filter((child) => child.tagName === node.tagName)
    if (alike.length > 1) {
      for (const kin of alike.filter((child) => child !== node).slice(0, ${MOST_PEERS})) {
        let at = kin
        for (let i = path.length - 1; i >= 0 && at; i--) at = [...at.children].filter((child) => child.tagName === path[i].tag)[path[i].index]
        if (at) peers.push({ classes: at.getAttribute('class') || '', words: (at.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, ${PEER_WORDS}) })
      }
      break
    }
    path.push({ tag: node.tagName, index: alike.indexOf(node) })
  }
  return { element: this.getAttribute('class'), peers, page: [doc.documentElement, doc.body].map((e) => (e && e.getAttribute('class')) || '').join(' ') }
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

/**
 * What changed between two reads around a clicked element: its classes — with how many of
 * its peers hold a class it gained, where any do (a choice added to, not moved), and the
 * words of those that lost it (the choice moved from "Item 1", which nothing else says) —
 * and its page's.
 */
export function classNewsBetween(before: ClassesAround | undefined, after: ClassesAround | undefined): { classes?: ClassChange; pageClasses?: ClassChange } {
  const changed = classChangeOf(before?.element, after?.element)
  const holds = (peer: PeerRead | undefined): boolean => peer !== undefined && changed !== undefined && changed.added.some((name) => namesIn(peer.classes).has(name))
  const alsoOn = (after?.peers ?? []).filter(holds).length
  // Peers are read by their place, so the same place in both reads is the same peer while the list kept its length.
  const samePeers = before !== undefined && after !== undefined && before.peers.length === after.peers.length
  const takenFrom = samePeers ? before.peers.filter((peer, at) => holds(peer) && !holds(after.peers[at])).map((peer) => peer.words).slice(0, MOST_TAKEN_FROM) : []
  const classes = changed === undefined ? undefined : { ...changed, ...(alsoOn > 0 ? { alsoOn } : {}), ...(takenFrom.length > 0 ? { takenFrom } : {}) }
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
