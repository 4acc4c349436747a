import { canonicalJson } from '../content-hash.js'
import { type ResolvedTarget, resolvedTargets } from '../frame/targets.js'
import type { Frame } from '../schemas/frame.js'
import type { UiNode } from '../schemas/node.js'
import { isHidden, isSensitive } from '../tree/node-states.js'
import {
  type LineParts,
  REDACTED_MARK,
  actionBadge,
  bare,
  displayRole,
  formatLine,
  formatValue,
  isContainerRole,
  isInteractiveRole,
  isWrapperRole,
  quote,
  saysAlready,
  singleLine,
  stateWords,
  truncate,
} from './line-format.js'
import { RefTable } from './refs.js'

/**
 * The snapshot a model reads: a text outline of a frame, far smaller than its JSON and
 * than an accessibility-tree dump, with every action kept. Example (claims detail):
 *
 *   claims /claims/c-1001 frame 3fa9c1d2e0b4
 *   application "Claims review"
 *     main "Claim c-1001"
 *       banner
 *         heading "Claim c-1001"
 *         button "Back" [close-claim read] @n1k2
 *       group "Claimant": "Ada Brennan"
 *       group "Payout account": [REDACTED]
 *       toolbar "Decision"
 *         button "Approve payout" [approve-payout write confirm] @n9x0
 *         button "Reject claim" [reject-claim write input] @n3fa
 *         button "Delete claim" [delete-claim destructive confirm] @n7aa (disabled)
 *   state: {"claim":{"id":"c-1001","status":"ready"},"exports":0}
 *
 * The first line names the surface, the route and the first 12 hex digits of the frame id
 * (48 bits: enough to tell frames of one session apart). Then one line per meaningful
 * node, two spaces of indent per level of the kept tree:
 *
 *   role "name": content [action-id risk flags] @ref (states) <x,y wxh>
 *
 * - Wrappers — no action, no name, no text, no value and no role or only a layout role
 *   (generic, group, none…) — are dropped and their children take their place; so is an
 *   unnamed container (toolbar, list, banner…) around a single kept node.
 * - A text is printed as just `"the text"`. Texts a parent's name already says are not
 *   repeated; when all that is left under a node is a few plain texts, they join the
 *   node's line after the colon (`group "Claimant": "Ada Brennan"`), after its value.
 * - `[id risk flags]` for each action the node carries; flags are `confirm` (the contract
 *   requires confirmation) and `input` (it takes input — its schema is in the tool list).
 * - `@ref` on nodes an agent can act on: those with actions and those with interactive
 *   roles (button, link, textbox, checkbox…). Refs resolve through `refs`, the frame's
 *   RefTable; they are stable across frames for the same node id.
 * - States in parens: checked, selected, expanded/collapsed, pressed, focused, required,
 *   invalid, readonly, hidden, disabled — an action node is `disabled` when its target is
 *   not enabled (a disabled or hidden ancestor counts).
 * - Secrets: anything at or under a sensitive node prints `[REDACTED]` instead of its
 *   text or value, whether or not the frame was redacted before — a second line of
 *   defence; the state line shows `frame.state` as given, so pass redacted frames.
 * - Hidden subtrees are left out except for the actions in them, marked `(hidden, …)`,
 *   so that every target of `frame.targets` appears exactly once. Actions of the whole
 *   surface (no node) share one line after the tree: `actions: [file_read read input] …`.
 *   A badge's risk is the contract's raised by the target's own.
 * - Texts are single-lined, JSON-escaped and cut at 120 characters with '…'.
 * - `maxLines` caps the node lines; a last line says how many were left out and lists
 *   the actions among them with their refs, so no action silently disappears.
 * - `state:` is RFC 8785 canonical JSON of `frame.state` (omitted when empty), cut at
 *   2,000 characters with a note; the full frame stays available as JSON.
 *
 * Deterministic: the same frame always gives the same text.
 */

export interface OutlineOptions {
  /** Append `<x,y wxh>` (rounded) to every line whose node has layout bounds. */
  bounds?: boolean
  /** At most this many node lines; the rest are summarised in one closing line. */
  maxLines?: number
  /** Append the `state:` line. Default true. */
  includeState?: boolean
}

export interface Outline {
  text: string
  refs: RefTable
}

