import { PAGE_WORDS, TesseraError } from '@tessera/protocol'
import type { Page } from 'playwright-core'
import type { ElementPlace } from './page-tree.js'

/** A point in the top viewport's coordinates, where Playwright's mouse acts. */
interface Point {
  x: number
  y: number
}

function gone(place: ElementPlace): TesseraError {
  return new TesseraError('not_found', `the ${place.role} is no longer on the page; take a new snapshot`, { expected: 'an element of the current page', found: place.role })
}

/** A handle on the element in its own document, after checking that it still lives there. */
export async function objectOf(place: ElementPlace): Promise<string> {
  const resolved = await place.document.session.send('DOM.resolveNode', { backendNodeId: place.backendNodeId }).catch(() => null)
  const objectId = resolved?.object.objectId
  if (objectId === undefined) throw gone(place)
  const alive = await place.document.session.send('Runtime.callFunctionOn', { objectId, functionDeclaration: 'function () { return this.isConnected }', returnByValue: true }).catch(() => null)
  if (alive?.result.value !== true) throw gone(place)
  return objectId
}

/** Runs a function on the element in its page, with JSON arguments; its JSON answer comes back. */
export async function callOn<T>(place: ElementPlace, fn: string, ...args: unknown[]): Promise<T> {
  const objectId = await objectOf(place)
  const answer = await place.document.session.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: fn,
    arguments: args.map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
  })
  if (answer.exceptionDetails !== undefined) {
    throw new TesseraError('conflict', `the page refused: ${answer.exceptionDetails.exception?.description?.split('\n')[0] ?? answer.exceptionDetails.text}`, { found: place.role })
  }
  return answer.result.value as T
}

/**
 * The boxes of a form control's first label, scrolled into view: a control drawn by its label
 * alone (jQuery UI's checkboxradio, a styled toggle) hides its input, and a click on the label
 * is a click on it. None where it has no label.
 */
async function labelQuads(place: ElementPlace, control: string): Promise<number[][] | null> {
  const session = place.document.session
  // The first label that is drawn: a control may have several, some hidden.
  const label = await session
    .send('Runtime.callFunctionOn', { objectId: control, functionDeclaration: 'function () { return [...(this.labels || [])].find((label) => label.getClientRects().length > 0) || null }' })
    .catch(() => null)
  const objectId = label?.result.objectId
  if (objectId === undefined) return null
  try {
    const { node } = await session.send('DOM.describeNode', { objectId })
    await session.send('DOM.scrollIntoViewIfNeeded', { backendNodeId: node.backendNodeId }).catch(() => undefined)
    return (await session.send('DOM.getContentQuads', { backendNodeId: node.backendNodeId }).catch(() => null))?.quads ?? null
  } catch {
    // The label went between the two calls: the control keeps its own answer (it takes no space).
    return null
  } finally {
    await session.send('Runtime.releaseObject', { objectId }).catch(() => undefined)
  }
}

/** Where the element's first box is (its label's, for a control its label draws), scrolled into view, in the top viewport's coordinates. */
export async function centerOf(page: Page, place: ElementPlace): Promise<Point> {
  const box = await boxOf(place)
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  const size = page.viewportSize()
  if (size !== null && (x < 0 || y < 0 || x > size.width || y > size.height)) {
    throw new TesseraError('conflict', `the ${place.role} is outside the viewport and could not be scrolled into it`, { found: { x, y } })
  }
  return { x, y }
}

/**
 * Where an element is drawn, scrolled into view, in the page's viewport (an out-of-process
 * iframe's corner added): the box around its first quad that takes space — its label's, for a
 * control drawn by its label alone.
 */
export async function boxOf(place: ElementPlace): Promise<{ x: number; y: number; width: number; height: number }> {
  const control = await objectOf(place)
  const session = place.document.session
  await session.send('DOM.scrollIntoViewIfNeeded', { backendNodeId: place.backendNodeId }).catch(() => undefined)
  const quads = await session.send('DOM.getContentQuads', { backendNodeId: place.backendNodeId }).catch(() => null)
  const quad = quads?.quads.find((q) => area(q) > 1) ?? (await labelQuads(place, control))?.find((q) => area(q) > 1)
  if (quad === undefined) throw new TesseraError('conflict', `the ${place.role} takes no space on the page (hidden or collapsed)`, { found: place.role })
  const xs = [quad[0]!, quad[2]!, quad[4]!, quad[6]!]
  const ys = [quad[1]!, quad[3]!, quad[5]!, quad[7]!]
  let [x, y] = [Math.min(...xs), Math.min(...ys)]
  // An out-of-process iframe measures from its own corner: add where that corner is.
  if (place.document.remoteFrame !== undefined) {
    const owner = await place.document.remoteFrame.frameElement()
    const corner = await owner.boundingBox()
    await owner.dispose()
    if (corner !== null) {
      x += corner.x
      y += corner.y
    }
  }
  return { x, y, width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) }
}

