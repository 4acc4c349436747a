import { PAGE_WORDS, TesseraError } from '@tessera/protocol'
import type { Page } from 'playwright-core'
import { callOn, centerOf, objectOf, refuseIfCovered } from './element-ops.js'
import type { ElementPlace } from './page-tree.js'

/**
 * Choosing options of a list the page draws itself — a combobox whose list pops up (jQuery
 * UI's selectmenu, a design system's select), a button that opens a listbox, a listbox
 * always shown, an autocomplete whose options follow what is typed — as a person does it:
 * open it (or type the value), click the option. Playwright MCP's `browser_select_option`
 * takes only a `<select>`; on these it fails, and an agent needed two clicks (or typing and a
 * click) and a snapshot between them.
 */

/** At most this many options are named in the answer to a value that matches none, each cut to so many characters. */
const NAMED_OPTIONS = 30
const NAME_CHARS = 80

/**
 * The options a value matched none of, as an error names them: the page's words, so in its
 * details (PAGE_WORDS, read fenced), the first NAMED_OPTIONS cut to NAME_CHARS; the message
 * says how many there are.
 */
export function unmatchedOptions(names: readonly string[]): { said: string; details: Record<string, unknown> } {
  const named = names.slice(0, NAMED_OPTIONS).map((name) => (name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name))
  const more = names.length > NAMED_OPTIONS ? `, the first ${NAMED_OPTIONS} of ${names.length}` : ''
  return { said: `its ${names.length === 1 ? 'option is' : `${names.length} options are`} below${more}`, details: { expected: named, [PAGE_WORDS]: named } }
}

/** One option the list shows now. */
interface Choice {
  name: string
  selected: boolean
}

/** What choosing needs of the tile: its page, its wait for a quiet page after an input, and its typing into a field (replacing its text). */
export interface ChoiceSteps {
  page: Page
  settle: () => Promise<void>
  type: (place: ElementPlace, text: string) => Promise<void>
}

/**
 * The list an element opens: of those its `aria-controls` and `aria-owns` name (in its own tree
 * first, a shadow root), the first that is a list or holds options. Select2 4.1's box names its
 * own text in `aria-controls` and its list in `aria-owns`.
 */
const LIST_OF = `function () {
  const ids = ((this.getAttribute('aria-controls') || '') + ' ' + (this.getAttribute('aria-owns') || '')).split(/\\s+/).filter(Boolean)
  const root = this.getRootNode()
  for (const id of ids) {
    const found = (root.getElementById ? root.getElementById(id) : null) || this.ownerDocument.getElementById(id)
    if (found && (found.matches('[role=listbox], [role=tree], [role=grid], [role=menu]') || found.querySelector('[role=option], [role=menuitemradio], [role=treeitem]'))) return found
  }
  return null
}`

/**
 * The options a list shows (or, `around` an element, its own tree and its document show), as
 * an array of their elements: the elements with the role of a list's item, drawn, and not
 * hidden from assistive technology, less those of `except`. Read in the page, not from the
 * accessibility tree: DevTools' query by role misses jQuery UI's options, each inside a
 * presentational list item. The list is read as it is drawn: into open shadow roots, and
 * through slots to the elements they show (Shoelace's listbox is in its select's shadow root,
 * its options are the select's own children). A text field with no role for its suggestions
 * (LOOSE_ROLES) takes the items of any list as its options too: jQuery UI's autocomplete draws
 * them as bare list items.
 */
const SHOWN_CHOICES = `function (around, except, loose) {
  const OPTION = '[role=option], [role=menuitemradio], [role=treeitem]' + (loose ? ', [role=menuitem], li' : '')
  const found = new Set()
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches(OPTION)) found.add(el)
      if (el.shadowRoot) visit(el.shadowRoot)
      if (el.tagName === 'SLOT') for (const shown of el.assignedElements({ flatten: true })) { if (shown.matches(OPTION)) found.add(shown); visit(shown) }
    }
  }
  for (const root of around ? new Set([this.getRootNode(), this.ownerDocument]) : [this]) visit(root)
  return [...found].filter((el) => el.getClientRects().length > 0 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && !el.closest('[aria-hidden=true]') && !(except || []).includes(el))
}`

/** Each option's accessible name as far as the page says it, and whether a list of many holds it. */
const DESCRIBED_CHOICES = `function () {
  const textOf = (el) => (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim()
  const nameOf = (el) => {
    const label = el.getAttribute('aria-label')
    if (label) return label.trim()
    const by = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean).map((id) => el.ownerDocument.getElementById(id)).filter(Boolean)
    return by.length > 0 ? by.map(textOf).join(' ') : textOf(el)
  }
  return this.map((el) => ({ name: nameOf(el), selected: el.getAttribute('aria-selected') === 'true' }))
}`

const IS_EXPANDED = `function () { return this.getAttribute('aria-expanded') === 'true' }`

