import { agentPattern, byLineWords } from './find-pattern.js'
import { pageFence } from './page-fence.js'
import { rolesOf } from './role-plural.js'
import { type Bounds, type Frame, type Layout, RefTable, type Risk, SELECTOR_HINT, TesseraError, type TextExcerpt, type UiNode, type UnreadRequest, cutWhole, frameIndex, maxRisk } from '@tessera/protocol'

export interface PageOutlineOptions {
  /** Show this element's whole subtree (an @ref the outline printed), not the viewport. */
  expand?: string | undefined
  /** With `expand`: skip this many of its children (paging through a long list). */
  offset?: number | undefined
  /** Only the elements whose role, name, value or text contains this (any case), from the whole page: one call reaches any of them. */
  find?: string | undefined
  /** Only the elements whose role, name, value or text a regular expression matches (`error`, or `/error/i` with flags; see agentPattern), from the whole page. */
  findPattern?: string | undefined
  /** Each element an agent acts on says where it is drawn: `[box=x,y,width,height]`, from the viewport's corner, in CSS pixels. */
  boxes?: boolean | undefined
}

/** How many matches a find lists. */
const MAX_FOUND = 50

/** Siblings of one role from this many on are a repeated structure: a few samples and a count. */
const REPEAT_MIN = 10
/** Choices (menu items, options, tabs, a settings page's checkboxes) are what an agent looks for by name: summed up only when there are very many. */
const CHOICE_REPEAT_MIN = 30
const CHOICES = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'radio', 'checkbox', 'switch', 'treeitem'])
const SAMPLES = 4
/**
 * An expansion prints at most this many lines (fold notes aside); what does not fit is paged by
 * offset. The viewport view cuts what it folds into pieces of this size, so that every element
 * it folds is shown by one expansion of one of its fold lines.
 */
const EXPAND_LINES = 250
/** The viewport view prints at most this many fold lines; past them, the rest of a fold is paged. */
const MAX_FOLD_NOTES = 60
/** A fold line names where it starts (its first heading, else its first words) in this many characters. */
const LABEL_CHARS = 48
/** A repeated run lists at most this many offsets to page through it by. */
const MAX_PAGE_OFFSETS = 20
/** An outline never prints more node lines than this; the rest is folded with a way in. */
const MAX_LINES = 400
/** A run of siblings a surface reads as one (see UnreadPart): it prints no line of its own, only what it holds. */
const PART = 'part'
/** Children packed onto their parent's line when they are this few leaves. */
const PACK_MAX = 6
/** Roles that hold running text, whose texts and links print as one line (see sentenceOf). */
const RUNNING_TEXT = new Set(['paragraph', 'generic', 'emphasis', 'strong'])
/** A packed line (an element and its leaves, a sentence with links) stays at most this long. */
const PACKED_LINE_CHARS = 200
/** A text prints at most this many characters; cut, it is followed by the ref of the element that holds it. */
const TEXT_CHARS = 120
/** Expanded, an element prints its own texts whole, up to this many characters each (a page of code: about 4,000 tokens); a surface keeps texts this long. */
export const WHOLE_TEXT_CHARS = 16_000
/** A cut text's element prints it whole on expansion when it holds at most this many nodes; in a bigger one (a page's body, a section of a manual) the text's own ref does. */
const HOLDER_MAX_NODES = 40
/** A found text too long for its line shows the words around the match, starting this many characters before it. */
const FOUND_LEAD_CHARS = 40