function area(quad: number[]): number {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0, x2 = 0, y2 = 0] = quad
  return Math.abs((x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0))
}

/** What covers an element: its tag and id (`div#consent`), and the words a person reads there (up to 60 characters). */
export interface Cover {
  element: string
  words: string
}

/**
 * What a click at the point would hit instead of the element, or null when it hits the
 * element, something inside it or a box around it (through open shadow roots). A click never lands on an
 * overlay that covers its element: it fails and says what covers it.
 */
export async function coveredBy(place: ElementPlace, point: Point): Promise<Cover | null> {
  // Only the top document measures in the viewport's coordinates; iframes are trusted to their boxes.
  if (place.document.owner !== undefined) return null
  return callOn<Cover | null>(
    place,
    `function (x, y) {
      let hit = document.elementFromPoint(x, y)
      while (hit && hit.shadowRoot) { const inner = hit.shadowRoot.elementFromPoint(x, y); if (!inner || inner === hit) break; hit = inner }
      if (!hit) return null
      // Up the tree as it is drawn: a slotted element is inside the slot that shows it.
      const up = (n) => n.assignedSlot || n.parentNode || n.host
      for (let n = hit; n; n = up(n)) if (n === this) return null
      // A control drawn behind its own box (Shoelace's select of many keeps its field there) is
      // clicked through that box, which takes the click as the control's. The page itself is no such box.
      if (hit !== document.body && hit !== document.documentElement) for (let n = this; n; n = up(n)) if (n === hit) return null
      // A label clicks its control: hitting the label of this element is hitting it.
      if (hit.control === this || (hit.closest && hit.closest('label') && hit.closest('label').control === this)) return null
      // Said as the layer that covers it (a banner or a dialog fixed to the view), with the words a person reads there.
      let cover = hit
      for (let n = hit; n && n !== document.body; n = n.parentElement) if (/^(fixed|sticky)$/.test(getComputedStyle(n).position)) cover = n
      const words = []
      const texts = document.createTreeWalker(cover, NodeFilter.SHOW_TEXT)
      for (let length = 0; length < 60 && texts.nextNode(); ) {
        const said = texts.currentNode.data.replace(/\\s+/g, ' ').trim()
        if (said) { words.push(said); length += said.length + 1 }
      }
      const label = (cover.getAttribute('aria-label') || words.join(' ')).replace(/\\s+/g, ' ').trim().slice(0, 60)
      const id = /^[\\w-]{1,40}$/.test(cover.id) ? '#' + cover.id : ''
      return { element: cover.tagName.toLowerCase() + id, words: label }
    }`,
    point.x,
    point.y,
  )
}

/** Fails where a click at the point would land on something covering the element (coveredBy), saying what covers it: its tag and id, and its words as the page's (fenced). */
export async function refuseIfCovered(place: ElementPlace, point: Point): Promise<void> {
  const cover = await coveredBy(place, point)
  if (cover === null) return
  const words = cover.words === '' ? {} : { [PAGE_WORDS]: [cover.words] }
  throw new TesseraError('conflict', `the ${place.role} is covered by ${cover.element}${cover.words === '' ? '' : ', whose words are below'}; close or answer that first`, { found: cover.element, ...words })
}

/**
 * Brings an element into view amid what is around it: centred, or from its start when it is
 * taller than the view. Answers after the next frame, when the page has heard of the scroll
 * (scroll events fire with the frame): a panel that says where it is has said it before the
 * action waits for quiet, not after.
 */
export const SCROLL_INTO_VIEW = `function () {
  const framed = () => new Promise((done) => { requestAnimationFrame(() => done()); setTimeout(done, 200) })
  if (this.nodeType !== Node.TEXT_NODE) {
    this.scrollIntoView({ block: this.getBoundingClientRect().height > innerHeight ? 'start' : 'center', inline: 'nearest' })
    return framed()
  }
  // A long text's ref names a text node, whose element may be all of the page (words right in
  // a main): the box that scrolls it moves to the text itself, centred, or to its start.
  const page = document.scrollingElement || document.documentElement
  let box = this.parentElement
  while (box !== null && box !== page && !(/auto|scroll/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight)) box = box.parentElement
  const scroller = box === null ? page : box
  if (scroller !== page) scroller.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  const range = document.createRange()
  range.selectNodeContents(this)
  const text = range.getBoundingClientRect()
  const view = scroller === page ? { top: 0, height: innerHeight } : scroller.getBoundingClientRect()
  scroller.scrollBy(0, text.height > view.height ? text.top - view.top : text.top - view.top - (view.height - text.height) / 2)
  return framed()
}`

