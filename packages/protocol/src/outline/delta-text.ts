import { frameIndex } from '../frame/frame-index.js'
import { type ResolvedTarget, resolvedTargets, targetLabel } from '../frame/targets.js'
import type { FrameDelta } from '../schemas/frame-delta.js'
import type { Frame } from '../schemas/frame.js'
import type { UiNode } from '../schemas/node.js'
import { isSensitive } from '../tree/node-states.js'
import {
  type LineParts,
  REDACTED_MARK,
  actionBadge,
  bare,
  displayRole,
  formatLine,
  formatValue,
  isInteractiveRole,
  isWrapperRole,
  quote,
  saysAlready,
  singleLine,
  stateWords,
} from './line-format.js'
import { RefTable, refFor } from './refs.js'

/**
 * What an action did, as text a model reads instead of a whole new snapshot:
 *
 *   route /claims → /claims/c-1001
 *   actions added: close-claim, approve-payout, reject-claim
 *   actions removed: export-claims, open-claim
 *   now disabled: approve-payout
 *   + button "Approve payout" @n9x0
 *   + group "Claimant": "Ada Brennan"
 *   - main (+17 inside)
 *   ~ "Approved" (changed: text)
 *
 * Action changes come first because they decide what the model can do next. Node lines
 * use the outline's line format. `+` lists the meaningful nodes that appeared, texts
 * folded into the line of the node they sit in; `-` lists only the outermost vanished
 * node of each vanished subtree, with a count of what went with it; `~` shows a changed
 * node as it is now — a delta carries no old values — and which fields changed; with
 * `after`, a node whose only change is an action turning on or off is left to the
 * `now enabled/disabled` line.
 * Nesting is read from the `after` frame when given, else from path-like node ids
 * (`parent/child`); with other id schemes lines simply stay unfolded.
 *
 * Pass `after` (the frame the delta leads to) to add action badges, states and exact
 * refs, and to name the node a changed text belongs to (`~ group "Status": "Approved"`).
 * Without it, interactive nodes carry their preferred ref (`refFor`), which in that frame
 * names the same node or nothing — never another one.
 */

export interface DeltaTextOptions {
  /** The frame after the change, for badges, states, refs and context. */
  after?: Frame
  /** At most this many node lines (+, -, ~); default 40. Past that a snapshot says it better. */
  maxLines?: number
}

type Summary = FrameDelta['added'][number]

const DEFAULT_MAX_LINES = 40
const MAX_INLINE_TEXTS = 6

interface AfterIndex {
  frame: Frame
  nodes: Map<string, UiNode>
  parents: Map<string, string>
  actionsByNode: Map<string, ResolvedTarget[]>
  refs: RefTable
}

interface Entry {
  nodeId: string
  name: string
  parts: LineParts
  inlined: number
}

export function outlineDelta(delta: FrameDelta, options: DeltaTextOptions = {}): string {
  const after = options.after === undefined ? undefined : indexFrame(options.after)
  const head: string[] = []
  if (delta.route !== undefined) head.push(`route ${bare(delta.route.from)} → ${bare(delta.route.to)}`)
  if (delta.actionsAdded.length > 0) head.push(`actions added: ${delta.actionsAdded.join(', ')}`)
  if (delta.actionsRemoved.length > 0) head.push(`actions removed: ${delta.actionsRemoved.join(', ')}`)
  const enabled = delta.actionsEnabledChanged.filter((change) => change.enabled).map((change) => change.id)
  const disabled = delta.actionsEnabledChanged.filter((change) => !change.enabled).map((change) => change.id)
  if (enabled.length > 0) head.push(`now enabled: ${enabled.join(', ')}`)
  if (disabled.length > 0) head.push(`now disabled: ${disabled.join(', ')}`)

  const toggled = new Set(delta.actionsEnabledChanged.map((change) => change.id))
  const body = [...addedLines(delta.added, after), ...removedLines(delta.removed), ...changedLines(delta.changed, after, toggled)]
  if (head.length === 0 && body.length === 0) return 'no visible change'
  const max = Math.max(0, Math.floor(options.maxLines ?? DEFAULT_MAX_LINES))
  const shown = body.slice(0, max)
  if (body.length > max) shown.push(`… ${body.length - max} more change${body.length - max === 1 ? '' : 's'}; take a snapshot for the full view`)
  return [...head, ...shown].join('\n')
}

