import { type Layout, type NodeStates, Risk, SELECTOR_HINT, type TargetSpec, type UiNode, type UnreadPart, cutWhole, maxRisk, wellFormed, withoutInvisible } from '@tessera/protocol'
import { type NodeLedger, WHOLE_TEXT_CHARS, consequentialWord, isDismissive, markupWord, namesAPlace, saysLittle } from '@tessera/kit'
import { shallowTree } from './shallow-tree.js'
import { type TextFocus, focusedAt, textWindow } from './long-texts.js'
import { type AxNode, type CapturedDocument, type DomFacts, type PageCapture, NAMING_ATTRIBUTES, TOOLTIP_ATTRIBUTES } from './page-capture.js'
import type { UnreadPlace } from './parts-to-read.js'
import { PART_LINES } from './ax-parts.js'
import { SECRET_NAME } from './secret-names.js'
import { SET_INPUTS } from './element-ops.js'

/** What the tile remembers of an element of the last capture: where it lives, for acting on it. */
export interface ElementPlace {
  document: CapturedDocument
  backendNodeId: number
  role: string
  tag: string
  /** The risk of submitting its form (external when the form posts to another origin). */
  formRisk?: Risk
}

export interface PageTree {
  tree: UiNode
  layout: Layout
  targets: TargetSpec[]
  places: Map<string, ElementPlace>
  /** The documents this capture showed: the ledger forgets the elements of any other. */
  liveDocuments: Set<string>
  /** The parts of a huge document this capture left unread, by node id. */
  unread: Map<string, UnreadPlace>
  /** Blocks of text read from the tree whose frame holds a window of them: a find looks through them whole. */
  cutTexts: string[]
  /** The texts held as a window placed at a find's match (their node ids): the find matched them whole. */
  found: string[]
}

/** Roles whose nodes are the click targets of a page. */
const CLICKABLE = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'listbox', 'DisclosureTriangle'])
/** A table's parts: something to click only in a grid, or where the page listens to them, makes them focusable or sorts by them. */
const TABLE_PARTS = new Set(['row', 'columnheader', 'rowheader', 'gridcell'])
/** Roles whose name is their content (ARIA's name from content), when Chromium kept none. */
const NAMED_BY_CONTENT = new Set(['button', 'link', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'treeitem', 'checkbox', 'radio', 'switch', 'columnheader', 'gridcell'])
/**
 * Unnamed targets whose role says nothing of what they do (an icon button, a spinner's arrow, a
 * styled div): their markup's name is shown (`button .ui-spinner-up`). An unnamed checkbox or
 * list says enough by its place.
 */
const HINTED = new Set(['generic', 'none', 'button', 'link'])
const FILLABLE = new Set(['textbox', 'searchbox', 'spinbutton'])
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'])
/** Accessibility roles that are only structure: their children take their place. */
const DROPPED = new Set(['InlineTextBox', 'ListMarker', 'LineBreak'])
/** Chromium's roles for code (a `pre` is generic): their texts are one (asOneText). */
const CODE = new Set(['code', 'Pre'])
const HOISTED = new Set(['generic', 'none', 'presentation', 'LabelText', 'Section', 'Pre', 'Abbr', 'Ruby', 'Canvas', 'Unknown', 'sectionheader', 'sectionfooter', 'emphasis', 'strong', 'code', 'subscript', 'superscript', 'mark', 'time', 'deletion', 'insertion', 'abbr'])
/** Chromium's own roles for layout and labels: their names repeat what their content or their control says. */
const INTERNAL = new Set(['LabelText', 'Legend', 'LayoutTable', 'LayoutTableRow', 'LayoutTableCell', 'Abbr', 'Ruby', 'RubyAnnotation', 'Caption', 'Figcaption', 'ListMarker', 'LineBreak'])
/** Where a page's names are cut: enough to recognise, never a wall of text. Its texts are kept as long as an expansion prints them. */
const MAX_TEXT = 400
const ROLE_NAMES: Readonly<Record<string, string>> = { RootWebArea: 'document', DisclosureTriangle: 'button', Iframe: 'iframe', StaticText: 'text', MenuListPopup: 'listbox', MenuListOption: 'option', image: 'img', HeaderAsNonLandmark: 'banner', FooterAsNonLandmark: 'contentinfo' }
/** Autocomplete tokens that hold secrets whatever the field's type says (names: SECRET_NAME). */
const SECRET_AUTOCOMPLETE = /^(cc-|current-password|new-password|one-time-code)/

/**
 * Unicode's private use areas, where icon fonts draw (Font Awesome's U+F015 house, the arrows
 * of CKEditor's toolbar configurator). To a person the glyph is a picture; as text it names
 * nothing an agent can read, so an icon button says what its markup calls it instead
 * (`button .move`), not `button ""` with a character no model knows.
 */
const ICON_GLYPHS = /[\ue000-\uf8ff\u{f0000}-\u{ffffd}\u{100000}-\u{10fffd}]/gu

/** A name or a text the page shows in words, without its icon fonts' glyphs. */
function wordsOf(value: unknown, max = MAX_TEXT): string | undefined {
  return text(typeof value === 'string' ? value.replace(ICON_GLYPHS, ' ') : value, max)
}

function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined
  const s = seenText(String(value)).replace(/\s+/g, ' ').trim()
  return s.length === 0 ? undefined : cut(s, max)
}

function cut(s: string, max: number): string {
  return s.length > max ? `${cutWhole(s, max - 1)}…` : s
}

/** A page's text as a person sees it: no invisible characters, and a half character (a page can write one) drawn as the browser draws it, U+FFFD. */
function seenText(value: string): string {
  return wellFormed(withoutInvisible(value))
}

/**
 * Whether a text runs on from the one before it with no space between, as the page draws
 * them: `<em>closure API</em>.`, `<b>bold</b>text`. Chromium's texts keep the spaces the page
 * has between inline elements, so neither side may have one; and a text of another block says
 * no space either, so the two must touch on one line. A text drawn on several lines has a box
 * as wide as them all: it is never glued, a space too many rather than a word run together.
 */
function gluedTo(before: { raw: string; bounds: Bounds | undefined } | undefined, raw: string, bounds: Bounds | undefined): boolean {
  if (before === undefined || before.bounds === undefined || bounds === undefined || /\s$/.test(before.raw) || /^\s/.test(raw) || raw === '') return false
  const touching = Math.abs(before.bounds.x + before.bounds.width - bounds.x) <= 0.5
  const oneLine = before.bounds.y < bounds.y + bounds.height && bounds.y < before.bounds.y + before.bounds.height
  return touching && oneLine
}