/** Whether the option's list takes many; its list found as drawn, through the slot that shows the option and up out of shadow roots. */
const TAKES_MANY = `function () {
  for (let n = this; n; n = n.assignedSlot || n.parentElement || n.getRootNode().host) {
    if (n.matches('[role=listbox], [role=tree], [role=grid]')) return n.getAttribute('aria-multiselectable') === 'true'
  }
  return false
}`

/** The roles of a field that says nothing of a list, so whose suggestions are whatever list items its typing shows. */
const LOOSE_ROLES = new Set(['textbox', 'searchbox'])

/** Options a list shows now: their elements held in the page as one array, and what each says. */
class ShownChoices {
  private constructor(
    private readonly place: ElementPlace,
    private readonly handle: string,
    readonly choices: readonly Choice[],
  ) {}

  /** The options shown in a list (by its handle), or around the element where it names none, less those of `except`. */
  static async read(place: ElementPlace, list: string | null, except?: ShownChoices): Promise<ShownChoices> {
    const session = place.document.session
    const root = list ?? (await objectOf(place))
    try {
      const shown = await session.send('Runtime.callFunctionOn', { objectId: root, functionDeclaration: SHOWN_CHOICES, arguments: [{ value: list === null }, except === undefined ? { value: null } : { objectId: except.handle }, { value: LOOSE_ROLES.has(place.role) }] })
      const handle = shown.result.objectId
      if (handle === undefined) throw refused(place, shown.exceptionDetails?.text)
      const described = await session.send('Runtime.callFunctionOn', { objectId: handle, functionDeclaration: DESCRIBED_CHOICES, returnByValue: true })
      if (!Array.isArray(described.result.value)) throw refused(place, described.exceptionDetails?.text)
      return new ShownChoices(place, handle, described.result.value as Choice[])
    } finally {
      await session.send('Runtime.releaseObject', { objectId: root }).catch(() => undefined)
    }
  }

  /** Where the option is, to click it as a person would. */
  async placeOf(choice: Choice): Promise<ElementPlace> {
    const session = this.place.document.session
    const element = await session.send('Runtime.callFunctionOn', { objectId: this.handle, functionDeclaration: 'function (index) { return this[index] }', arguments: [{ value: this.choices.indexOf(choice) }] })
    const objectId = element.result.objectId as string
    try {
      const { node } = await session.send('DOM.describeNode', { objectId })
      return { document: this.place.document, backendNodeId: node.backendNodeId, role: 'option', tag: '' }
    } finally {
      await session.send('Runtime.releaseObject', { objectId }).catch(() => undefined)
    }
  }

  async release(): Promise<void> {
    await this.place.document.session.send('Runtime.releaseObject', { objectId: this.handle }).catch(() => undefined)
  }
}

/**
 * Chooses each wanted option (by its accessible name, then the same letters whatever their
 * case and spaces around) and answers the names chosen. A value no option has fails with the
 * options there are, and the element is left as it was (a list this opened closed again, a
 * field this typed into holding its text). An option whose name says what a click would
 * destroy, pay or send has its value say it too: the gateway weighed the call (BrowserTile.assess).
 */
export async function chooseFromList(place: ElementPlace, wanted: readonly string[], steps: ChoiceSteps): Promise<string[]> {
  if (wanted.length === 0) throw new TesseraError('invalid_input', 'expected at least one value to choose, found none', { expected: 'one value or more', found: [] })
  const chosen: string[] = []
  for (const want of wanted) {
    const { shown, undo, typed } = (await typedInto(place)) ? await typeToList(place, want, steps) : await openList(place, steps)
    // Until an option is clicked, whatever goes wrong leaves the element as it was: an option drawn where no click reaches still closes the list it came in.
    let clicked = false
    try {
      const options = shown.choices
      const option = matching(options, want)
      if (option === undefined) {
        const when = typed === undefined ? '' : ` when ${JSON.stringify(typed)} was typed`
        const offered = unmatchedOptions(options.map((o) => o.name))
        const said = options.length === 0 ? `the ${place.role} ${typed === undefined ? 'showed' : 'offered'} no options${when}` : typed === undefined ? offered.said : `what the ${place.role} offered${when}: ${offered.said}`
        throw new TesseraError('invalid_input', `no option ${JSON.stringify(want)}; ${said}`, { ...(options.length === 0 ? {} : offered.details), found: want })
      }
      const optionPlace = await shown.placeOf(option)
      if (wanted.length > 1 && chosen.length === 0 && !(await callOn<boolean>(optionPlace, TAKES_MANY))) {
        throw new TesseraError('invalid_input', `the list takes one value, found ${wanted.length}`, { expected: 1, found: wanted.length })
      }
      // Clicking an option a list of many already holds would take it out again.
      if (!(wanted.length > 1 && option.selected)) {
        const point = await centerOf(steps.page, optionPlace)
        clicked = true
        await steps.page.mouse.click(point.x, point.y)
        await steps.settle()
      }
      chosen.push(option.name)
    } catch (error) {
      if (!clicked) await undo()
      throw error
    } finally {
      await shown.release()
    }
  }
  return chosen
}