function indexFrame(frame: Frame): AfterIndex {
  const { nodes, parents, refs } = frameIndex(frame)
  const actionsByNode = new Map<string, ResolvedTarget[]>()
  for (const resolved of resolvedTargets(frame)) {
    const nodeId = resolved.target.nodeId
    if (nodeId !== undefined) actionsByNode.set(nodeId, [...(actionsByNode.get(nodeId) ?? []), resolved])
  }
  return { frame, nodes, parents, actionsByNode, refs }
}

function isMeaningful(summary: Summary): boolean {
  return !isWrapperRole(summary.role) || isInteractiveRole(summary.role) || (summary.name ?? '').trim() !== '' || formatValue(summary.value) !== undefined
}

function bareRole(summary: Summary, after: AfterIndex | undefined): boolean {
  const nothingElse = (summary.name ?? '').trim() === '' && formatValue(summary.value) === undefined
  return nothingElse && !isInteractiveRole(summary.role) && after?.actionsByNode.has(summary.nodeId) !== true
}

/** A text with nothing else to it: it can join the line of the node it sits in. */
function plainText(summary: Summary, after: AfterIndex | undefined): string | undefined {
  if (displayRole(summary.role) !== undefined || formatValue(summary.value) !== undefined) return undefined
  if (after?.actionsByNode.has(summary.nodeId) === true) return undefined
  const text = singleLine(summary.name ?? '')
  return text === '' ? undefined : text
}

function isInside(nodeId: string, ancestorId: string, after: AfterIndex | undefined): boolean {
  if (after !== undefined && after.nodes.has(nodeId)) {
    for (let up = after.parents.get(nodeId); up !== undefined; up = after.parents.get(up)) if (up === ancestorId) return true
    return false
  }
  return nodeId.startsWith(`${ancestorId}/`)
}

/** Redacted values arrive as the marker; printing it quoted would read like real content. */
function shown(text: string): string {
  return text === REDACTED_MARK ? REDACTED_MARK : quote(text)
}

function secretInAfter(nodeId: string, after: AfterIndex | undefined): boolean {
  if (after === undefined) return false
  for (let id: string | undefined = nodeId; id !== undefined; id = after.parents.get(id)) {
    const node = after.nodes.get(id)
    if (node !== undefined && isSensitive(node)) return true
  }
  return false
}

/** The outline line of a summary, enriched from the `after` frame when there is one. */
function partsOf(summary: Summary, after: AfterIndex | undefined): LineParts {
  const role = displayRole(summary.role)
  const name = singleLine(summary.name ?? '')
  const secret = secretInAfter(summary.nodeId, after)
  const content: string[] = []
  const value = formatValue(summary.value)
  if (value !== undefined) content.push(secret || summary.value === REDACTED_MARK ? REDACTED_MARK : value)
  let shownName: string | undefined = name === '' ? undefined : name
  if (role === undefined && shownName !== undefined) {
    // Texts show as content, as in the outline.
    content.push(secret ? REDACTED_MARK : shown(shownName))
    shownName = undefined
  } else if (secret && shownName !== undefined && shownName === singleLine(String(summary.value ?? ''))) {
    shownName = undefined
  }
  const parts: LineParts = { role, name: shownName, content, badges: [], states: [] }
  const node = after?.nodes.get(summary.nodeId)
  const actions = after?.actionsByNode.get(summary.nodeId) ?? []
  if (after !== undefined && node !== undefined) {
    parts.badges = actions.map((target) => actionBadge(target))
    parts.states = stateWords(node.states)
    const disabled = actions.length > 0 ? actions.every((resolved) => !resolved.target.enabled) : node.states?.disabled === true
    if (disabled) parts.states.push('disabled')
  }
  if (actions.length > 0 || isInteractiveRole(summary.role)) parts.ref = after?.refs.refOf(summary.nodeId) ?? refFor(summary.nodeId)
  return parts
}