/** Enough state for the conditions a model reasons about, small enough not to drown the tree. */
const MAX_STATE_CHARS = 2000
/** More plain texts than this stay on their own lines: one line would become a paragraph. */
const MAX_INLINE_TEXTS = 6
/** Actions named in the truncation note; past this the note only counts them. */
const MAX_ACTIONS_IN_NOTE = 20
const INDENT = '  '
const FRAME_ID_DIGITS = 12

interface Item {
  parts: LineParts
  children: Item[]
  /** Set on a plain text leaf that may be folded into its parent's line. */
  inlineText?: string
  actions: ResolvedTarget[]
}

interface Context {
  frame: Frame
  refs: RefTable
  actionsByNode: Map<string, ResolvedTarget[]>
  bounds: boolean
}

export function outlineFrame(frame: Frame, options: OutlineOptions = {}): Outline {
  const refs = RefTable.forFrame(frame)
  const actionsByNode = new Map<string, ResolvedTarget[]>()
  const surfaceWide: ResolvedTarget[] = []
  for (const resolved of resolvedTargets(frame)) {
    const nodeId = resolved.target.nodeId
    if (nodeId === undefined) {
      surfaceWide.push(resolved)
      continue
    }
    const list = actionsByNode.get(nodeId)
    if (list === undefined) actionsByNode.set(nodeId, [resolved])
    else list.push(resolved)
  }
  const ctx: Context = { frame, refs, actionsByNode, bounds: options.bounds === true }

  const lines: Array<{ depth: number; text: string; actions: ResolvedTarget[]; ref: string | undefined }> = []
  const emit = (item: Item, depth: number): void => {
    lines.push({ depth, text: formatLine(item.parts), actions: item.actions, ref: item.parts.ref })
    for (const child of item.children) emit(child, depth + 1)
  }
  const seen = new Set<string>()
  for (const item of visit(frame.tree, ctx, false, false, seen)) emit(item, 0)
  for (const [nodeId, targets] of actionsByNode) {
    if (seen.has(nodeId)) continue
    // A target whose node a partial frame left out: still listed, so no action disappears.
    const parts: LineParts = { role: undefined, name: undefined, content: [], badges: targets.map((t) => actionBadge(t)), ref: refs.refOf(nodeId), states: targets.some((t) => t.target.enabled) ? [] : ['disabled'], bounds: undefined }
    lines.push({ depth: 0, text: formatLine(parts), actions: targets, ref: parts.ref })
  }

  // A partial view names the whole frame: that is the id a request refers to.
  const partial = frame.partial === undefined ? '' : ` (part${frame.partial.scope === undefined ? '' : ` at @${refs.refOf(frame.partial.scope) ?? frame.partial.scope}`}; ${frame.partial.omitted} nodes left out)`
  const out = [`${bare(frame.surface)} ${bare(frame.route)} frame ${(frame.partial?.of ?? frame.id).slice(0, FRAME_ID_DIGITS)}${partial}`]
  const max = options.maxLines === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(options.maxLines))
  for (const line of lines.slice(0, max)) out.push(INDENT.repeat(line.depth) + line.text)
  if (lines.length > max) out.push(omittedNote(lines.slice(max)))
  if (surfaceWide.length > 0) out.push(`actions: ${surfaceWide.map((t) => actionBadge(t, true)).join(' ')}`)
  if (options.includeState !== false) {
    const state = stateLine(frame)
    if (state !== undefined) out.push(state)
  }
  return { text: out.join('\n'), refs }
}

function omittedNote(omitted: Array<{ actions: ResolvedTarget[]; ref: string | undefined }>): string {
  const named: string[] = []
  let total = 0
  for (const line of omitted) {
    for (const target of line.actions) {
      // An element's own variant of an action named elsewhere (a row's open-claim) is one of
      // many like it: the action itself is not lost with it.
      if (target.target.input !== undefined) continue
      total++
      if (named.length < MAX_ACTIONS_IN_NOTE) named.push(line.ref === undefined ? target.contract.id : `${target.contract.id} @${line.ref}`)
    }
  }
  const count = `… ${omitted.length} more line${omitted.length === 1 ? '' : 's'}`
  if (total === 0) return count
  const rest = total > named.length ? `, +${total - named.length} more` : ''
  return `${count}; actions there: ${named.join(', ')}${rest}`
}