/** Input types a person types into: their text is selected and typed over. */
const TYPED_INPUTS = ['', 'text', 'search', 'url', 'tel', 'password', 'email', 'number']
/** Input types that take no typing (a picker draws them): their value is set, as Playwright's fill sets it. */
export const SET_INPUTS: readonly string[] = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']
/** What each of those takes, said when a text is not one. */
export const SET_INPUT_FORMATS: Readonly<Record<string, string>> = {
  date: 'a date as 2026-11-27',
  time: 'a time as 14:30',
  'datetime-local': 'a date and time as 2026-11-27T14:30',
  month: 'a month as 2026-11',
  week: 'a week as 2026-W48',
  color: 'a colour as #1e90ff',
  range: 'a number',
}

/**
 * Makes an element ready for `text`: a field one types into is focused with its text selected
 * ('selected': the caller types over it, so the page hears real input events); a date, time,
 * colour or range is given the text as its value ('set'), or says it took none ('malformed:date');
 * anything else is 'not-editable'. The value is set through the prototype's setter, then
 * announced: React keeps its own copy of a field's value on the element, and a value assigned
 * to the element updates that copy, so React saw no change and kept its old state.
 */
export const FOCUS_FOR_TEXT = `function (text) {
  this.focus()
  const typed = this instanceof HTMLInputElement ? this.type : ''
  if (this instanceof HTMLTextAreaElement || (this instanceof HTMLInputElement && ${JSON.stringify(TYPED_INPUTS)}.includes(typed))) { this.select(); return 'selected' }
  if (this instanceof HTMLInputElement && ${JSON.stringify(SET_INPUTS)}.includes(typed)) {
    // A colour or a range never empties: one that is not a colour or a number would become black or the track's middle.
    if ((typed === 'color' && !/^#[0-9a-f]{6}$/i.test(text)) || (typed === 'range' && (text.trim() === '' || !Number.isFinite(Number(text))))) return 'malformed:' + typed
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set
    const before = this.value
    setValue.call(this, text)
    // Refused, the field keeps what it held: the browser empties it for a text it cannot read.
    if (text !== '' && this.value === '') { setValue.call(this, before); return 'malformed:' + typed }
    this.dispatchEvent(new Event('input', { bubbles: true }))
    this.dispatchEvent(new Event('change', { bubbles: true }))
    return 'set'
  }
  if (this.isContentEditable) { const range = document.createRange(); range.selectNodeContents(this); const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range); return 'selected' }
  return 'not-editable'
}`

/**
 * Resolves once the short timers the text's input event started in the element's window have
 * run (see change-watch.ts), within maxMs: a person's Enter never comes the same millisecond
 * as the text. Vue 0.10's field ignores its model until a setTimeout(0) after each input, so an
 * Enter pressed before that added the todo and left the field holding it (10 runs in 36).
 */
export const INPUT_TIMERS_RUN = `function (maxMs) {
  const quiet = this.ownerDocument.defaultView && this.ownerDocument.defaultView.__tesseraQuiet
  return typeof quiet === 'function' ? quiet(0, maxMs).then(() => true) : false
}`

/** Whether the element is a field whose suggestions come from a datalist: the browser draws them, outside the page. */
export const HAS_DATALIST = `function () { return this instanceof HTMLInputElement && this.list !== null }`

/** What each wanted value would choose in a select element, by the option's label (the values themselves elsewhere, or where no option has them). */
export const CHOSEN_LABELS = `function (wanted) {
  if (!(this instanceof HTMLSelectElement)) return wanted
  const options = [...this.options]
  return wanted.map((want) => {
    const option = options.find((o) => o.value === want) || options.find((o) => o.label === want || o.textContent.trim() === want)
    return option ? option.label || option.textContent.trim() : want
  })
}`

export const SELECT_OPTIONS = `function (wanted) {
  if (!(this instanceof HTMLSelectElement)) return { error: 'not a select element' }
  const options = [...this.options]
  const picked = []
  for (const want of wanted) {
    const option = options.find((o) => o.value === want) || options.find((o) => o.label === want || o.textContent.trim() === want)
    if (!option) return { error: 'no option ' + JSON.stringify(want), options: options.map((o) => o.label || o.value) }
    picked.push(option)
  }
  if (picked.length > 1 && !this.multiple) return { error: 'the list takes one value, found ' + picked.length }
  for (const option of options) option.selected = picked.includes(option)
  this.dispatchEvent(new Event('input', { bubbles: true }))
  this.dispatchEvent(new Event('change', { bubbles: true }))
  return { selected: picked.map((o) => o.label || o.value) }
}`

export const IS_CHECKED = `function () {
  const aria = this.getAttribute('aria-checked')
  if (aria !== null) return aria === 'true'
  return this.checked === true
}`