/** A text in lines (a block of code, a field's text) as the page lays it out: its lines and their indentation, without trailing spaces, blank lines around it or more than one between its lines. */
function linedText(value: string): string | undefined {
  const s = seenText(value).replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').replace(/^\n+|\s+$/g, '')
  return s.trim().length === 0 ? undefined : cut(s, WHOLE_TEXT_CHARS)
}

function property(node: AxNode, name: string): unknown {
  return node.properties?.find((p) => p.name === name)?.value.value
}

/** The states an agent reasons about, from the accessibility properties. */
function statesOf(node: AxNode): NodeStates | undefined {
  const states: NodeStates = {}
  const checked = property(node, 'checked')
  if (checked === 'true' || checked === true) states.checked = true
  else if (checked === 'false' || checked === false) states.checked = false
  else if (checked === 'mixed') states.mixed = true
  const pressed = property(node, 'pressed')
  if (pressed === 'true' || pressed === true) states.pressed = true
  for (const name of ['selected', 'expanded', 'focused', 'disabled', 'required', 'readonly', 'modal', 'multiselectable'] as const) {
    const value = property(node, name)
    if (value === true || value === 'true') states[name] = true
    else if (name === 'expanded' && (value === false || value === 'false')) states.expanded = false
  }
  const invalid = property(node, 'invalid')
  if (invalid !== undefined && invalid !== 'false' && invalid !== false) states.invalid = true
  return Object.keys(states).length === 0 ? undefined : states
}

/** The elements widgets name as their active one (`aria-activedescendant`): where a menu's or a list's keys are, while focus stays on the widget. */
function activeDescendants(nodes: readonly AxNode[]): Set<number> {
  const active = new Set<number>()
  for (const node of nodes) {
    const related = node.properties?.find((p) => p.name === 'activedescendant')?.value.relatedNodes ?? []
    for (const { backendDOMNodeId } of related) if (backendDOMNodeId !== undefined) active.add(backendDOMNodeId)
  }
  return active
}

function isSecret(dom: DomFacts | undefined): boolean {
  if (dom === undefined) return false
  if (dom.attributes.has('data-agent-sensitive')) return true
  if (dom.tag === 'input' && dom.attributes.get('type')?.toLowerCase() === 'password') return true
  const autocomplete = dom.attributes.get('autocomplete')?.toLowerCase().trim()
  if (autocomplete !== undefined && autocomplete.split(/\s+/).some((token) => SECRET_AUTOCOMPLETE.test(token))) return true
  if (dom.tag !== 'input' && dom.tag !== 'textarea') return false
  const named = `${dom.attributes.get('name') ?? ''} ${dom.attributes.get('id') ?? ''}`
  return SECRET_NAME.test(named.trim())
}