/** Roles that are only structure when they have no name: their children take their place. */
const STRUCTURE = new Set(['generic', 'group', 'list', 'listitem', 'paragraph', 'section', 'region', 'article', 'cell', 'gridcell', 'rowgroup', 'table', 'grid', 'document', 'iframe', 'blockquote', 'figure', 'note', 'directory', 'Pre', 'definition', 'term', 'DescriptionList', 'DescriptionListTerm', 'DescriptionListDetail', 'LayoutTable', 'LayoutTableRow', 'LayoutTableCell', 'caption', 'legend', 'status', 'log', 'tabpanel', 'complementary', 'contentinfo', 'banner', 'main', 'navigation', 'search', 'form', 'menu', 'menubar', 'toolbar', 'tablist', 'tree', 'listbox', 'row', 'columnheader', 'rowheader', 'label', 'Details', 'details', 'strong', 'emphasis'])
/** Structure that keeps its line when named: it tells the agent where it is. */
const LANDMARKS = new Set(['navigation', 'main', 'banner', 'contentinfo', 'complementary', 'search', 'form', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar', 'tablist', 'tree', 'listbox', 'table', 'grid', 'region', 'group', 'tabpanel', 'figure', 'iframe'])
/** Elements whose children are summed up by their value (a native select's options). */
const OWNS_OPTIONS = new Set(['combobox'])
/** What of a closed combobox its value sums up: its popup and options. What else it holds to act on (a tag's remove button, a search field) keeps its line. */
const POPUP_ROLES = new Set(['listbox', 'option', 'menu', 'menuitem', 'menuitemradio', 'tree', 'treeitem', 'grid', 'group'])
/** Lists of things whose line (with a ref) helps an agent page through them. */
const CONTAINERS = new Set(['list', 'table', 'grid', 'menu', 'listbox', 'tree', 'tablist', 'rowgroup', 'feed'])

interface NodeActions {
  risk: Risk
  enabled: boolean
}

interface Item {
  node: UiNode
  ref: string | undefined
  children: Item[]
  actions: NodeActions | undefined
  /** The item and its children on one line, when they are a few leaves (see `packs`). */
  packed: string | undefined
  /** Lines and actions of the item and everything under it, as an expansion prints them: folds are cut by these. */
  lines: number
  actionCount: number
  /** Whether any part of it is inside the viewport (unknown geometry counts as inside). */
  inView: boolean
  /** Where its first laid-out part is, relative to the viewport: above, inside or below. */
  side: 'above' | 'in' | 'below'
  /** Whether anything of it has a box: a text alone has none and goes where its neighbours are. */
  placed: boolean
  /** The node it was a child of: texts of one element read as one, texts of two stay apart. */
  parent: string | undefined
  /** The name it prints: what its children do not say of it (a heading holding a link of the same name prints none), see nameBeyond. */
  name: string | undefined
  /** Its lines and actions are estimates: it is, or holds, a part the surface has not read yet. */
  estimated: boolean
  /** Of a text: the ref whose expansion prints it whole (its element's, or its own in a big one), and how much of it prints here. */
  holder?: { ref: string | undefined; chars: number }
  /** Where it is drawn, as its line says it when boxes are asked for. */
  box?: string
  /** The element an expansion shows: its name and value print whole (a field's text read back). */
  whole?: true
}

interface Context {
  frame: Frame
  refs: RefTable
  actions: Map<string, NodeActions>
  viewport: Bounds | undefined
  out: string[]
  budget: number
  /** Fold lines the viewport view may still print. */
  folds: number
  /** The element an expansion shows: its own texts print whole. */
  whole: string | undefined
  /** Nodes under an element, counted up to HOLDER_MAX_NODES + 1 (holderOf). */
  sizes: Map<string, number>
  boxes: boolean
  /** The dialogs being built around the node being built, innermost last: each says its title once, on its own line. */
  titles: Array<{ name: string; said: boolean }>
}

/**
 * A dialog as the hub speaks of it, outside a page's fence: by its kind alone (`an alert
 * dialog`). Its message is the page's words, which the page's alertdialog line says inside.
 */
export function aDialog(type: string): string {
  return `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type} dialog`
}

/** The page's last line while a dialog is open: which kind, and the tool that answers it. */
export function dialogOpenLine(type: string): string {
  return `${aDialog(type)} is open — answer with browser_handle_dialog`
}

/** Roles whose name is their title, printed on their line: the title's own text inside them says it again. */
const TITLED = new Set(['dialog', 'alertdialog'])

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** A field's text as `quote` says it, its line breaks kept (escaped, and blank lines dropped): two lines are not one line with a space. */
function quoteLines(text: string, chars = TEXT_CHARS): string {
  const lined = text.split(/\r\n?|\n/).map(squeeze).filter((line) => line !== '').join('\n')
  return JSON.stringify(lined.length > chars ? `${cutWhole(lined, chars - 1)}…` : lined)
}

function quote(text: string, chars = TEXT_CHARS): string {
  const one = squeeze(text)
  return JSON.stringify(one.length > chars ? `${cutWhole(one, chars - 1)}…` : one)
}

/** A text cut to `chars`: its start, or, when `around` (lower case) is found past that, the words around it. */
function excerpt(one: string, chars: number, around: string | undefined): string {
  const at = around === undefined ? -1 : one.toLowerCase().indexOf(around)
  if (at < 0 || at + (around?.length ?? 0) < chars) return `${cutWhole(one, chars - 1)}…`
  // Some words before the match (near the end, the whole end), from a word's start when one starts before the match.
  const from = Math.max(1, Math.min(at - FOUND_LEAD_CHARS, one.length - (chars - 1)))
  const space = one.indexOf(' ', from - 1)
  const start = space >= 0 && space < at ? space + 1 : from
  return one.length - start <= chars - 1 ? `…${one.slice(start)}` : `…${one.slice(start, start + chars - 2)}…`
}

/** What a find looks for: some words in any case, or an agent's regular expression. */
interface Finder {
  says(text: string): boolean
  /** The words a text is cut around to show the match (lower case), where it matches. */
  around(text: string): string | undefined
  /** How an answer that found nothing ends: `nothing on the page …`. */
  nothing: string
}

/** The texts a frame's `state.found` says `find` matched whole, where it says so for that find. */
function foundTexts(frame: Frame, find: string): Set<string> {
  const found = (frame.state as { found?: { find?: unknown; texts?: unknown } }).found
  if (found?.find !== find || !Array.isArray(found.texts)) return new Set()
  return new Set(found.texts.filter((id): id is string => typeof id === 'string'))
}

function finderOf(options: PageOutlineOptions): Finder | undefined {
  if (options.findPattern !== undefined) {
    const pattern = agentPattern(options.findPattern, 'regex').byLines()
    return { says: (text) => pattern.test(text), around: (text) => pattern.firstMatch(text)?.text.toLowerCase(), nothing: `matches ${quote(options.findPattern)}` }
  }
  if (options.find === undefined) return undefined
  const wanted = squeeze(options.find).toLowerCase()
  if (wanted === '') throw new TesseraError('invalid_input', 'expected "find" to hold some words to look for, found none', { expected: 'words', found: options.find })
  return { says: (text) => text.toLowerCase().includes(wanted), around: () => wanted, nothing: `says ${quote(options.find)}` }
}

/** Where a window of a long text read whole lies in it, and the offset that reads on from its last line (whole or cut). */
function windowSaid(part: TextExcerpt, text: string): string {
  const last = part.line + (text.match(/\n/g)?.length ?? 0)
  if (last >= part.lines) return part.line === part.lines ? ` (line ${part.line} of ${part.lines})` : ` (lines ${part.line}–${part.lines} of ${part.lines})`
  return ` (lines ${part.line}–${last} of ${part.lines}; offset ${last} reads on)`
}

/**
 * A text as its line prints it and a find searches it: a block of code keeps its line breaks
 * (JSON escapes them: still one line of the outline), so a pattern's `^` and `$` mark its
 * lines' ends, and its first line's indent: a window read from a line inside a block starts
 * there. Any other text is its words.
 */
function textSaid(node: UiNode): string {
  return node.role === 'code' ? (node.text ?? '').replace(/^\s*\n/, '').trimEnd() : squeeze(node.text ?? '')
}

/** A text's line: quoted, cut to its length (around the words a find asked for) and then followed by its holder's ref. */
function textLine(item: Item, around?: string): string {
  const one = textSaid(item.node)
  const chars = item.holder?.chars ?? TEXT_CHARS
  // A window of a longer text says where it is in it, and always how to read on.
  const part = item.node.excerpt
  const where = part === undefined ? '' : chars === WHOLE_TEXT_CHARS ? windowSaid(part, one) : ` (line ${part.line} of ${part.lines})`
  if (one.length <= chars && around === undefined && part === undefined) return JSON.stringify(one)
  const shown = one.length <= chars ? one : excerpt(one, chars, around)
  return `${JSON.stringify(shown)}${item.holder?.ref === undefined ? '' : ` @${item.holder.ref}`}${where}`
}

function actionsByNode(frame: Frame): Map<string, NodeActions> {
  const byId = new Map(frame.contracts.map((c) => [c.id, c.risk]))
  const out = new Map<string, NodeActions>()
  for (const target of frame.targets) {
    if (target.nodeId === undefined) continue
    // Only a click speaks for the element's risk: hovering a "Delete" button deletes nothing.
    const risk = target.contract === 'click' ? maxRisk(target.risk ?? 'read', byId.get('click')) : 'read'
    const known = out.get(target.nodeId)
    out.set(target.nodeId, { risk: maxRisk(known?.risk ?? 'read', risk), enabled: (known?.enabled ?? false) || target.enabled })
  }
  return out
}

function sideOf(bounds: Bounds | undefined, viewport: Bounds | undefined): Item['side'] | undefined {
  if (bounds === undefined || viewport === undefined) return undefined
  if (bounds.width === 0 && bounds.height === 0) return undefined
  if (bounds.y + bounds.height <= viewport.y) return 'above'
  if (bounds.y >= viewport.y + viewport.height) return 'below'
  if (bounds.x + bounds.width <= viewport.x || bounds.x >= viewport.x + viewport.width) return 'below'
  return 'in'
}

/** A node kept as its own line, or undefined when it is only structure. */
function meaningful(node: UiNode, actions: NodeActions | undefined): boolean {
  if (node.kind === 'text') return true
  if (actions !== undefined) return true
  const role = node.role ?? 'generic'
  // What is inside is another document, maybe another site's: said, named or not.
  if (role === 'iframe') return true
  if (node.name !== undefined && (LANDMARKS.has(role) || !STRUCTURE.has(role))) return true
  if (!STRUCTURE.has(role)) return role !== 'none' && role !== 'img'
  return false
}

/** A part not read yet: one item that counts what the surface estimates it holds. */
function unreadItem(node: UiNode, ctx: Context, parent: string | undefined): Item {
  const side = sideOf(ctx.frame.layout[node.id], ctx.viewport)
  const unread = node.unread ?? { lines: 1, actions: 0 }
  const item: Item = { node, ref: ctx.refs.refOf(node.id), children: [], actions: ctx.actions.get(node.id), packed: undefined, lines: Math.max(1, unread.lines), actionCount: unread.actions, inView: side === undefined || side === 'in', side: side ?? 'below', placed: side !== undefined, parent, name: node.name, estimated: true }
  return item
}

function build(node: UiNode, ctx: Context, rowOfList = false, parent?: string): Item[] {
  if (node.unread !== undefined) return [unreadItem(node, ctx, parent)]
  if (repeatsTitle(node, ctx)) return []
  const titled = TITLED.has(node.role ?? '') && node.name !== undefined && squeeze(node.name) !== ''
  if (titled) ctx.titles.push({ name: squeeze(node.name as string), said: false })
  try {
    return buildNode(node, ctx, rowOfList, parent)
  } finally {
    if (titled) ctx.titles.pop()
  }
}

/**
 * Whether a node is the first text (or a heading of only text) in a dialog that says the
 * dialog's name word for word: its title, which the dialog's line already prints
 * (`dialog "Empty the recycle bin?"` over a title bar that says it again). Said once.
 */
function repeatsTitle(node: UiNode, ctx: Context): boolean {
  const title = ctx.titles[ctx.titles.length - 1]
  if (title === undefined || title.said || ctx.actions.has(node.id)) return false
  const leafText = node.kind === 'text' && (node.children ?? []).length === 0 ? node.text : undefined
  const plainHeading = node.role === 'heading' && (node.children ?? []).every((child) => child.kind === 'text' && (child.children ?? []).length === 0) ? node.name : undefined
  const words = leafText ?? plainHeading
  if (words === undefined || squeeze(words) !== title.name) return false
  title.said = true
  return true
}

function buildNode(node: UiNode, ctx: Context, rowOfList: boolean, parent: string | undefined): Item[] {
  const actions = ctx.actions.get(node.id)
  const own = ctx.frame.layout[node.id]
  // A part groups siblings by size, not by kind: it is no list itself, and its rows are its parent's.
  const part = node.role === PART
  const repeated = !part && isRepeatedList(node)
  const kids: Item[] = []
  // The rows of a long list stay rows (one line each, packed), so they can be counted and paged.
  const holdsRows = part ? rowOfList : repeated || CONTAINERS.has(node.role ?? '')
  for (const child of node.children ?? []) for (const item of build(child, ctx, holdsRows, node.id)) kids.push(item)
  // A live region or an alert with nothing in it yet says nothing.
  const empty = node.kind !== 'text' && node.name === undefined && node.value === undefined && kids.length === 0 && actions === undefined
  // A row of a list that holds several things (a checkbox, a label, a delete button) stays one line, so they read together.
  const row = rowOfList && !part && node.kind !== 'text' && kids.length >= 2
  // A part of a huge page stays one item, read or not, so the offsets of folds around it hold.
  const keep = part || (!empty && (meaningful(node, actions) || repeated || row))
  // Texts and pictures that only repeat what the element's name or value already says are not said twice (a logo link's image).
  if (keep && node.kind !== 'text' && (node.name !== undefined || node.value !== undefined)) {
    const said = squeeze(`${node.name ?? ''} ${typeof node.value === 'string' ? node.value : ''}`)
    // A name the surface cut (a long option's) is the start of the text it was made of.
    const cutName = node.name?.endsWith('…') === true ? squeeze(node.name.slice(0, -1)) : undefined
    for (let k = kids.length - 1; k >= 0; k--) {
      const kid = kids[k] as Item
      if (kid.children.length > 0) continue
      const kidText = squeeze(kid.node.text ?? '')
      const repeatsText = kid.node.kind === 'text' && (said.includes(kidText) || (cutName !== undefined && cutName.length > 0 && kidText.startsWith(cutName)))
      const repeatsPicture = kid.node.role === 'img' && kid.actions === undefined && kid.node.name !== undefined && said.includes(kid.node.name.trim())
      if (repeatsText || repeatsPicture) kids.splice(k, 1)
    }
  }
  mergeTexts(kids, ctx.frame.layout)
  // Where it is: its own box, else where its laid-out parts are; unknown when none is.
  const known = kids.filter((kid) => kid.placed)
  const ownSide = sideOf(own, ctx.viewport)
  const side = ownSide ?? known.find((kid) => kid.side === 'in')?.side ?? known[0]?.side ?? 'in'
  const placed = ownSide !== undefined || known.length > 0
  if (!keep) {
    // A sentence with links in it reads as one line: "Created by" link "Oscar Godson" @150.
    const sentence = sentenceOf(node, kids)
    if (sentence === undefined) return kids
    const inView = placed ? side === 'in' || known.some((kid) => kid.inView) : true
    const actionCount = kids.reduce((sum, kid) => sum + kid.actionCount, 0)
    return [{ node, ref: undefined, children: kids, actions: undefined, packed: sentence, lines: 1, actionCount, inView, side, placed, parent, name: undefined, estimated: false }]
  }
  const item: Item = {
    node,
    ref: actions !== undefined || repeated || (node.children?.length ?? 0) > 0 ? ctx.refs.refOf(node.id) : undefined,
    // A closed list box shows its value; open, its options (a custom one owns its popup).
    children: OWNS_OPTIONS.has(node.role ?? '') && node.states?.expanded !== true ? kids.filter((kid) => ownControl(kid, node)) : kids,
    actions,
    packed: undefined,
    lines: 1,
    actionCount: actions === undefined ? 0 : 1,
    inView: placed ? side === 'in' || known.some((kid) => kid.inView) : true,
    side,
    placed,
    parent,
    name: actions === undefined ? nameBeyond(node.name, kids) : node.name,
    estimated: kids.some((kid) => kid.estimated),
    ...(node.kind === 'text' ? { holder: holderOf(node.id, parent, ctx) } : {}),
    ...(ctx.boxes && actions !== undefined && own !== undefined ? { box: boxWords(own, ctx.viewport) } : {}),
    ...(node.id === ctx.whole ? { whole: true as const } : {}),
  }
  // A row of a few leaves prints as one line.
  item.packed = packedLine(item)
  for (const kid of item.children) {
    if (item.packed === undefined) item.lines += kid.lines
    item.actionCount += kid.actionCount
  }
  return [item]
}

/**
 * Of a text under `parent`: the ref to expand to read it whole, and how much of it prints (all
 * of it when that is the expansion). Its element's ref, which reads it with the links and
 * words around it, unless that element is big: then the text's own.
 */
function holderOf(id: string, parent: string | undefined, ctx: Context): { ref: string | undefined; chars: number } {
  const holder = parent ?? ctx.frame.tree.id
  const small = holder !== ctx.frame.tree.id && sizeOf(holder, ctx) <= HOLDER_MAX_NODES
  return { ref: ctx.refs.refOf(small ? holder : id), chars: holder === ctx.whole || id === ctx.whole ? WHOLE_TEXT_CHARS : TEXT_CHARS }
}

/** Whether a closed combobox's child keeps its line: something to act on that is not its popup, nor a read-only box showing what the combobox says already (Select2's). */
function ownControl(kid: Item, combobox: UiNode): boolean {
  if (kid.actionCount === 0 || POPUP_ROLES.has(kid.node.role ?? '')) return false
  if (kid.node.states?.readonly !== true) return true
  const said = squeeze(`${combobox.name ?? ''} ${typeof combobox.value === 'string' ? combobox.value : ''}`)
  const shows = squeeze(`${kid.node.name ?? ''} ${typeof kid.node.value === 'string' ? kid.node.value : ''}`)
  return !said.includes(shows)
}

/** The nodes under an element, counted no further than HOLDER_MAX_NODES + 1. */
function sizeOf(id: string, ctx: Context): number {
  const known = ctx.sizes.get(id)
  if (known !== undefined) return known
  let count = 0
  const stack: UiNode[] = []
  const push = (nodes: readonly UiNode[] | undefined): void => {
    for (const node of nodes ?? []) {
      if (stack.length > HOLDER_MAX_NODES) return
      stack.push(node)
    }
  }
  push(frameIndex(ctx.frame).nodes.get(id)?.children)
  while (stack.length > 0 && count <= HOLDER_MAX_NODES) {
    const node = stack.pop() as UiNode
    count++
    if (node.unread !== undefined) count += node.unread.lines
    push(node.children)
  }
  ctx.sizes.set(id, count)
  return count
}

/**
 * What of `name` the elements in it do not say (texts that repeat the name are gone already):
 * a name made of its content ends with their names, and they say that part on the same line
 * or the lines below. A heading "People Collapse Add Person" holding those two buttons is
 * "People"; undefined when they say all of it.
 */
function nameBeyond(name: string | undefined, kids: readonly Item[]): string | undefined {
  if (name === undefined || kids.length === 0 || kids.some((kid) => kid.node.kind === 'text' || kid.node.name === undefined)) return name
  const said = squeeze(kids.map((kid) => kid.node.name ?? '').join(' '))
  const whole = squeeze(name)
  if (whole === said) return undefined
  return said !== '' && whole.endsWith(` ${said}`) ? whole.slice(0, -said.length - 1) : name
}

/**
 * The texts of a paragraph (or an element without a role) and the links between them, on one
 * line as a person reads them, while it stays short; undefined unless they are such a run:
 * its own children only, each a text or a link, at least one of each.
 */
function sentenceOf(node: UiNode, kids: readonly Item[]): string | undefined {
  if (!RUNNING_TEXT.has(node.role ?? 'generic') || kids.length < 2) return undefined
  const own = (kid: Item): boolean => kid.parent === node.id && kid.children.length === 0 && kid.node.unread === undefined
  if (!kids.every(own) || !isSentence(kids)) return undefined
  const line = kids.map(inline).join(' ')
  return line.length <= PACKED_LINE_CHARS ? line : undefined
}

/** A list, table or menu whose children repeat one role: kept as a line so its rows can be counted and paged. */
function isRepeatedList(node: UiNode): boolean {
  const children = node.children ?? []
  if (children.length < REPEAT_MIN && !(children.length >= SAMPLES && node.role !== undefined && CONTAINERS.has(node.role))) return false
  const counts = new Map<string, number>()
  // Texts are no rows: a paragraph of ten runs of text (words between code spans) is one text.
  for (const child of children) if (child.kind !== 'text') counts.set(child.role ?? child.kind, (counts.get(child.role ?? child.kind) ?? 0) + 1)
  return Math.max(0, ...counts.values()) >= REPEAT_MIN
}

/** The inline form of a leaf item: `role "name": value @ref (states) !risk`, or a quoted text. */
function inline(item: Item): string {
  const node = item.node
  if (node.kind === 'text') return textLine(item)
  // An element the page listens to without giving it a role.
  const role = node.role === 'generic' || node.role === undefined ? 'clickable' : node.role
  const parts: string[] = [role]
  const chars = item.whole === true ? WHOLE_TEXT_CHARS : TEXT_CHARS
  const name = item.name === undefined ? undefined : quote(item.name, chars)
  if (name !== undefined && name !== '""') parts.push(name)
  // Printed bare, so only in its shape: a frame is not validated when outlined, and a hint must never write the outline's own words.
  else if (typeof node.semantic?.selectorHint === 'string' && SELECTOR_HINT.test(node.semantic.selectorHint)) parts.push(node.semantic.selectorHint)
  // A frame of another site says which (its surface sets `src` to that origin alone).
  if (node.role === 'iframe' && typeof node.src === 'string' && /^https?:\/\/[^\s/]+$/i.test(node.src)) parts.push(`from ${node.src}`)
  let text = parts.join(' ')
  const secret = node.semantic?.sensitive === true
  // A secret field says that it holds something, never what: one left empty prints bare, so a fill shows it took.
  if (secret) text += node.value === undefined ? '' : ': [REDACTED]'
  // A field's text keeps its line breaks (escaped: still one line of the outline); whole, its blank lines too.
  else if (node.value !== undefined && node.value !== null && node.value !== node.name) text += `: ${item.whole === true ? JSON.stringify(cutWhole(String(node.value), WHOLE_TEXT_CHARS)) : quoteLines(String(node.value))}`
  const declared = node.semantic?.data?.action
  if (typeof declared === 'string') text += ` [${declared}]`
  if (item.ref !== undefined && item.actions !== undefined) text += ` @${item.ref}`
  if (item.box !== undefined) text += ` ${item.box}`
  const states = stateWords(node, item.actions)
  if (states.length > 0) text += ` (${states.join(', ')})`
  if (item.actions !== undefined && (item.actions.risk === 'external' || item.actions.risk === 'destructive')) text += ` !${item.actions.risk}`
  return text
}

function stateWords(node: UiNode, actions: NodeActions | undefined): string[] {
  const words: string[] = []
  const s = node.states ?? {}
  if (s.checked === true) words.push('checked')
  if (s.mixed === true) words.push('mixed')
  if (s.selected === true) words.push('selected')
  if (s.pressed === true) words.push('pressed')
  if (s.expanded === true) words.push('expanded')
  if (s.expanded === false) words.push('collapsed')
  if (s.focused === true) words.push('focused')
  if (s.active === true) words.push('active')
  if (s.sortedAscending === true) words.push('sorted ascending')
  if (s.sortedDescending === true) words.push('sorted descending')
  if (s.required === true) words.push('required')
  if (s.invalid === true) words.push('invalid')
  if (s.readonly === true) words.push('readonly')
  if (s.modal === true) words.push('modal')
  if (s.ariaHidden === true) words.push('aria-hidden')
  if (s.disabled === true || (actions !== undefined && !actions.enabled)) words.push('disabled')
  return words
}

/**
 * Adjacent texts read as one: "Hello" "world" → "Hello world"; a label's text beside the field
 * it names is dropped, and so is a number a range shows after itself (its output, its tooltip)
 * that says its value again. In place.
 */
function mergeTexts(items: Item[], layout: Layout): Item[] {
  const out: Item[] = []
  // Where the last text run into out's last item is drawn: the next one runs on from there, or starts a block of its own.
  let tail: Bounds | undefined
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Item
    if (item.node.kind === 'text' && item.children.length === 0) {
      const text = (item.node.text ?? '').trim()
      if (namedBy(items[i + 1], text) || namedBy(items[i - 1], text) || echoes(items[i - 1], text)) continue
    }
    const last = out[out.length - 1]
    const box = layout[item.node.id]
    if (isProse(item) && last !== undefined && isProse(last) && last.children.length === 0 && last.parent === item.parent && !stacked(tail, box)) {
      // Texts the page draws as one word (`<b>bold</b>text`) stay one; else a space, as between the lines of a paragraph.
      const text = `${last.node.text ?? ''}${item.node.glued === true ? '' : ' '}${item.node.text ?? ''}`
      // In view where any of its texts is: a paragraph scrolled half out still shows.
      out[out.length - 1] = { ...last, node: { ...last.node, text }, inView: last.inView || item.inView, side: last.inView || !item.inView ? last.side : item.side }
      tail = box ?? tail
    } else {
      out.push(item)
      tail = box
    }
  }
  items.splice(0, items.length, ...out)
  return items
}

/**
 * Whether a text starts a block of its own under the one before it: it begins at or below that
 * one's bottom, at the same left edge — rows of a list made of `div`s, whose texts the
 * accessibility tree hangs side by side under one parent — not a sentence that runs on into
 * its next line, which starts at the line's left edge, not where the text before it began.
 */
function stacked(above: Bounds | undefined, below: Bounds | undefined): boolean {
  if (above === undefined || below === undefined || above.height === 0 || below.height === 0) return false
  return below.y >= above.y + above.height - 1 && Math.abs(below.x - above.x) <= 1
}

/** A text that runs on into its neighbours; a block of code (role `code`) is a line of its own. */
function isProse(item: Item): boolean {
  return item.node.kind === 'text' && item.node.role !== 'code'
}

/** Whether this item, or the field an unnamed clickable wrapper of it starts with (a spinner's box), bears `text` as its name. */
function namedBy(item: Item | undefined, text: string): boolean {
  for (let depth = 0; item !== undefined && item.node.kind !== 'text' && depth < 3; depth++) {
    if (item.node.name !== undefined) return item.node.name.trim() === text
    if (item.actions === undefined) return false
    item = item.children[0]
  }
  return false
}

/** Roles whose value a page often shows again beside them, as a plain number. */
const ECHOED_VALUES = new Set(['slider', 'spinbutton', 'progressbar', 'meter'])

/** Whether this item is such a control, whose value `text` says again. */
function echoes(item: Item | undefined, text: string): boolean {
  const value = item?.node.value
  return item !== undefined && ECHOED_VALUES.has(item.node.role ?? '') && typeof value === 'string' && value.trim() === text && text !== ''
}

function emit(line: string, depth: number, ctx: Context): boolean {
  if (ctx.budget <= 0) return false
  ctx.out.push('  '.repeat(depth) + line)
  ctx.budget -= 1
  return true
}

/** A line that says where the rest is: printed past the budget, which counts the page's own lines. */
function note(line: string, depth: number, ctx: Context): void {
  ctx.out.push('  '.repeat(depth) + line)
}

function foldNote(items: readonly Item[], parentRef: string | undefined, offset: number, where: string, label?: string): string {
  const lines = items.reduce((n, item) => n + item.lines, 0)
  const actions = items.reduce((n, item) => n + item.actionCount, 0)
  const from = label === undefined ? '' : `, from ${quote(label.length > LABEL_CHARS ? `${cutWhole(label, LABEL_CHARS - 1)}…` : label)}`
  const into = parentRef === undefined ? '' : `: expand "@${parentRef}"${offset > 0 ? ` offset ${offset}` : ''}`
  const about = items.some((item) => item.estimated) ? 'about ' : ''
  return `… ${about}${lines} line${lines === 1 ? '' : 's'}${actions > 0 ? `, ${actions} action${actions === 1 ? '' : 's'}` : ''} ${where}${from}${into}`
}

/** Where a fold says it starts: its first heading, else the first words in it. */
function labelOf(items: readonly Item[]): string | undefined {
  let first: string | undefined
  const visit = (list: readonly Item[]): string | undefined => {
    for (const item of list) {
      if (item.node.unread !== undefined) {
        if (item.node.unread.heading !== undefined) return item.node.unread.heading
        first ??= item.node.unread.words
        continue
      }
      if (item.node.role === 'heading' && item.node.name !== undefined) return item.node.name
      first ??= item.node.kind === 'text' ? item.node.text : item.node.name
      const found = visit(item.children)
      if (found !== undefined) return found
    }
    return undefined
  }
  const label = visit(items) ?? first
  return label === undefined ? undefined : squeeze(label) || undefined
}

/**
 * The end of the page of `list` an expansion from `start` prints in `room` lines: the first
 * item always (it prints in part when it is bigger), then every next one that fits whole.
 */
function pageEnd(list: readonly Item[], start: number, end: number, room: number): number {
  let used = 0
  let k = start
  while (k < end && (k === start || used + (list[k] as Item).lines <= room)) used += (list[k++] as Item).lines
  return k
}

/** Where a fold below the viewport says it is. */
const BELOW = 'below the view'

/** The lines an expansion of an element has for its children (its own line takes one). */
const EXPANSION_ROOM = EXPAND_LINES - 1

/** Whether an item is too big for one expansion, and keeps its line with its children folded under it. */
function foldsInside(item: Item): boolean {
  return item.lines > EXPANSION_ROOM && item.ref !== undefined && item.children.length > 0
}

/**
 * Where the folds of `list[start..end)` (no item in it folding inside) begin: parts filled
 * from the end of the siblings for a run below the view that ends them, else from the run's
 * start. Folds are thus anchored at the far side from the view, so a scroll changes only the
 * fold next to the view: the others keep their words and offsets, and an action's delta does
 * not list them again.
 */
function foldStarts(list: readonly Item[], start: number, end: number, where: string): number[] {
  if (where !== BELOW || end < list.length) {
    const starts: number[] = []
    for (let k = start; k < end; k = pageEnd(list, k, end, EXPANSION_ROOM)) starts.push(k)
    return starts
  }
  const starts: number[] = []
  let k = end
  while (k > start) {
    let used = 0
    let first = k
    while (first > start && (first === k || used + (list[first - 1] as Item).lines <= EXPANSION_ROOM)) used += (list[--first] as Item).lines
    starts.unshift(first)
    k = first
  }
  return starts
}

/**
 * Folds the siblings `list[start..end)`, all outside the viewport, into lines that each say
 * how to expand a part of them, every part small enough for one expansion to show whole: an
 * element too big for one keeps its line and has its children folded under it the same way.
 * Past MAX_FOLD_NOTES the rest is one fold, paged through by offset.
 */
function foldRun(list: readonly Item[], start: number, end: number, depth: number, ctx: Context, parentRef: string | undefined, where: string): boolean {
  let k = start
  while (k < end) {
    const item = list[k] as Item
    if (ctx.folds <= 0 || parentRef === undefined) return emit(foldNote(list.slice(k, end), parentRef, k, where), depth, ctx)
    if (foldsInside(item)) {
      const part = item.node.role === PART
      if ((!part && !emit(inline(item), depth, ctx)) || !foldRun(item.children, 0, item.children.length, part ? depth : depth + 1, ctx, item.ref, where)) return false
      k++
      continue
    }
    let stop = k
    while (stop < end && !foldsInside(list[stop] as Item)) stop++
    const starts = foldStarts(list, k, stop, where)
    const single = (s: number): string => {
      const from = starts[s] as number
      const next = starts[s + 1] ?? stop
      return foldNote(list.slice(from, next), parentRef, from, where, labelOf(list.slice(from, next)))
    }
    for (let s = 0; s < starts.length; s++) {
      const from = starts[s] as number
      if (ctx.folds <= 0) return emit(foldNote(list.slice(from, end), parentRef, from, where), depth, ctx)
      const run = plainPartsFrom(list, starts, s, stop)
      if (run < PLAIN_PARTS_MIN) {
        ctx.folds--
        if (!emit(single(s), depth, ctx)) return false
        continue
      }
      // Below the view the first of them is next to it, and a scroll reveals it first: it keeps its own line; above, the last.
      const alone = where === BELOW ? s : s + run - 1
      const rest = where === BELOW ? [s + 1, s + run] : [s, s + run - 1]
      const lines = where === BELOW ? [single(alone), partsNote(list, starts, rest[0] as number, rest[1] as number, stop, parentRef, where)] : [partsNote(list, starts, rest[0] as number, rest[1] as number, stop, parentRef, where), single(alone)]
      ctx.folds -= 2
      for (const line of lines) if (!emit(line, depth, ctx)) return false
      s += run - 1
    }
    k = stop
  }
  return true
}

/**
 * Folds in a row that hold no heading and nothing read but texts — each one unread part (a
 * feed's cards, a table's rows), or a page of unread siblings and their texts (a block of
 * code's lines, each a link and highlighted tokens) — print as one line from this many.
 */
const PLAIN_PARTS_MIN = 4

/** How many folds from `starts[s]` on are plain (see PLAIN_PARTS_MIN): unread parts with no heading, and texts. */
function plainPartsFrom(list: readonly Item[], starts: readonly number[], s: number, stop: number): number {
  const plain = (item: Item): boolean => item.node.kind === 'text' || (item.node.unread !== undefined && item.node.unread.heading === undefined && item.children.length === 0)
  let run = 0
  for (let t = s; t < starts.length; t++) {
    const fold = list.slice(starts[t] as number, starts[t + 1] ?? stop)
    if (!fold.every(plain) || !fold.some((item) => item.node.unread !== undefined)) break
    run++
  }
  return run
}

/**
 * The folds `starts[first..last)`, each one part, as one line: what they hold in all, the
 * words each of the first and last starts with, and the offsets, any of which one expansion
 * shows whole. Sixty lines of "from "Card 3574"" were 1,500 tokens of every answer on a feed.
 */
function partsNote(list: readonly Item[], starts: readonly number[], first: number, last: number, stop: number, parentRef: string | undefined, where: string): string {
  const foldAt = (s: number): Item[] => list.slice(starts[s] as number, starts[s + 1] ?? stop)
  const items = list.slice(starts[first] as number, starts[last] ?? stop)
  const lines = items.reduce((n, item) => n + item.lines, 0)
  const actions = items.reduce((n, item) => n + item.actionCount, 0)
  const words = (fold: Item[]): string => {
    const label = labelOf(fold)
    return label === undefined ? '…' : quote(label.length > LABEL_CHARS ? `${cutWhole(label, LABEL_CHARS - 1)}…` : label)
  }
  const offsets = starts.slice(first, last)
  const span = `from ${words(foldAt(first))} to ${words(foldAt(last - 1))}`
  // Offsets one apart (a part a child) read as a range, offsets an equal page apart (a part a page of siblings) as a
  // range and its step: 30 offsets said one by one were 150 tokens of every answer on a file of code. Else each is said.
  const step = (offsets[1] ?? 0) - (offsets[0] ?? 0)
  const even = offsets.length > 2 && step > 0 && offsets.every((offset, i) => i === 0 || offset === (offsets[i - 1] as number) + step)
  const at = !even ? offsets.join(', ') : step === 1 ? `${offsets[0]} to ${offsets.at(-1)}` : `${offsets[0]} to ${offsets.at(-1)} in steps of ${step}`
  return `… about ${lines} lines${actions > 0 ? `, ${actions} action${actions === 1 ? '' : 's'}` : ''} ${where} in ${offsets.length} parts, ${span}: expand "@${parentRef ?? ''}" offset ${at}, a part each`
}

/** The offsets at which expansions page through `list[start..end)`, one expansion each (at most MAX_PAGE_OFFSETS). */
function pageOffsets(list: readonly Item[], start: number, end: number): string {
  const offsets: number[] = []
  for (let k = start; k < end && offsets.length < MAX_PAGE_OFFSETS; k = pageEnd(list, k, end, EXPANSION_ROOM)) offsets.push(k)
  return offsets.join(', ')
}

/** The role a run of repeated siblings shares; a text is in no run. */
function runRole(item: Item): string | undefined {
  return item.node.kind === 'text' ? undefined : (item.node.role ?? item.node.kind)
}

/**
 * Where the viewport view's lines for `list` begin parts an agent expands by offset: each
 * fold of siblings out of view, each page of a repeated run's rest, and where each such run
 * ends. An expansion from one of them stops at the next, so a fold line's expansion shows
 * that fold and no more: "… 28 more rows" is 28 rows, not the next folds' too, read twice.
 */
function viewOffsets(list: readonly Item[]): number[] {
  const offsets: number[] = []
  let i = 0
  while (i < list.length) {
    const item = list[i] as Item
    if (!item.inView) {
      let j = i
      while (j < list.length && !(list[j] as Item).inView) j++
      const where = item.side === 'above' ? 'above the view' : BELOW
      for (let k = i; k < j; ) {
        if (foldsInside(list[k] as Item)) {
          offsets.push(k, ++k)
          continue
        }
        let stop = k
        while (stop < j && !foldsInside(list[stop] as Item)) stop++
        offsets.push(...foldStarts(list, k, stop, where))
        k = stop
      }
      offsets.push(j)
      i = j
      continue
    }
    const role = runRole(item)
    let runEnd = i
    while (role !== undefined && runEnd < list.length && runRole(list[runEnd] as Item) === role && (list[runEnd] as Item).inView) runEnd++
    if (role !== undefined && runEnd - i >= (CHOICES.has(role) ? CHOICE_REPEAT_MIN : REPEAT_MIN)) {
      for (let k = i + SAMPLES; k < runEnd; k = pageEnd(list, k, runEnd, EXPANSION_ROOM)) offsets.push(k)
      offsets.push(runEnd)
      i = runEnd
      continue
    }
    i++
  }
  return offsets
}

/** Where an expansion from `start` stops: at the next part the viewport view names when it starts at one of them (see viewOffsets), else at the list's end. */
function partEnd(list: readonly Item[], start: number): number {
  if (start <= 0) return list.length
  const offsets = viewOffsets(list)
  if (!offsets.includes(start)) return list.length
  return offsets.find((offset) => offset > start) ?? list.length
}

/**
 * Prints items under one parent. In the viewport view, runs of siblings wholly outside the
 * viewport fold into lines that say how to expand them (foldRun), and a run of one repeated
 * role shows a few samples and a count with the offsets to page through the rest. In an
 * expansion, items print whole while they fit in its lines; the rest is one line with the
 * offset to page on from.
 */
function emitChildren(list: readonly Item[], depth: number, ctx: Context, parentRef: string | undefined, viewportFirst: boolean, start = 0): void {
  let i = start
  const end = viewportFirst ? list.length : partEnd(list, start)
  while (i < list.length) {
    const item = list[i] as Item
    if (viewportFirst && !item.inView) {
      let j = i
      while (j < list.length && !(list[j] as Item).inView) j++
      const where = item.side === 'above' ? 'above the view' : BELOW
      if (j - i === 1 && item.lines <= 2) emitItem(item, depth, ctx, viewportFirst)
      else if (!foldRun(list, i, j, depth, ctx, parentRef, where)) return
      i = j
      continue
    }
    // A run of siblings of one role (rows, cards, list items): a few samples, then a count and where to page on.
    const role = runRole(item)
    let runEnd = i
    while (role !== undefined && runEnd < list.length && runRole(list[runEnd] as Item) === role && (!viewportFirst || (list[runEnd] as Item).inView)) runEnd++
    if (viewportFirst && role !== undefined && runEnd - i >= (CHOICES.has(role) ? CHOICE_REPEAT_MIN : REPEAT_MIN)) {
      for (let k = i; k < i + SAMPLES; k++) if (!emitItem(list[k] as Item, depth, ctx, viewportFirst)) return
      const rest = runEnd - i - SAMPLES
      emit(`… ${rest} more ${rolesOf(role, rest)}${parentRef === undefined ? '' : `: expand "@${parentRef}" offset ${pageOffsets(list, i + SAMPLES, runEnd)}`}`, depth, ctx)
      i = runEnd
      continue
    }
    // An expansion prints what is read; past it, where to go on (reading the rest then).
    if (!viewportFirst && i > start && (i >= end || item.lines > ctx.budget || item.node.unread !== undefined)) {
      note(foldNote(list.slice(i), parentRef, i, 'more'), depth, ctx)
      return
    }
    if (!emitItem(item, depth, ctx, viewportFirst)) {
      note(foldNote(list.slice(i), parentRef, i, 'more (outline cut)'), depth, ctx)
      ctx.budget = 0
      return
    }
    i++
  }
}

/**
 * Whether an element's children print on its own line: a few leaves, at most three of them
 * actionable (any number in a table's row), under something that is not a region of the page
 * (a form, a dialog, an iframe keep their fields on lines of their own).
 */
function packs(item: Item, children: readonly Item[]): boolean {
  if (item.node.role === PART || children.length === 0 || LANDMARKS.has(item.node.role ?? '')) return false
  if (!children.every((child) => child.children.length === 0)) return false
  // A table's row is one record however many of its cells take a click (a calendar's week), as long as the line stays short.
  if (item.node.role === 'row') return true
  // A data table's row of many cells, or a sentence with links (a list item that says a
  // parameter's types), reads as one line, as long as the line stays short (see packedLine).
  if (children.length > PACK_MAX) return children.every((child) => child.actions === undefined) || isSentence(children)
  return children.filter((child) => child.actions !== undefined).length <= 3 || isSentence(children)
}

/** Texts and the links between them, at least one of each: words a person reads as one line. */
function isSentence(children: readonly Item[]): boolean {
  const text = (child: Item): boolean => child.node.kind === 'text'
  const link = (child: Item): boolean => child.node.role === 'link' && child.actions !== undefined
  return children.every((child) => text(child) || link(child)) && children.some(text) && children.some(link)
}

/** The element and its children as one line (`role "name" @ref: child child …`), when they pack and the line stays short or is a few texts. */
function packedLine(item: Item): string | undefined {
  if (!packs(item, item.children)) return undefined
  const line = `${inline(item)}: ${item.children.map(inline).join(' ')}`
  if (line.length <= PACKED_LINE_CHARS) return line
  return item.children.length <= PACK_MAX && item.children.every((child) => child.node.kind === 'text') ? line : undefined
}

function emitItem(item: Item, depth: number, ctx: Context, viewportFirst: boolean): boolean {
  // Not read (yet): a line that says what it holds and how to read it.
  if (item.node.unread !== undefined) return emit(foldNote([item], item.ref, 0, 'unread', labelOf([item])), depth, ctx)
  if (item.packed !== undefined) return emit(item.packed, depth, ctx)
  if (item.node.role === PART) {
    emitChildren(item.children, depth, ctx, item.ref, viewportFirst)
    return ctx.budget > 0
  }
  if (!emit(inline(item), depth, ctx)) return false
  emitChildren(item.children, depth + 1, ctx, item.ref, viewportFirst)
  return true
}

function contextFor(frame: Frame, options: PageOutlineOptions): Context {
  const refs = RefTable.forFrame(frame)
  return { frame, refs, actions: actionsByNode(frame), viewport: frame.layout[frame.tree.id], out: [], budget: options.expand === undefined ? MAX_LINES : EXPAND_LINES, folds: MAX_FOLD_NOTES, whole: options.expand === undefined ? undefined : refs.resolve(options.expand), sizes: new Map(), boxes: options.boxes === true, titles: [] }
}

/** A box as its line says it: from the viewport's corner (the frame's layout is the page's), whole CSS pixels. */
function boxWords(box: Bounds, viewport: Bounds | undefined): string {
  const [x, y] = [box.x - (viewport?.x ?? 0), box.y - (viewport?.y ?? 0)]
  return `[box=${[x, y, box.width, box.height].map(Math.round).join(',')}]`
}

function topItems(ctx: Context): Item[] {
  return mergeTexts((ctx.frame.tree.children ?? []).flatMap((child) => build(child, ctx)), ctx.frame.layout)
}

/** The element an expansion shows; `not_found` for a ref the frame does not hold. */
function expansionScope(ctx: Context, expand: string): UiNode {
  const id = ctx.refs.resolve(expand)
  const found = id === undefined ? undefined : frameIndex(ctx.frame).nodes.get(id)
  if (found === undefined) throw new TesseraError('not_found', `no element ${expand} on the current page; it may have gone — take a new snapshot`, { expected: 'an @ref the last outline printed', found: expand })
  return found
}

/** What an expansion prints: the element itself when it is a line of its own (root), and the items under it. */
function expansionItems(scope: UiNode, ctx: Context): { root: Item | undefined; children: Item[] } {
  if (scope.kind === 'text') return { root: textRun(scope, ctx), children: [] }
  const built = scope === ctx.frame.tree ? [] : build(scope, ctx)
  const root = built.length === 1 && built[0]?.node === scope ? built[0] : undefined
  // A part read prints only what it holds; so does a sentence (a paragraph of texts and links), which has no line of its own.
  if (root !== undefined && ((root.node.role === PART && root.node.unread === undefined) || (root.packed !== undefined && root.ref === undefined))) return { root: undefined, children: root.children }
  return { root, children: root !== undefined ? root.children : scope === ctx.frame.tree ? topItems(ctx) : mergeTexts(built, ctx.frame.layout) }
}

/** A text and the texts right after it, one line as the outline printed them (mergeTexts), whole. */
function textRun(text: UiNode, ctx: Context): Item | undefined {
  const parent = frameIndex(ctx.frame).parents.get(text.id)
  const siblings = (parent === undefined ? undefined : frameIndex(ctx.frame).nodes.get(parent)?.children) ?? [text]
  const start = Math.max(0, siblings.indexOf(text))
  const run: Item[] = build(siblings[start] as UiNode, ctx, false, parent)
  for (let i = start + 1; i < siblings.length; i++) {
    const built = build(siblings[i] as UiNode, ctx, false, parent)
    // What the outline leaves out (an unnamed picture) does not end the line; anything else it would not run on into does.
    if (built.some((item) => !isProse(item) || item.parent !== parent)) break
    run.push(...built)
  }
  return mergeTexts(run, ctx.frame.layout)[0]
}

/** At most this many unread parts are asked for at once; an outline reads at most this many times. */
const MAX_READ_PARTS = 400
const MAX_READINGS = 3

/**
 * The unread parts (nodes with `unread`) an outline with these options would show: the
 * expanded element itself, or those among the children its expansion prints; the part that
 * holds the expanded element when the frame lacks it; for a find, every part whose text
 * holds the words. Undefined when it shows none (the viewport view's parts in view are read
 * by the surface itself).
 */
export function unreadShown(frame: Frame, options: PageOutlineOptions = {}): UnreadRequest | undefined {
  const index = frameIndex(frame)
  const all = [...index.nodes.values()]
  const unread = all.some((node) => node.unread !== undefined)
  // A long text the frame holds a window of is looked through whole by the surface, and read from any line by an offset.
  const finding = options.find !== undefined || options.findPattern !== undefined
  const windowed = (finding || (options.expand !== undefined && options.offset !== undefined)) && all.some((node) => node.excerpt !== undefined)
  if (!unread && !windowed) return undefined
  const ctx = contextFor(frame, options)
  const id = options.expand === undefined ? undefined : ctx.refs.resolve(options.expand)
  const scope = id === undefined ? undefined : index.nodes.get(id)
  // Not in this frame: its element may live in a part unread now (the page scrolled on). Looked for before a find inside it moves any long text's window.
  if (options.expand !== undefined && scope === undefined) return { refs: [options.expand] }
  if (options.find !== undefined) return { text: options.find }
  if (options.findPattern !== undefined) {
    // Refused here, before any part is read, if it is no pattern an agent may give.
    agentPattern(options.findPattern, 'regex')
    return { pattern: options.findPattern }
  }
  if (options.expand === undefined || scope === undefined) return undefined
  if (scope.unread !== undefined) return { nodes: [scope.id] }
  // A long text read from a line of the agent's choice: its window starts there.
  if (scope.excerpt !== undefined && options.offset !== undefined && options.offset !== scope.excerpt.line) return { refs: [options.expand], line: Math.max(1, options.offset) }
  const { children } = expansionItems(scope, ctx)
  const start = Math.min(options.offset ?? 0, children.length)
  const nodes: string[] = []
  const collect = (items: readonly Item[]): void => {
    for (const item of items) {
      if (nodes.length >= MAX_READ_PARTS) return
      if (item.node.unread !== undefined) nodes.push(item.node.id)
      else if (item.estimated) collect(item.children)
    }
  }
  collect(children.slice(start, pageEnd(children, start, partEnd(children, start), EXPANSION_ROOM)))
  return nodes.length === 0 ? undefined : { nodes }
}

/**
 * The outline, with the unread parts it would show read first through `read` (the hub's
 * frame cache asking the surface): what an expansion or a find prints is then the page's own
 * content, never an estimate. A few readings at most: estimates can be high, so a first
 * reading may leave room for more.
 */
export async function outlineReading(
  frame: Frame,
  options: PageOutlineOptions,
  read: (request: UnreadRequest) => Promise<Frame>,
  outline: (frame: Frame, options: PageOutlineOptions) => string = outlinePage,
): Promise<string> {
  let current = frame
  for (let round = 0; round < MAX_READINGS; round++) {
    const wanted = unreadShown(current, options)
    if (wanted === undefined) break
    const next = await read(wanted)
    if (next.id === current.id) break
    current = next
    if (wanted.text !== undefined || wanted.pattern !== undefined || wanted.line !== undefined) break
  }
  return outline(current, options)
}

/** Of a route in a header, this many characters: a `data:` URL is a whole page, and its header came with every answer. */
const HEADER_ROUTE_CHARS = 200

/**
 * Roles that hold a piece of the page read as one (a `<details>`, a list's item, a table's row,
 * an article): a find names the one around a match, where the match's words are not all of it.
 */
const SECTIONS = new Set(['group', 'Details', 'details', 'region', 'section', 'article', 'listitem', 'row', 'dialog', 'alertdialog', 'form', 'figure', 'tabpanel', 'note', 'treeitem'])

/** A piece around a match is named while it holds at most this many nodes: one expansion shows it whole. */
const SECTION_NODES_MAX = EXPAND_LINES

/**
 * For a find: the ref of the piece of the page around a match (SECTIONS), said after it as
 * ` in @ref`, whose expansion reads the match in its context — a method's signature and its
 * documentation, a search result's link and its teaser. Given where the nearest such piece
 * holds more than the match and one expansion shows it whole; else none.
 */
function sectionsAround(tree: UiNode, refs: RefTable): (nodeId: string) => string | undefined {
  const parents = new Map<string, UiNode>()
  const sizes = new Map<string, number>()
  const size = (node: UiNode): number => {
    let known = sizes.get(node.id)
    if (known === undefined) sizes.set(node.id, (known = 1 + (node.children ?? []).reduce((sum, child) => sum + size(child), 0)))
    return known
  }
  const nodes = new Map<string, UiNode>()
  const walk = (node: UiNode): void => {
    nodes.set(node.id, node)
    for (const child of node.children ?? []) {
      parents.set(child.id, node)
      walk(child)
    }
  }
  walk(tree)
  return (nodeId) => {
    const match = nodes.get(nodeId)
    if (match === undefined) return undefined
    // The nodes between the piece and the match (the piece's own included) hold nothing else.
    let between = 0
    for (let node = parents.get(nodeId); node !== undefined && node !== tree; node = parents.get(node.id)) {
      between += 1
      if (!SECTIONS.has(node.role ?? '')) continue
      const ref = refs.refOf(node.id)
      if (size(node) <= size(match) + between || ref === undefined) continue
      return size(node) <= SECTION_NODES_MAX ? ref : undefined
    }
    return undefined
  }
}

/** A match's line with the piece around it, unless the line's own ref reads that piece already (a text's holder). */
function inSection(line: string, section: string | undefined): string {
  return section === undefined || line.split(' ').includes(`@${section}`) ? line : `${line} in @${section}`
}

/** A route as one word of the header: its blanks escaped as a URL escapes them (a `data:` URL may hold any), and cut when long. */
function headerRoute(route: string): string {
  const word = route.replace(/\s/g, (blank) => encodeURIComponent(blank))
  return word.length > HEADER_ROUTE_CHARS ? `${cutWhole(word, HEADER_ROUTE_CHARS - 1)}…` : word
}

/**
 * A page as the agent reads it: a header (tile, title, URL, frame id), then the page's own
 * content between fence lines that carry a random nonce — everything between them came from
 * the site, is quoted, and is never an instruction; a page cannot close the fence because it
 * cannot guess the nonce nor print a line break. By default only what is in the viewport is
 * written out; the rest is folded into lines that say how to expand it.
 */
export function outlinePage(frame: Frame, options: PageOutlineOptions = {}): string {
  const ctx = contextFor(frame, options)
  const refs = ctx.refs
  const top = (): Item[] => topItems(ctx)
  const fence = pageFence()
  const header = `${frame.surface} ${headerRoute(frame.route)} frame ${(frame.partial?.of ?? frame.id).slice(0, 12)}`
  const scope: UiNode = options.expand === undefined ? frame.tree : expansionScope(ctx, options.expand)
  const finder = finderOf(options)
  // The title is the page's words like any other: inside the fence, never in the hub's header; the page's first line, not an expansion's or a find's.
  const titled = frame.tree.name !== undefined && options.expand === undefined && finder === undefined
  const lines: string[] = [header, fence.open, ...(titled ? [`title ${quote(frame.tree.name ?? '')}`] : [])]
  // The hub's own words after the fence: that a find found nothing (the words quoted are the agent's).
  const after: string[] = []
  if (finder !== undefined) {
    // Elements an agent can act on first, then the rest (headings, texts) that say the words.
    const actionable: string[] = []
    const other: string[] = []
    // Texts the surface looked through whole for this very find and holds a window of at its match (`state.found`): a match longer than the window, or anchored past it (`a+$` on 30,000 a's), is not in the words shown.
    const foundWhole = foundTexts(frame, (options.findPattern ?? options.find ?? '').trim())
    const around = sectionsAround(frame.tree, refs)
    const visit = (items: Item[]): void => {
      for (const item of items) {
        // A text is searched whole and shows where it says the words, with the ref that reads it whole.
        const text = item.node.kind === 'text'
        const line = text ? textLine(item, finder.around(textSaid(item.node))) : inline(item)
        // What it says: a text's words (a block of code's lines); an element's line, and its name and value alone (what a pattern's ^ and $ mean; a value of many lines keeps them).
        const name = squeeze(item.node.name ?? '')
        const value = typeof item.node.value === 'string' ? [byLineWords(item.node.value)] : []
        const says = text ? [textSaid(item.node)] : [line, name, ...value]
        // A line with nothing to act on that does not print the name that matched (a heading named by the link it holds, an iframe by its title) shows nothing found.
        const bare = !text && item.actions === undefined && !finder.says(line) && !(name !== '' && line.includes(name) && finder.says(name))
        if (item.node.role !== PART && !bare && ((text && foundWhole.has(item.node.id)) || says.some((said) => finder.says(said)))) (item.actions !== undefined ? actionable : other).push(inSection(line, around(item.node.id)))
        visit(item.children)
      }
    }
    visit(top())
    const total = actionable.length + other.length
    // Paged by offset: the matches after the first MAX_FOUND are a find with an offset away.
    const from = Math.min(options.offset ?? 0, total)
    const found = [...actionable, ...other].slice(from, from + MAX_FOUND)
    ctx.out.push(...found)
    const rest = total - from - found.length
    if (rest > 0) ctx.out.push(`… ${rest} more match${rest === 1 ? '' : 'es'}: the same find with offset ${from + found.length} lists them`)
    // A frame of nothing of the page (it stopped answering, it went) says so itself: it was not looked through.
    if (total === 0 && typeof (frame.state as { said?: unknown }).said !== 'string') after.push(`nothing on the page ${finder.nothing}`)
    else if (found.length === 0 && total > 0) after.push(`the find has ${total} match${total === 1 ? '' : 'es'}; offset ${options.offset ?? 0} is past them`)
  } else if (options.expand === undefined) emitChildren(top(), 0, ctx, refs.refOf(frame.tree.id), true)
  else {
    // The element itself when it is a line of its own; else (pure structure) just what it holds.
    const { root, children } = expansionItems(scope, ctx)
    if (root !== undefined) emit(root.node.unread !== undefined ? foldNote([root], root.ref, 0, 'unread', labelOf([root])) : inline(root), 0, ctx)
    emitChildren(children, root === undefined ? 0 : 1, ctx, refs.refOf(scope.id), false, options.offset ?? 0)
  }
  const state = frame.state as {
    pageTools?: Array<{ id: string; description: string; input: string[]; consequential?: boolean }>
    dialog?: { type: string; message: string }; downloads?: Array<{ file: string; state: string }>; fileChooser?: unknown; tabs?: { count: number; current: number }
    /** What the surface says of a page it cannot read (stopped answering, crashed, gone): the hub's words, outside the fence. */
    said?: string }
  // The page's own tools (WebMCP): their descriptions are the page's words, so inside the fence.
  for (const tool of state.pageTools ?? []) ctx.out.push(`page tool ${tool.id} {${tool.input.join(', ')}}: ${quote(tool.description)}${tool.consequential === true ? ' (needs a person)' : ''}`)
  // A download's file name is the page's word too (a dialog's message is in the tree: the dialog is what the page shows).
  // Said with the page, not with a find's matches or an expansion's lines.
  if (state.downloads !== undefined && options.expand === undefined && finder === undefined) ctx.out.push(`downloads: ${state.downloads.map((d) => `${quote(d.file)} (${d.state})`).join(', ')}`)
  // Nothing of the page to show (a page that cannot be read, a find that found nothing): no fence around nothing.
  if (ctx.out.length === 0 && !titled) lines.splice(lines.indexOf(fence.open), 1)
  else lines.push(...ctx.out, fence.close)
  if (state.said !== undefined) lines.push(state.said)
  lines.push(...after)
  if ((state.pageTools ?? []).length > 0) lines.push(`page tools run with action_request {surface: "${frame.surface}", action, input}`)
  if (state.dialog !== undefined) lines.push(dialogOpenLine(state.dialog.type))
  if (state.fileChooser !== undefined) lines.push('file chooser open — answer with browser_file_upload')
  if (state.tabs !== undefined) lines.push(`tabs: ${state.tabs.count}, current ${state.tabs.current} — browser_tabs`)
  return lines.join('\n')
}