function stateLine(frame: Frame): string | undefined {
  if (Object.keys(frame.state).length === 0) return undefined
  const json = canonicalJson(frame.state)
  if (json.length <= MAX_STATE_CHARS) return `state: ${json}`
  return `state: ${truncate(json, MAX_STATE_CHARS)} (state cut at ${MAX_STATE_CHARS} of ${json.length} chars; the full frame is available as JSON)`
}

/**
 * The items a node contributes where it stands: one item when it means something, its
 * children's items when it is a wrapper. `hidden` and `secret` are inherited.
 */
function visit(node: UiNode, ctx: Context, hiddenAbove: boolean, secretAbove: boolean, seen: Set<string>): Item[] {
  const hidden = hiddenAbove || isHidden(node)
  const secret = secretAbove || isSensitive(node)
  const actions = ctx.actionsByNode.get(node.id) ?? []
  if (actions.length > 0) seen.add(node.id)
  const childItems: Item[] = []
  // A loop, not push(...items): a wrapper can hoist more items than a call may take arguments.
  for (const child of node.children ?? []) for (const item of visit(child, ctx, hidden, secret, seen)) childItems.push(item)
  // Inside a hidden subtree only actions survive: a model cannot see the rest either.
  if (hidden && actions.length === 0) return childItems

  const name = node.name === undefined ? '' : singleLine(node.name)
  const text = node.text === undefined ? '' : singleLine(node.text)
  const value = formatValue(node.value)
  const interactive = isInteractiveRole(node.role)
  const meaningful = actions.length > 0 || interactive || !isWrapperRole(node.role) || name !== '' || text !== '' || value !== undefined
  if (!meaningful) return childItems

  const role = displayRole(node.role)
  const content: string[] = []
  let shownName: string | undefined = name === '' ? undefined : name
  if (secret) {
    if (value !== undefined || text !== '') content.push(REDACTED_MARK)
    // An app that names a secret field by its content must not leak it through the name.
    if (name !== '' && (name === text || name === singleLine(String(node.value ?? '')))) shownName = undefined
  } else {
    if (value !== undefined) content.push(value)
    // A text node's name mirrors its text; say it once, as a name when there is a role to name.
    if (text !== '' && text === name && role === undefined) shownName = undefined
    if (text !== '' && (text !== name || role === undefined)) content.push(quote(text))
  }

  const states = stateWords(node.states)
  if (hidden) states.push('hidden')
  const enabled = actions.filter((resolved) => resolved.target.enabled).length
  const disabled = actions.length > 0 ? enabled === 0 : node.states?.disabled === true
  if (disabled) states.push('disabled')
  const partlyDisabled = actions.length > 1 && enabled > 0 && enabled < actions.length

  const parts: LineParts = {
    role,
    name: shownName,
    content,
    badges: actions.map((target) => actionBadge(target, partlyDisabled)),
    ref: actions.length > 0 || interactive ? ctx.refs.refOf(node.id) : undefined,
    states,
    bounds: ctx.bounds && Object.hasOwn(ctx.frame.layout, node.id) ? ctx.frame.layout[node.id] : undefined,
  }

  const said = [name, text, node.value === undefined || node.value === null ? '' : singleLine(String(node.value))].filter((s) => s !== '')
  const children = childItems.filter((item) => item.inlineText === undefined || !said.some((s) => saysAlready(s, item.inlineText as string)))
  if (children.length === 1 && shownName === undefined && content.length === 0 && parts.ref === undefined && states.length === 0 && isContainerRole(node.role)) {
    return children
  }
  const item: Item = { parts, children, actions }
  if (children.length > 0 && children.length <= MAX_INLINE_TEXTS && children.every((child) => child.inlineText !== undefined)) {
    for (const child of children) content.push(...child.parts.content)
    item.children = []
  }
  const plain = role === undefined && shownName === undefined && actions.length === 0 && parts.ref === undefined && states.length === 0 && item.children.length === 0
  if (plain && content.length === 1) item.inlineText = secret ? REDACTED_MARK : text !== '' ? text : (said[said.length - 1] ?? '')
  return [item]
}
