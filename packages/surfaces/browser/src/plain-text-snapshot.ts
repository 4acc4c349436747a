import type { CDPSession } from 'playwright-core'
import type { SnapshotNodes } from './dom-ranges.js'
import type { PlainTextLayout } from './long-texts.js'

/**
 * A text file as the browser shows it (a `text/plain`, CSS or script response: one `pre` in an
 * otherwise empty body) has its DOM snapshot made from the DOM and one measure in the page,
 * instead of `DOMSnapshot.captureSnapshot`, which lists every rendered line's text box: 113,000
 * of them for TypeScript's lib.dom.d.ts (1.8 MB), 300 ms a capture. What the frame needs of
 * such a page is its few elements, their boxes, how many lines its text is laid out in and
 * which of its characters is the first in view; the page says those in one call.
 */

/** The probe's test: a document the browser made to show a file that is no page (no HTML or XML), its body one `pre`. */
export const PLAIN_TEXT_TEST = `(!/html|xml/.test(document.contentType) && !!document.body && document.body.children.length === 1 && document.body.firstElementChild.tagName === "PRE")`

/** The file's pre and its one text node, or null when the document is no such file (any more). */
const PRE_AND_TEXT = `const pre = ${PLAIN_TEXT_TEST} ? document.body.firstElementChild : null
  const text = pre === null || pre.childNodes.length !== 1 || pre.firstChild.nodeType !== Node.TEXT_NODE ? null : pre.firstChild
  if (text === null) return null`

/** The text's first character in view: of the line at the view's top edge (drawn in part counts), else its start when it begins lower and its end when it ended higher. */
const FIRST_IN_VIEW = `(() => {
    const box = pre.getBoundingClientRect()
    if (box.bottom <= 0) return text.length
    const caret = document.caretRangeFromPoint(box.left + parseFloat(getComputedStyle(pre).paddingLeft) + 1, Math.min(Math.max(box.top, 0) + 1, window.innerHeight - 1))
    return caret !== null && caret.startContainer === text ? caret.startOffset : 0
  })()`

/** Where the view starts in the text, measured again after a scroll (the page unchanged otherwise). */
const VIEW_START = `(() => {
  ${PRE_AND_TEXT}
  return ${FIRST_IN_VIEW}
})()`

/** Measured in the page: each element's box in page coordinates, the text's rendered lines and its first character in view; null when the document is no such file (any more). */
const MEASURE = `(() => {
  ${PRE_AND_TEXT}
  const scroll = [window.scrollX, window.scrollY]
  const rect = (element) => { const r = element.getBoundingClientRect(); return [r.x + scroll[0], r.y + scroll[1], r.width, r.height] }
  const style = getComputedStyle(pre)
  // Every line of a pre in one font is as tall as its first: "normal" is measured there.
  let lineHeight = parseFloat(style.lineHeight)
  if (!(lineHeight > 0) && text.length > 0) {
    const first = document.createRange()
    first.setStart(text, 0)
    first.setEnd(text, 1)
    lineHeight = first.getBoundingClientRect().height
  }
  const box = pre.getBoundingClientRect()
  const content = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth)
  const lines = lineHeight > 0 ? Math.max(1, Math.round(content / lineHeight)) : 1
  return { scroll, html: rect(document.documentElement), body: rect(document.body), pre: rect(pre), lines, viewStart: ${FIRST_IN_VIEW}, text: text.data }
})()`

interface Measured {
  scroll: [number, number]
  html: number[]
  body: number[]
  pre: number[]
  lines: number
  viewStart: number
  /** The whole text: DevTools cuts a text node's value at 10,000 characters in the DOM it sends. */
  text: string
}

/** A node of `DOM.getDocument`, as far as this reads it (its elements and their backend ids; a text's value comes from the page). */
interface DomNode {
  nodeName: string
  nodeValue: string
  backendNodeId: number
  attributes?: string[]
  children?: DomNode[]
}

/** The same shape as a document of `DOMSnapshot.captureSnapshot` (strings by index), with where its text lies instead of text boxes. */
export interface PlainTextSnapshot {
  documents: [
    {
      documentURL: number
      frameId: number
      scrollOffsetX: number
      scrollOffsetY: number
      nodes: SnapshotNodes
      layout: { nodeIndex: number[]; bounds: number[][]; styles: number[][] }
      plain: PlainTextLayout
    },
  ]
  strings: string[]
}

/** The snapshot of a text file's document, or null when the top document is no such file (any more). */
export async function plainTextSnapshot(session: CDPSession, frameId: string, url: string): Promise<PlainTextSnapshot | null> {
  // Both asked at once: the renderer answers one after the other, and nothing in a text file's page runs in between to change it.
  const [measured, dom] = await Promise.all([
    session.send('Runtime.evaluate', { expression: MEASURE, returnByValue: true }).then((answer) => answer.result.value as Measured | null),
    session.send('DOM.getDocument', { depth: -1 }) as Promise<{ root: DomNode }>,
  ])
  if (measured === null || measured === undefined) return null
  const strings: string[] = []
  const interned = new Map<string, number>()
  const string = (value: string): number => {
    let index = interned.get(value)
    if (index === undefined) {
      index = strings.push(value) - 1
      interned.set(value, index)
    }
    return index
  }
  const nodes: Required<Pick<SnapshotNodes, 'parentIndex' | 'nodeName' | 'nodeValue' | 'backendNodeId' | 'attributes'>> = { parentIndex: [], nodeName: [], nodeValue: [], backendNodeId: [], attributes: [] }
  const indexOf = new Map<string, number>()
  // In document order, as a DOM snapshot lists them.
  const add = (node: DomNode, parent: number): void => {
    const index = nodes.backendNodeId.push(node.backendNodeId) - 1
    nodes.parentIndex.push(parent)
    nodes.nodeName.push(string(node.nodeName))
    nodes.nodeValue.push(node.nodeValue === '' ? -1 : string(node.nodeValue))
    nodes.attributes.push((node.attributes ?? []).map(string))
    if (!indexOf.has(node.nodeName)) indexOf.set(node.nodeName, index)
    for (const child of node.children ?? []) add(child, index)
  }
  add(dom.root, -1)
  const html = indexOf.get('HTML')
  const body = indexOf.get('BODY')
  const pre = indexOf.get('PRE')
  const text = pre === undefined ? -1 : nodes.parentIndex.indexOf(pre)
  if (html === undefined || body === undefined || pre === undefined || text < 0) return null
  nodes.nodeValue[text] = string(measured.text)
  // Nothing in the file's page is a thing to click or pinned to the view.
  const styles = [string('auto'), string('static')]
  return {
    documents: [
      {
        documentURL: string(url),
        frameId: string(frameId),
        scrollOffsetX: measured.scroll[0],
        scrollOffsetY: measured.scroll[1],
        nodes,
        // The text is drawn where its pre is.
        layout: { nodeIndex: [html, body, pre, text], bounds: [measured.html, measured.body, measured.pre, measured.pre], styles: [styles, styles, styles, styles] },
        plain: { holder: pre, text, lines: measured.lines, viewStart: measured.viewStart },
      },
    ],
    strings,
  }
}

/** Where the view now starts in a text file's text (after a scroll), or null when the document is no such file any more. */
export async function plainViewStart(session: CDPSession): Promise<number | null> {
  const answer = await session.send('Runtime.evaluate', { expression: VIEW_START, returnByValue: true })
  return typeof answer.result.value === 'number' ? answer.result.value : null
}