/** The options to choose from, and how to leave the element as it was should none be chosen. */
interface Offer {
  shown: ShownChoices
  undo: () => Promise<void>
  /** The text typed for the options, where they follow it. */
  typed?: string
}

/**
 * A combobox one types into, or a text field that draws its own suggestions: an autocomplete, whose options follow the
 * text. A read-only field only shows the choice (Shoelace's select): its list opens as a closed combobox's does.
 */
async function typedInto(place: ElementPlace): Promise<boolean> {
  return (place.role === 'combobox' || LOOSE_ROLES.has(place.role)) && (place.tag === 'input' || place.tag === 'textarea') && !(await callOn<boolean>(place, 'function () { return this.readOnly }'))
}

/**
 * The options to choose from, the list opened first where it is closed: by a click, then, if
 * nothing showed, by ArrowDown. Where the list is not named, the options that came with the
 * opening are its own.
 */
async function openList(place: ElementPlace, steps: ChoiceSteps): Promise<Offer> {
  const stay = { undo: async () => undefined }
  if (place.role === 'listbox') return { shown: await ShownChoices.read(place, await objectOf(place)), ...stay }
  const before = await ShownChoices.read(place, await listOf(place))
  if (before.choices.length > 0 && (await callOn<boolean>(place, IS_EXPANDED))) return { shown: before, ...stay }
  const opened = { undo: () => closeList(steps) }
  try {
    const point = await centerOf(steps.page, place)
    // As a click does: never on an overlay that covers the element.
    await refuseIfCovered(place, point)
    await steps.page.mouse.click(point.x, point.y)
    await steps.settle()
    try {
      return { shown: await shownSince(place, before, steps), ...opened }
    } catch (error) {
      await opened.undo()
      throw error
    }
  } finally {
    await before.release()
  }
}

/**
 * The options an autocomplete offers for the wanted value, typed into it as a person types:
 * the field clicked (never through an overlay), its text replaced, the page let settle (its
 * pause before asking, the request it makes). Undone, the field holds its text again.
 */
async function typeToList(place: ElementPlace, want: string, steps: ChoiceSteps): Promise<Offer> {
  const before = await ShownChoices.read(place, await listOf(place))
  try {
    const held = await callOn<string>(place, 'function () { return this.value }')
    const typeText = async (text: string): Promise<void> => {
      await steps.type(place, text)
      await steps.settle()
    }
    const point = await centerOf(steps.page, place)
    await refuseIfCovered(place, point)
    await steps.page.mouse.click(point.x, point.y)
    await typeText(want)
    const undo = async (): Promise<void> => {
      await typeText(held)
      await closeList(steps)
    }
    try {
      return { shown: await shownSince(place, before, steps), undo, typed: want }
    } catch (error) {
      await undo()
      throw error
    }
  } finally {
    await before.release()
  }
}

/** The options shown now that were not `before` (all the named list's), pressing ArrowDown first where none are: an editable combobox opens from the keyboard. */
async function shownSince(place: ElementPlace, before: ShownChoices, steps: ChoiceSteps): Promise<ShownChoices> {
  // A list made on opening (rendered into a portal) is named only now.
  const read = async (): Promise<ShownChoices> => {
    const list = await listOf(place)
    return ShownChoices.read(place, list, list === null ? before : undefined)
  }
  let fresh = await read()
  if (fresh.choices.length > 0) return fresh
  await fresh.release()
  await steps.page.keyboard.press('ArrowDown')
  await steps.settle()
  fresh = await read()
  if (fresh.choices.length > 0 || (await typedInto(place))) return fresh
  // Nothing came with the opening: a named list shown before is still the one to choose from.
  await fresh.release()
  return ShownChoices.read(place, await listOf(place))
}

async function closeList(steps: ChoiceSteps): Promise<void> {
  await steps.page.keyboard.press('Escape')
  await steps.settle()
}

/** A page whose scripts broke the reading of its options (a prototype it replaced). */
function refused(place: ElementPlace, why: string | undefined): TesseraError {
  return new TesseraError('conflict', `the page refused to show the options of the ${place.role}${why === undefined ? '' : `: ${why}`}`, { found: place.role })
}

function matching(options: readonly Choice[], want: string): Choice | undefined {
  const loose = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase()
  return options.find((o) => o.name === want) ?? options.find((o) => loose(o.name) === loose(want))
}

/** A handle on the list the element names, or null. */
async function listOf(place: ElementPlace): Promise<string | null> {
  const answer = await place.document.session.send('Runtime.callFunctionOn', { objectId: await objectOf(place), functionDeclaration: LIST_OF })
  return answer.result.subtype === 'null' ? null : (answer.result.objectId ?? null)
}