function addedLines(added: Summary[], after: AfterIndex | undefined): string[] {
  const entries: Entry[] = []
  let owner: Entry | undefined
  for (const summary of added) {
    // Flat lines cannot show nesting, so a bare role (`banner`, `toolbar`) says nothing here.
    if (!isMeaningful(summary) || bareRole(summary, after)) continue
    const text = plainText(summary, after)
    if (text !== undefined && owner !== undefined && isInside(summary.nodeId, owner.nodeId, after)) {
      if (saysAlready(owner.name, text)) continue
      if (owner.inlined < MAX_INLINE_TEXTS) {
        owner.parts.content.push(secretInAfter(summary.nodeId, after) ? REDACTED_MARK : shown(text))
        owner.inlined++
        continue
      }
    }
    const entry: Entry = { nodeId: summary.nodeId, name: singleLine(summary.name ?? ''), parts: partsOf(summary, after), inlined: 0 }
    entries.push(entry)
    if (text === undefined) owner = entry
  }
  return entries.map((entry) => `+ ${formatLine(entry.parts)}`)
}

function removedLines(removed: Summary[]): string[] {
  const roots = new Map<string, { summary: Summary; inside: number }>()
  for (const summary of removed) {
    if (!isMeaningful(summary)) continue
    // Summaries come in tree order, so a vanished subtree's root precedes its contents.
    const root = vanishedAncestor(summary.nodeId, roots)
    if (root !== undefined) root.inside++
    else roots.set(summary.nodeId, { summary, inside: 0 })
  }
  return [...roots.values()].map(({ summary, inside }) => `- ${formatLine(partsOf(summary, undefined))}${inside > 0 ? ` (+${inside} inside)` : ''}`)
}

function vanishedAncestor<T>(nodeId: string, roots: Map<string, T>): T | undefined {
  for (let cut = nodeId.lastIndexOf('/'); cut > 0; cut = nodeId.lastIndexOf('/', cut - 1)) {
    const root = roots.get(nodeId.slice(0, cut))
    if (root !== undefined) return root
  }
  return undefined
}

function changedLines(changed: FrameDelta['changed'], after: AfterIndex | undefined, toggled: ReadonlySet<string>): string[] {
  const lines: string[] = []
  for (const summary of changed) {
    // A state change that is just an action turning on or off is already in `now enabled/disabled`.
    const actions = after?.actionsByNode.get(summary.nodeId) ?? []
    if (summary.fields.length === 1 && summary.fields[0] === 'states' && after !== undefined && actions.length > 0 && actions.every((resolved) => toggled.has(targetLabel(after.frame, resolved.target)))) continue
    // A text node mirrors its text into its name; one change, reported once.
    const fields = summary.fields.includes('text') ? summary.fields.filter((field) => field !== 'name') : summary.fields
    const context = after === undefined ? undefined : textContext(summary, after)
    const line = context ?? formatLine(partsOf(summary, after))
    lines.push(`~ ${line} (changed: ${fields.join(', ')})`)
  }
  return lines
}

/** A changed text is read as the content of the named node it sits in: `group "Status": "Approved"`. */
function textContext(summary: Summary, after: AfterIndex): string | undefined {
  const text = plainText(summary, after)
  if (text === undefined) return undefined
  for (let up = after.parents.get(summary.nodeId); up !== undefined; up = after.parents.get(up)) {
    const node = after.nodes.get(up)
    if (node === undefined) return undefined
    const name = singleLine(node.name ?? '')
    if (name === '' && isWrapperRole(node.role) && !after.actionsByNode.has(up)) continue
    if (name === '') return undefined
    const parts = partsOf({ nodeId: node.id, role: node.role, name }, after)
    if (parts.role === undefined) return undefined
    parts.content.push(secretInAfter(summary.nodeId, after) ? REDACTED_MARK : shown(text))
    return formatLine(parts)
  }
  return undefined
}