/** The page's own origin, `null` as a string for a blank or inline page: a link from it to any site leaves it. */
function pageOriginOf(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** Where a link or a form's address leads, as the origin a click would leave the page for; none for a script or inline data. */
function originOf(url: string | undefined, base: string): string | null {
  if (url === undefined) return null
  try {
    const parsed = new URL(url, base)
    if (parsed.protocol === 'javascript:') return null
    // An address with no origin of its own: inline data (a download made in the page) goes nowhere; another scheme (mailto:, an app's own) leaves the page by that scheme.
    if (parsed.origin === 'null') return parsed.protocol === 'data:' || parsed.protocol === 'about:' ? null : parsed.protocol
    return parsed.origin
  } catch {
    return null
  }
}

interface Walk {
  capture: PageCapture
  ledger: NodeLedger
  documents: Map<string, CapturedDocument>
  /** Iframe element (document key + backend id) → the document it shows. */
  children: Map<string, CapturedDocument>
  layout: Layout
  targets: TargetSpec[]
  places: Map<string, ElementPlace>
  unread: Map<string, UnreadPlace>
  pageOrigin: string | null
  /** Elements an agent named by a selector to click (document key → backend ids): targets whatever the page says of them. */
  named: ReadonlyMap<string, ReadonlySet<number>>
  /** The element each document's widgets say is active (`aria-activedescendant`: a menu's item, a list's option the keys move through), by document key. */
  active: Map<string, ReadonlySet<number>>
  /** How many elements carry each class, by document key: counted when a hint first needs it. */
  classCounts: Map<string, ReadonlyMap<string, number>>
  /** The places a fragment can name in each document (ids, and `<a name>`s), by document key: gathered when a link first needs them. */
  anchors: Map<string, ReadonlySet<string>>
  /** Each document's elements by their id, by document key: gathered when a label or a link's fragment first needs them. */
  byElementId: Map<string, ReadonlyMap<string, DomFacts>>
  /** What a find looks for: a block of text too long to keep whole keeps the lines of its first match. */
  focus: TextFocus | undefined
  cutTexts: string[]
  /** Texts this walk held a window of as prose: code made of them is windowed again, by its lines. */
  proseWindows: Set<string>
  found: string[]
  /** The last text built, in the page's order: whether the next one runs on from it (see gluedTo). */
  lastText: { raw: string; bounds: Bounds | undefined } | undefined
}

/** Where an element is drawn, in page coordinates. */
type Bounds = NonNullable<DomFacts['bounds']>

/** Context inherited down the tree: what the nearest form and dialog say. */
interface Inherited {
  formRisk: Risk | undefined
  formName: string | undefined
  dialogName: string | undefined
  secret: boolean
  /** Inside an ARIA grid or tree grid, whose rows and cells a person selects and moves through. */
  inGrid: boolean
  /**
   * Inside a label, a button or a link, whose clicks anywhere are one: the label's its
   * control's. An icon in it the page styles with a pointer is no target of its own.
   */
  inOneClick: boolean
  /** A child of a list that listens for clicks itself: its items are what it answers (a sortable list, a list of suggestions). */
  inListeningList: boolean
  /** Inside a `pre`: its code is a block of its own (asOneText). */
  inPre?: boolean
  /** Inside a combobox: a button there edits the field's value (a tag's "Remove item" in Select2's box of many), whatever its words say. */
  inCombobox?: boolean
  /**
   * The box of a combobox beside this subtree, in the same parent: a button drawn inside it
   * edits the field's value as one inside the combobox does (a tag's "Remove" in Shoelace's
   * select of many sits next to its field, over it, in the select's shadow root).
   */
  comboboxBox?: Bounds
}

/**
 * The page as a frame tree: accessibility roles, names, values and states, bounds from the DOM
 * snapshot, iframes' documents under their iframe elements, secrets redacted, and a target
 * for each action each element affords with the element's own risk.
 */
export function buildPageTree(capture: PageCapture, ledger: NodeLedger, named: ReadonlyMap<string, ReadonlySet<number>> = new Map(), focus?: TextFocus): PageTree {
  const documents = new Map(capture.documents.map((doc) => [doc.key, doc]))
  const children = new Map<string, CapturedDocument>()
  for (const doc of capture.documents) if (doc.owner !== undefined) children.set(`${doc.owner.documentKey}#${doc.owner.backendNodeId}`, doc)
  const walk: Walk = { capture, ledger, documents, children, layout: {}, targets: [], places: new Map(), unread: new Map(), pageOrigin: pageOriginOf(capture.url), named, active: new Map(), classCounts: new Map(), anchors: new Map(), byElementId: new Map(), focus, cutTexts: [], proseWindows: new Set(), found: [], lastText: undefined }
  const top = capture.documents[0]
  const rootId = 'page'
  walk.layout[rootId] = capture.viewport
  const inherited: Inherited = { formRisk: undefined, formName: undefined, dialogName: undefined, secret: false, inGrid: false, inOneClick: false, inListeningList: false }
  const body = top === undefined ? [] : documentNodes(top, walk, inherited)
  const tree: UiNode = { id: rootId, kind: 'box', role: 'document', ...(capture.title ? { name: text(capture.title) } : {}), ...(body.length > 0 ? { children: body } : {}) }
  return { tree, layout: walk.layout, targets: walk.targets, places: walk.places, liveDocuments: new Set(documents.keys()), unread: walk.unread, cutTexts: walk.cutTexts, found: walk.found }
}

function documentNodes(doc: CapturedDocument, walk: Walk, inherited: Inherited): UiNode[] {
  const byId = shallowTree(doc.ax)
  walk.active.set(doc.key, activeDescendants(doc.ax))
  const root = doc.ax[0]
  if (root === undefined) return []
  return siblingNodes(root.childIds ?? [], byId, doc, walk, inherited)
}

/**
 * The nodes of some siblings. In a document read in parts, runs of siblings left unread are
 * grouped into parts (role `part`) of up to PART_LINES lines, each with what it holds; a part
 * an agent expanded stays one part, now read, so the offsets of folds around it hold.
 */
function siblingNodes(ids: readonly string[], byId: Map<string, AxNode>, doc: CapturedDocument, walk: Walk, inherited: Inherited): UiNode[] {
  if (doc.ranges === undefined) return ids.flatMap((id) => visit(byId.get(id), byId, doc, walk, inherited))
  const expanded = new Map((doc.parts ?? []).map((elements) => [elements[0] as number, new Set(elements)]))
  const out: UiNode[] = []
  let run: AxNode[] = []
  const flush = (): void => {
    if (run.length > 0) out.push(unreadPart(run, doc, walk))
    run = []
  }
  for (let k = 0; k < ids.length; k++) {
    const child = byId.get(ids[k] as string)
    const members = child?.backendDOMNodeId === undefined ? undefined : expanded.get(child.backendDOMNodeId)
    if (child !== undefined && members !== undefined) {
      flush()
      const read: UiNode[] = []
      let j = k
      for (; j < ids.length; j++) {
        const member = byId.get(ids[j] as string)
        if (member?.backendDOMNodeId === undefined || !members.has(member.backendDOMNodeId)) break
        read.push(...visit(member, byId, doc, walk, inherited))
      }
      k = j - 1
      out.push(partNode(child.backendDOMNodeId as number, doc, walk, read.length > 0 ? { children: read } : {}))
      continue
    }
    if (child?.unread !== undefined) {
      const lines = run.reduce((n, member) => n + (member.unread?.lines ?? 0), 0)
      if (run.length > 0 && lines + child.unread.lines > PART_LINES) flush()
      run.push(child)
      continue
    }
    flush()
    out.push(...visit(child, byId, doc, walk, inherited))
  }
  flush()
  return out
}

/** A part: siblings grouped under one id, their first element's, that stays while that element lives. */
function partNode(first: number, doc: CapturedDocument, walk: Walk, fields: Partial<UiNode>): UiNode {
  return { id: walk.ledger.idOf(doc.key, `part:${first}`), kind: 'box', role: 'part', ...fields }
}

/** Siblings not read yet, as one part that says what they hold and where they are drawn. */
function unreadPart(run: readonly AxNode[], doc: CapturedDocument, walk: Walk): UiNode {
  const elements = run.map((node) => node.backendDOMNodeId as number)
  const heading = run.find((node) => node.unread?.heading !== undefined)?.unread?.heading
  const words = run.find((node) => node.unread?.words !== undefined)?.unread?.words
  const unread: UnreadPart = {
    lines: run.reduce((n, node) => n + (node.unread?.lines ?? 0), 0),
    actions: run.reduce((n, node) => n + (node.unread?.actions ?? 0), 0),
    ...(heading !== undefined ? { heading } : words !== undefined ? { words } : {}),
  }
  const node = partNode(elements[0] as number, doc, walk, { unread })
  walk.unread.set(node.id, { document: doc, elements })
  const box = doc.ranges?.box(elements)
  if (box !== undefined) walk.layout[node.id] = box
  return node
}

/**
 * Code (a `pre`, a `code`) as one text, its runs joined as the page shows them: a highlighter
 * wraps every token in an element of its own, and runs joined by spaces would read
 * `fs. rename ( '/tmp/a' )`. Chromium's texts keep the spaces the page has between them. A
 * block of it (in a `pre`) keeps its line breaks and indentation, which Python or YAML need,
 * and is marked `role: 'code'`, so an outline never runs the prose around it into it.
 */
function asOneText(nodes: UiNode[], code: AxNode, byId: Map<string, AxNode>, box: DomFacts['bounds'], walk: Walk, block: boolean): UiNode[] {
  const first = nodes[0]
  // Not only text (a link in the code), or a block joined already (a pre's code element).
  if (first === undefined || nodes.some((node) => node.kind !== 'text') || first.role === 'code') return nodes
  if (nodes.length === 1 && !block) return nodes
  const runs: string[] = []
  const collect = (ids: readonly string[]): void => {
    for (const id of ids) {
      const node = byId.get(id)
      if (node === undefined || (node.ignored === true && node.role?.value === 'StaticText')) continue
      if (node.role?.value === 'StaticText') runs.push(typeof node.name?.value === 'string' ? node.name.value : '')
      else collect(node.childIds ?? [])
    }
  }
  collect(code.childIds ?? [])
  const raw = runs.join('')
  // A block longer than a frame keeps is held as a window of its lines, as a long text read from the DOM is (whose window it is already); not as the window its text had as prose.
  const { excerpt: firstExcerpt, ...rest } = first
  const fromDom = first.excerpt !== undefined && !walk.proseWindows.has(first.id)
  const firstKey = walk.ledger.locate(first.id)?.key
  const at = block && !fromDom && walk.focus !== undefined ? focusedAt(raw, walk.focus, typeof firstKey === 'number' ? firstKey : undefined) : undefined
  const held = block && !fromDom ? textWindow(raw, at ?? 0) : undefined
  const joined = block ? linedText(held?.text ?? raw) : text(raw, WHOLE_TEXT_CHARS)
  if (joined === undefined) return nodes
  if (box !== undefined) walk.layout[first.id] = box
  if (held?.excerpt !== undefined) walk.cutTexts.push(raw)
  // The block's own window says whether the find matched it, not the one its first text had as prose.
  const foundAsProse = walk.found.indexOf(first.id)
  if (foundAsProse >= 0) walk.found.splice(foundAsProse, 1)
  if (held?.excerpt !== undefined && at !== undefined && walk.focus?.line === undefined) walk.found.push(first.id)
  const excerpt = fromDom ? firstExcerpt : held?.excerpt
  return [{ ...rest, text: joined, ...(block ? { role: 'code' } : {}), ...(excerpt === undefined ? {} : { excerpt }) }]
}

/** Whether the element is where its editable text begins: `contenteditable` on it, not inherited. */
function isEditingHost(dom: DomFacts | undefined): boolean {
  const editable = dom?.attributes.get('contenteditable')
  return editable !== undefined && editable.toLowerCase() !== 'false'
}

function visit(node: AxNode | undefined, byId: Map<string, AxNode>, doc: CapturedDocument, walk: Walk, inherited: Inherited): UiNode[] {
  if (node === undefined) return []
  let axRole = typeof node.role?.value === 'string' ? node.role.value : 'none'
  if (DROPPED.has(axRole)) return []
  const backendId = node.backendDOMNodeId
  const dom = backendId === undefined ? undefined : doc.dom.get(backendId)
  // Chromium demotes some declared roles (an option wrapped in a list item) to generic; the page said what it is.
  const declared = dom?.attributes.get('role')?.trim().split(/\s+/)[0]
  if (axRole === 'generic' && declared !== undefined && CLICKABLE.has(declared)) axRole = declared
  // An editor's editable region the page gave no role (a bare contenteditable) is a field to type in, its text the value.
  const bareEditor = axRole === 'generic' && declared === undefined && property(node, 'editable') === 'richtext' && isEditingHost(dom)
  if (bareEditor) axRole = 'textbox'
  const kids = (next: Inherited): UiNode[] => siblingNodes(node.childIds ?? [], byId, doc, walk, next)
  if (backendId === undefined) return kids(inherited)
  if (node.ignored) {
    // Hidden from screen readers (aria-hidden) yet on screen and clickable — a spinner's arrows: still something a person can click.
    const box = dom?.bounds
    const declaredRole = dom?.attributes.get('role')?.trim().split(/\s+/)[0]
    const role = declaredRole ?? (dom?.tag === 'button' ? 'button' : dom?.tag === 'a' && dom.attributes.has('href') ? 'link' : undefined)
    // Declared a control by the page, or listening for clicks itself (a delegated handler leaves no mark on the element).
    // Or named by an agent's selector to point at: a target whatever it is.
    const pointedAt = walk.named.get(doc.key)?.has(backendId) === true
    // A pre the tree leaves out (rustdoc's examples: role none around a code element) still keeps its code's line breaks.
    if (box === undefined || box.width * box.height < 4 || (!pointedAt && ((dom?.clickable !== true && declaredRole === undefined) || role === undefined || !CLICKABLE.has(role)))) return kids(dom?.tag === 'pre' ? { ...inherited, inPre: true } : inherited)
    const id = walk.ledger.idOf(doc.key, backendId)
    walk.layout[id] = box
    const shownRole = role !== undefined && CLICKABLE.has(role) ? role : 'generic'
    const out: UiNode = { id, kind: 'box', role: shownRole, states: { ariaHidden: true } }
    const hint = HINTED.has(shownRole) ? selectorHintOf(dom, doc, walk) : undefined
    if (hint !== undefined) out.semantic = { selectorHint: hint }
    addTargets(out, backendId, shownRole, dom, doc, walk, inherited, undefined, riskHintsOf(node, dom))
    return [out]
  }

  const name = wordsOf(node.name?.value)
  if (axRole === 'StaticText') {
    const raw = typeof node.name?.value === 'string' ? node.name.value : ''
    // A text longer than a frame keeps (a paragraph of 50,000 characters) is held as a window of it, as a block of code is: a find looks through it whole, and the window starts at its match.
    const windowed = node.excerpt === undefined && raw.length > WHOLE_TEXT_CHARS && !inherited.secret
    const at = windowed && walk.focus !== undefined ? focusedAt(raw, walk.focus, backendId) : undefined
    const held = windowed ? textWindow(raw, at ?? 0) : undefined
    const said = wordsOf(held?.text ?? node.name?.value, WHOLE_TEXT_CHARS)
    const before = walk.lastText
    walk.lastText = { raw, bounds: dom?.bounds }
    if (said === undefined) return []
    const glued = gluedTo(before, raw, dom?.bounds)
    const id = walk.ledger.idOf(doc.key, backendId, 'text')
    if (dom?.bounds !== undefined) walk.layout[id] = dom.bounds
    if (inherited.secret) return [{ id, kind: 'text', text: '[REDACTED]' }]
    if (held?.excerpt !== undefined) {
      walk.cutTexts.push(raw)
      walk.proseWindows.add(id)
      if (at !== undefined && walk.focus?.line === undefined) walk.found.push(id)
    }
    const excerpt = node.excerpt ?? held?.excerpt
    return [{ id, kind: 'text', text: said, ...(excerpt === undefined ? {} : { excerpt }), ...(glued ? { glued: true as const } : {}) }]
  }
  // A label's click is its control's, which has its own targets.
  const draggable = dom?.attributes.get('draggable') === 'true'
  // Unless its control is not drawn (mdbook's sidebar toggle: a label for a checkbox styled display: none): then it is the button.
  const togglesHidden = (dom?.tag === 'label' || axRole === 'LabelText') && togglesUndrawnControl(dom, doc, walk)
  if (togglesHidden) axRole = 'button'
  const label = !togglesHidden && (dom?.tag === 'label' || axRole === 'LabelText')
  const page = dom?.tag === 'html' || dom?.tag === 'body'
  const clickableDom = (dom?.clickable === true || draggable) && !page && !label
  // A click target whose handler sits on an ancestor, as long as nothing inside it is a target:
  // the page styles it with a pointer cursor, or it is an item of a list that listens for clicks.
  const delegatedItem = inherited.inListeningList && (axRole === 'listitem' || dom?.tag === 'li')
  // Or an agent named it by a selector to click it (React's todo label, double-clicked to edit, says nothing of its handler).
  const named = walk.named.get(doc.key)?.has(backendId) === true
  const implied = ((dom?.pointer === true || delegatedItem) && !page && !label && !inherited.inOneClick && !clickableDom && !CLICKABLE.has(axRole)) || (named && !clickableDom && !CLICKABLE.has(axRole))
  const within: Inherited = label || axRole === 'button' || axRole === 'link' ? { ...inherited, inOneClick: true } : inherited
  let walked: UiNode[] | undefined
  const targetsBefore = walk.targets.length
  if ((INTERNAL.has(axRole) || (HOISTED.has(axRole) && name === undefined && dom?.tag !== 'iframe')) && !clickableDom) {
    if (!implied) {
      const pre = dom?.tag === 'pre'
      if (!(pre || CODE.has(axRole)) || inherited.secret) return kids(within)
      return asOneText(kids(pre ? { ...within, inPre: true } : within), node, byId, dom?.bounds, walk, pre || inherited.inPre === true)
    }
    walked = kids({ ...inherited, secret: inherited.secret || isSecret(dom) })
    // An empty one is a target only where it is drawn: an icon, a slider's handle. One an agent named is one whatever it holds.
    if (!named && (walk.targets.length > targetsBefore || (walked.length === 0 && (dom?.bounds === undefined || dom.bounds.width * dom.bounds.height < 4)))) return walked
  }

  // A label or the like made a target by name has no role of its own to say: it is a clickable.
  const role = named && INTERNAL.has(axRole) ? 'generic' : (ROLE_NAMES[axRole] ?? axRole)
  const id = walk.ledger.idOf(doc.key, backendId)
  const secret = inherited.secret || isSecret(dom)
  const next: Inherited = { ...within, secret, inListeningList: clickableDom && (role === 'list' || dom?.tag === 'ul' || dom?.tag === 'ol') }
  if (role === 'form') {
    const action = dom?.attributes.get('action')
    const origin = action === undefined || action === '' ? walk.pageOrigin : originOf(action, doc.url)
    next.formRisk = origin !== null && walk.pageOrigin !== null && origin !== walk.pageOrigin ? 'external' : undefined
    next.formName = name
  }
  if (role === 'dialog' || role === 'alertdialog') next.dialogName = name
  if (role === 'combobox') next.inCombobox = true
  else {
    const beside = comboboxBoxAmong(node, byId, doc)
    if (beside !== undefined) next.comboboxBox = beside
  }
  if (role === 'grid' || role === 'treegrid') next.inGrid = true
  else if (role === 'table') next.inGrid = false

  const out: UiNode = { id, kind: 'box', role }
  // A secret field's label is not secret; its value and what it shows are.
  if (name !== undefined) out.name = name
  // A spin button shows what is in its field now, which a person typed there a moment ago, or nothing: not what aria-valuenow last said, nor Chromium's 0 without it.
  const value = dom?.tag === 'input' && dom.inputValue !== undefined ? dom.inputValue : node.value?.value
  // A field's text is kept whole, its line breaks too: the outline cuts it, an expansion reads it back.
  if (value !== undefined && value !== '' && role !== 'link') out.value = secret ? null : ((typeof value === 'string' ? linedText(value) : text(value)) ?? null)
  let states = statesOf(node)
  if (walk.active.get(doc.key)?.has(backendId) === true) states = { ...states, active: true }
  // How a table is sorted by this column: Chromium's tree does not say it, the attribute does.
  const sort = dom?.attributes.get('aria-sort')
  if (sort === 'ascending' || sort === 'descending') states = { ...states, [sort === 'ascending' ? 'sortedAscending' : 'sortedDescending']: true }
  if (states !== undefined) out.states = states
  if (secret && (FILLABLE.has(role) || dom?.tag === 'input')) out.semantic = { sensitive: true }
  // The app's own name for what the element does (@tessera/sdk's data-agent-action), shown beside it.
  const declaredAction = dom?.attributes.get('data-agent-action')
  if (declaredAction !== undefined && /^[a-z0-9][a-z0-9._-]{0,63}$/.test(declaredAction)) {
    const title = text(dom?.attributes.get('data-agent-title'))
    out.semantic = { ...out.semantic, data: { action: declaredAction, ...(title === undefined ? {} : { title }) } }
  }
  if (dom?.bounds !== undefined) walk.layout[id] = dom.bounds

  // An iframe element shows another document: its tree hangs here.
  let childNodes: UiNode[]
  const shown = dom?.tag === 'iframe' || dom?.tag === 'frame' ? walk.children.get(`${doc.key}#${backendId}`) : undefined
  if (shown !== undefined) {
    childNodes = documentNodes(shown, walk, next)
    // Another site's document (a payment form, a widget): where it comes from is what the agent most needs to know of it.
    const origin = /^https?:/i.test(shown.url) ? pageOriginOf(shown.url) : null
    if (origin !== null && walk.pageOrigin !== null && origin !== walk.pageOrigin) out.src = origin
  }
  // A native field's parts (a date's month, day and year and its picker button, a text area's lines) are the
  // browser's own, drawn in its shadow: the field itself takes the action and says the value. So is what a bare
  // editor holds: its paragraphs are its value's lines, and a click in one only places the caret.
  else childNodes = (secret && FILLABLE.has(role)) || dom?.tag === 'input' || dom?.tag === 'textarea' || bareEditor ? [] : (walked ?? kids(next))
  const impliedHere = (implied && walk.targets.length === targetsBefore) || named
  // A control named by its content alone (the page gave it no name Chromium kept): its text is its name.
  if (out.name === undefined && (NAMED_BY_CONTENT.has(role) || impliedHere) && childNodes.length > 0 && childNodes.every((child) => child.kind === 'text')) {
    out.name = text(childNodes.map((child) => child.text ?? '').join(' '))
    if (out.name === undefined) delete out.name
    childNodes = []
  }
  const ownBox = childNodes.length === 1 ? childNodes[0] : undefined
  if ((CLICKABLE.has(axRole) || CLICKABLE.has(role)) && ownBox !== undefined && isOwnBox(ownBox, out.name, walk)) {
    // A control's own drawing that listens for clicks and says what the control says (the box
    // inside a Shoelace option or menu item): the control is the target, a click at its middle lands there.
    forgetTargets(walk, ownBox.id)
    childNodes = ownBox.children ?? []
  }
  if (childNodes.length > 0) out.children = childNodes

  const tablePart = TABLE_PARTS.has(role) && (next.inGrid || dom?.attributes.has('tabindex') === true || dom?.attributes.has('aria-sort') === true)
  const control = CLICKABLE.has(axRole) || CLICKABLE.has(role) || tablePart
  // Listening for clicks around one control that says the same (a date picker's cell around its day's link): that control is the target.
  const only = childNodes.length === 1 ? childNodes[0] : undefined
  if (clickableDom && !control && only !== undefined && CLICKABLE.has(only.role ?? '') && (out.name === undefined || out.name === only.name) && targetSince(walk, targetsBefore, only.id)) return [only]
  if (control || clickableDom || impliedHere) {
    // A click target whose role and name say nothing of it: what its markup calls it.
    const hint = out.name === undefined && HINTED.has(role) ? selectorHintOf(dom, doc, walk) : undefined
    if (hint !== undefined) out.semantic = { ...out.semantic, selectorHint: hint }
    addTargets(out, backendId, role, dom, doc, walk, next, riskWhereClickLands(walk, targetsBefore, dom?.bounds), riskHintsOf(node, dom))
  }
  return [out]
}

/**
 * The element's id, else its rarest class in its document (the first of equals), as a selector
 * (`#slider-range`, `.ui-spinner-up` rather than `.ui-button`); nothing where none reads as a
 * plain CSS name. The rarest class says most of what the element is, and alone names it best.
 */
function selectorHintOf(dom: DomFacts | undefined, doc: CapturedDocument, walk: Walk): string | undefined {
  const id = dom?.attributes.get('id')
  if (id !== undefined && SELECTOR_HINT.test(`#${id}`)) return `#${id}`
  const classes = (dom?.attributes.get('class') ?? '').split(/\s+/).map((name) => `.${name}`).filter((hint) => SELECTOR_HINT.test(hint))
  if (classes.length <= 1) return classes[0]
  const counts = classCountsOf(doc, walk)
  const countOf = (hint: string): number => counts.get(hint) ?? 0
  return classes.reduce((rarest, hint) => (countOf(hint) < countOf(rarest) ? hint : rarest))
}

function classCountsOf(doc: CapturedDocument, walk: Walk): ReadonlyMap<string, number> {
  const known = walk.classCounts.get(doc.key)
  if (known !== undefined) return known
  const counts = new Map<string, number>()
  for (const facts of doc.dom.values()) {
    // A class written twice on one element is still one element's.
    for (const name of new Set(facts.attributes.get('class')?.split(/\s+/))) if (name !== '') counts.set(`.${name}`, (counts.get(`.${name}`) ?? 0) + 1)
  }
  walk.classCounts.set(doc.key, counts)
  return counts
}

/**
 * Whether a link only moves the view within its own document: its address is the document's
 * own, with a fragment that names an element of it (a table of contents' `#fs_fs_rmdir_path_options_callback`).
 * A bare `#`, or a fragment that names nothing here (a script's hook, a route such as
 * `#/delete/5`), moves nothing a reader can point to: its words still count.
 */
function movesWithinPage(href: string | undefined, doc: CapturedDocument, walk: Walk): boolean {
  if (href === undefined || !href.includes('#')) return false
  let target: URL
  let here: URL
  try {
    target = new URL(href, doc.url)
    here = new URL(doc.url)
  } catch {
    return false
  }
  if (target.hash.length < 2 || target.origin !== here.origin || target.pathname !== here.pathname || target.search !== here.search) return false
  let fragment: string
  try {
    fragment = decodeURIComponent(target.hash.slice(1))
  } catch {
    fragment = target.hash.slice(1)
  }
  return anchorsOf(doc, walk).has(fragment)
}

/**
 * Whether a link's click loads the page its address names, as a browser does it: an http(s)
 * address with a path or query of its own, not a bare `#` or a route in the fragment a script
 * reads, and no `data-method` (Rails' and Turbo's links that send a DELETE or a POST).
 */
function opensAPage(href: string | undefined, dom: DomFacts | undefined, doc: CapturedDocument): boolean {
  if (href === undefined || href.trim() === '' || href.trim().startsWith('#')) return false
  const method = (dom?.attributes.get('data-method') ?? dom?.attributes.get('data-turbo-method'))?.toLowerCase()
  if (method !== undefined && method !== 'get') return false
  try {
    const target = new URL(href, doc.url)
    return (target.protocol === 'http:' || target.protocol === 'https:') && !target.hash.startsWith('#/') && !target.hash.startsWith('#!')
  } catch {
    return false
  }
}

/**
 * The consequential word a link's address says as a word of its own (`/items/7/delete`,
 * `?action=remove`, `/cart/remove-item`): a link that acts by being followed says so there.
 * A file name (`trait.Drop.html`) or a dotted anchor (`#method.remove`) names a page to read.
 */
function addressWord(href: string, doc: CapturedDocument): string | null {
  let target: URL
  try {
    target = new URL(href, doc.url)
  } catch {
    return null
  }
  let said = `${target.pathname} ${target.search}`
  try {
    said = decodeURIComponent(said)
  } catch {
    // Kept as written: a malformed escape is no word.
  }
  const words = said.split(/[\s/?&=#+_-]+/).filter((word) => word !== '' && !word.includes('.'))
  return consequentialWord(words.join(' '))
}

/**
 * Whether a drawn label's click is the only way to its control: the check box or radio button
 * its `for` names is not drawn, so a page's styles show its state (a sidebar opened, a theme
 * picked), and neither the tree nor a person sees the control itself.
 */
function togglesUndrawnControl(dom: DomFacts | undefined, doc: CapturedDocument, walk: Walk): boolean {
  const target = dom?.attributes.get('for')
  if (dom?.bounds === undefined || dom.bounds.width * dom.bounds.height < 4 || target === undefined || target === '') return false
  const control = elementsById(doc, walk).get(target)
  const type = control?.attributes.get('type')?.toLowerCase()
  return control?.tag === 'input' && (type === 'checkbox' || type === 'radio') && control.bounds === undefined
}

/** A document's elements by their id (the first of each), gathered once a walk first needs them. */
function elementsById(doc: CapturedDocument, walk: Walk): ReadonlyMap<string, DomFacts> {
  const known = walk.byElementId.get(doc.key)
  if (known !== undefined) return known
  const found = new Map<string, DomFacts>()
  for (const facts of doc.dom.values()) {
    const id = facts.attributes.get('id')
    if (id !== undefined && id !== '' && !found.has(id)) found.set(id, facts)
  }
  walk.byElementId.set(doc.key, found)
  return found
}

function anchorsOf(doc: CapturedDocument, walk: Walk): ReadonlySet<string> {
  const known = walk.anchors.get(doc.key)
  if (known !== undefined) return known
  const anchors = new Set<string>(elementsById(doc, walk).keys())
  for (const facts of doc.dom.values()) {
    const name = facts.tag === 'a' ? facts.attributes.get('name') : undefined
    if (name !== undefined && name !== '') anchors.add(name)
  }
  walk.anchors.set(doc.key, anchors)
  return anchors
}

/**
 * The risk of the targets inside an element (given since `before`) where a click at its middle
 * lands: clicking a box clicks what is drawn there. A menu that listens for clicks is no way
 * around the approval its "Delete" item needs. An element with no box of its own (Shoelace's
 * menu listens on a slot, which is drawn only as what it shows) may land on any of them.
 */
function riskWhereClickLands(walk: Walk, before: number, bounds: DomFacts['bounds']): Risk | undefined {
  const lands = (box: DomFacts['bounds']): boolean => {
    if (bounds === undefined) return true
    const x = bounds.x + bounds.width / 2
    const y = bounds.y + bounds.height / 2
    return box !== undefined && x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height
  }
  let risk: Risk | undefined
  for (let k = before; k < walk.targets.length; k++) {
    const target = walk.targets[k]
    if (target?.contract !== 'click' || target.risk === undefined || target.nodeId === undefined || !lands(walk.layout[target.nodeId])) continue
    risk = risk === undefined ? target.risk : maxRisk(risk, target.risk)
  }
  return risk
}

/** A box that is only something to click (no role of its own), saying nothing but the name given (or nothing), holding no target. */
function isOwnBox(node: UiNode, name: string | undefined, walk: Walk): boolean {
  if (node.kind !== 'box' || node.role !== 'generic' || (node.name !== undefined && node.name !== name)) return false
  const inner = new Set<string>()
  const collect = (child: UiNode): void => {
    inner.add(child.id)
    for (const below of child.children ?? []) collect(below)
  }
  for (const child of node.children ?? []) collect(child)
  return !walk.targets.some((target) => target.nodeId !== undefined && inner.has(target.nodeId))
}

/** Takes back the targets a node was given: another element acts for it. */
function forgetTargets(walk: Walk, nodeId: string): void {
  for (let k = walk.targets.length - 1; k >= 0; k--) if (walk.targets[k]?.nodeId === nodeId) walk.targets.splice(k, 1)
  walk.places.delete(nodeId)
}

/** Whether the walk gave this node a target since it had `before` of them. */
function targetSince(walk: Walk, before: number, nodeId: string): boolean {
  for (let k = before; k < walk.targets.length; k++) if (walk.targets[k]?.nodeId === nodeId) return true
  return false
}

/** The actions an element affords, each with the element's own risk where it exceeds the action's. */
function addTargets(node: UiNode, backendNodeId: number, role: string, dom: DomFacts | undefined, doc: CapturedDocument, walk: Walk, inherited: Inherited, landsOn: Risk | undefined, hints: RiskHints): void {
  const id = node.id
  const tag = dom?.tag ?? ''
  const type = dom?.attributes.get('type')?.toLowerCase()
  walk.places.set(id, { document: doc, backendNodeId, role, tag, ...(inherited.formRisk === undefined ? {} : { formRisk: inherited.formRisk }) })
  const disabled = node.states?.disabled === true
  const own = clickRiskOf(node, role, dom, doc, walk, inherited, hints)
  const clickRisk = own === undefined ? landsOn : maxRisk(own.risk, landsOn)
  // Said to the person asked to approve a click, and to the agent told it waits: why this element is riskier than a click.
  const clickReason = own !== undefined && own.risk === clickRisk ? own.reason : undefined
  const push = (contract: string, risk?: Risk, riskReason?: string): void => {
    walk.targets.push({ contract, nodeId: id, ...(risk === undefined ? {} : { risk }), ...(riskReason === undefined ? {} : { riskReason }), ...(disabled ? { enabled: false } : {}) })
  }
  if (tag === 'input' && type === 'file') {
    push('upload')
    return
  }
  push('click', clickRisk, clickReason)
  push('hover')
  const editable = FILLABLE.has(role) || (role === 'combobox' && (tag === 'input' || tag === 'textarea')) || dom?.attributes.has('contenteditable') === true || (tag === 'input' && SET_INPUTS.includes(type ?? ''))
  if (editable && node.states?.readonly !== true) push('fill')
  if (tag === 'select' || opensList(role, dom) || (editable && suggestsItself(role, tag, dom))) push('select')
  if (CHECKABLE.has(role)) push('check')
  // What is dragged: HTML5 draggables, the items of sortable lists, and any element a script listens to without a role (a slider's handle, a jQuery UI draggable box).
  if (dom?.attributes.get('draggable') === 'true' || role === 'listitem' || role === 'row' || role === 'option' || role === 'treeitem' || role === 'generic' || walk.named.get(doc.key)?.has(backendNodeId) === true) push('drag')
}

/** Options to choose by clicking them (or typing, in an autocomplete): a listbox, a combobox, a button that opens a listbox. */
function opensList(role: string, dom: DomFacts | undefined): boolean {
  return role === 'listbox' || role === 'combobox' || (role === 'button' && dom?.attributes.get('aria-haspopup') === 'listbox')
}

/**
 * A text field whose own completions the page turned off (`autocomplete="off"`), as a page does
 * that draws its suggestions itself: jQuery UI's autocomplete gives neither the field nor its
 * suggestions a role. Its suggestions are chosen as an autocomplete combobox's are.
 */
function suggestsItself(role: string, tag: string, dom: DomFacts | undefined): boolean {
  return (role === 'textbox' || role === 'searchbox') && tag === 'input' && dom?.attributes.get('autocomplete')?.toLowerCase() === 'off'
}

function declaredRisk(dom: DomFacts | undefined): Risk | undefined {
  const declared = Risk.safeParse(dom?.attributes.get('data-agent-risk'))
  return declared.success ? declared.data : undefined
}

/** A risk above a click's, and why, in a few words. */
interface RiskWhy {
  risk: Risk
  reason: string
}

/** What says what a click on an element does, besides its name. */
interface RiskHints {
  /** A toggle (a pressed or unpressed button): a second click undoes the first, whatever its name says. */
  toggle: boolean
  /** Its description (a `title` where the content names it: `<button title="Delete">×</button>`), or its tooltip's words. */
  description?: string
  /** Its id, class names, name and the names pages give it for their own code (NAMING_ATTRIBUTES), its icon, and the class names and icons of what it holds two levels down, controls aside (DomFacts.heldMarkup). */
  markup: string[]
}

function riskHintsOf(node: AxNode, dom: DomFacts | undefined): RiskHints {
  const markup = [dom?.attributes.get('id'), dom?.attributes.get('class'), ...NAMING_ATTRIBUTES.map((name) => dom?.attributes.get(name)), dom?.attributes.get('name'), dom?.icon, ...(dom?.heldMarkup ?? [])].filter((value): value is string => value !== undefined && value !== '')
  // A title where the content names the element (the tree's description), or a tooltip's words kept elsewhere.
  const said = [node.description?.value, ...TOOLTIP_ATTRIBUTES.map((name) => dom?.attributes.get(name))].filter((value): value is string => typeof value === 'string' && value.trim() !== '')
  return { toggle: property(node, 'pressed') !== undefined, markup, ...(said.length === 0 ? {} : { description: said.join(' · ') }) }
}

function clickRiskOf(node: UiNode, role: string, dom: DomFacts | undefined, doc: CapturedDocument, walk: Walk, inherited: Inherited, hints: RiskHints): RiskWhy | undefined {
  // A page's own annotation may raise what the heuristics say, never lower it.
  const inferred = inferredClickRisk(node, role, dom, doc, walk, inherited, hints)
  const declared = declaredRisk(dom)
  if (declared === undefined || (inferred !== undefined && maxRisk(inferred.risk, declared) === inferred.risk)) return inferred
  return { risk: declared, reason: `the page marks it ${declared} (data-agent-risk)` }
}

/** The box of a combobox among a node's own children, where it is drawn. */
function comboboxBoxAmong(node: AxNode, byId: Map<string, AxNode>, doc: CapturedDocument): Bounds | undefined {
  for (const childId of node.childIds ?? []) {
    const child = byId.get(childId)
    if (child === undefined || child.ignored || child.role?.value !== 'combobox' || child.backendDOMNodeId === undefined) continue
    const box = doc.dom.get(child.backendDOMNodeId)?.bounds
    if (box !== undefined && box.width > 0 && box.height > 0) return box
  }
  return undefined
}

/** Whether a box is drawn wholly inside another. */
function drawnInside(box: Bounds | undefined, outer: Bounds | undefined): boolean {
  if (box === undefined || outer === undefined || box.width <= 0 || box.height <= 0) return false
  return box.x >= outer.x && box.y >= outer.y && box.x + box.width <= outer.x + outer.width && box.y + box.height <= outer.y + outer.height
}

function inferredClickRisk(node: UiNode, role: string, dom: DomFacts | undefined, doc: CapturedDocument, walk: Walk, inherited: Inherited, hints: RiskHints): RiskWhy | undefined {
  const label = node.name ?? (typeof node.value === 'string' ? node.value : undefined)
  if ((role === 'button' || role === 'link' || role === 'menuitem' || role === 'generic' || role === 'option') && !hints.toggle) {
    // A button in a field's box edits the field's value (a tag's "×"), whatever it says.
    const editsField = role === 'button' && (inherited.inCombobox === true || drawnInside(dom?.bounds, inherited.comboboxBox))
    // A link named for a folder ("Trash (3)") opens it: its name is a place, not a verb. A label's words name a field or a
    // thing (a todo "Buy milk" a double click edits), never what a click on it does.
    // A link to a section of its own page ("agent.destroy()" in a table of contents) only moves the view: its words name the section.
    // A link to another page of its site does what its address says: "Drop" to `trait.Drop.html` is a page to read.
    // A disclosure (a `<summary>`, a control with an expanded state) shows or hides what it holds, whatever it is named.
    const href = dom?.attributes.get('href')
    const readsAPlace = role === 'link' && (namesAPlace(label) || movesWithinPage(href, doc, walk) || (opensAPage(href, dom, doc) && addressWord(href as string, doc) === null))
    const discloses = dom?.tag === 'summary' || node.states?.expanded !== undefined
    const word = readsAPlace || discloses || dom?.tag === 'label' ? null : consequentialWord(label)
    if (word !== null && !editsField) return { risk: 'destructive', reason: `its name says "${word}"` }
    // An icon or a letter for a name ("×", "🗑"): what its title and its markup say.
    if (saysLittle(label) && !editsField) {
      const described = consequentialWord(hints.description)
      if (described !== null) return { risk: 'destructive', reason: `its description says "${described}"` }
      const marked = markupWord(hints.markup)
      if (marked !== null) return { risk: 'destructive', reason: `its markup says "${marked}"` }
    }
    // A confirmation inside a dialog or a form that says what it does: "OK" under "Delete account?"; its "Cancel" is the way out.
    const dialogWord = consequentialWord(inherited.dialogName)
    const formWord = consequentialWord(inherited.formName)
    const saidBy = dialogWord !== null ? inherited.dialogName : formWord !== null ? inherited.formName : undefined
    if ((role === 'button' || role === 'menuitem') && saidBy !== undefined && !isDismissive(label, saidBy)) {
      return { risk: 'destructive', reason: `its ${dialogWord !== null ? 'dialog' : 'form'} says "${dialogWord ?? formWord}"` }
    }
  }
  if (role === 'link') {
    const origin = originOf(dom?.attributes.get('href'), doc.url)
    if (origin !== null && walk.pageOrigin !== null && origin !== walk.pageOrigin) return { risk: 'external', reason: `it leads to ${origin}` }
  }
  const type = dom?.attributes.get('type')?.toLowerCase()
  const submits = (dom?.tag === 'button' && (type === undefined || type === 'submit')) || (dom?.tag === 'input' && (type === 'submit' || type === 'image'))
  if (submits) {
    const formAction = dom?.attributes.get('formaction')
    if (formAction !== undefined && formAction !== '') {
      const origin = originOf(formAction, doc.url)
      if (origin !== null && origin !== walk.pageOrigin) return { risk: 'external', reason: `it sends its form to ${origin}` }
    }
    if (inherited.formRisk !== undefined) return { risk: inherited.formRisk, reason: 'it sends a form that posts to another origin' }
  }
  return undefined
}
