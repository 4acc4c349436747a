// Only types and the pure frame-reading helpers: this module also runs in the console's page.
import type { ActionContract, ActionTarget, Bounds, Frame, Risk, UiNode } from '@tessera/protocol'
import { isDisabled, isHidden, isSensitive, maxRisk } from '@tessera/protocol/frame-reading'
import { ariaRole } from './aria-roles.js'
import { round } from './layout-precision.js'
import { DEFAULT_FONT_METRICS, fontMetrics, wrapText } from './text-measure.js'

/**
 * The element tree both web renderers build, decided once: renderHtml serializes it with
 * escaping, renderDom creates it through the DOM API. Every string in it is still raw
 * (unescaped) frame content; every URL and CSS value in it has passed an allow-list.
 */
export interface RenderElement {
  tag: 'div' | 'span' | 'button' | 'img'
  attributes: Array<readonly [name: string, value: string]>
  style: Array<readonly [property: string, value: string]>
  text: string | undefined
  children: RenderElement[]
}

export interface RenderOptions {
  /** Class of the outer container, for the host page's stylesheet. */
  className?: string | undefined
}

/** Shown instead of a secret; fixed length, so the secret's length does not leak either. */
export const MASK = '•••'

export function describeFrame(frame: Frame, options: RenderOptions = {}): RenderElement {
  const rootBounds = boundsOf(frame, frame.tree.id) ?? { x: 0, y: 0, width: 0, height: 0 }
  const targets = nodeTargets(frame)
  const container: RenderElement = {
    tag: 'div',
    attributes: [
      ['class', options.className ?? 'tessera-frame'],
      ['data-frame-id', frame.id],
      ['data-surface', frame.surface],
      ['data-route', frame.route],
    ],
    style: [
      ['position', 'relative'],
      ['width', px(rootBounds.x + rootBounds.width)],
      ['height', px(rootBounds.y + rootBounds.height)],
      ['overflow', 'hidden'],
      ['font-family', 'monospace'],
      ['font-size', px(DEFAULT_FONT_METRICS.fontSize)],
      ['line-height', px(DEFAULT_FONT_METRICS.lineHeight)],
    ],
    text: undefined,
    children: [],
  }
  const root = describeNode(frame, frame.tree, { x: 0, y: 0, width: 0, height: 0 }, targets, false, undefined)
  if (root !== null) container.children.push(root)
  return container
}

/** A node's action as the renderer draws it: its contract, the target and the risk it runs at. */
interface NodeTarget {
  contract: ActionContract
  target: ActionTarget
  risk: Risk
}

/** The first action of each node, in frame order (what resolvedTargets gives, without its node index). */
function nodeTargets(frame: Frame): Map<string, NodeTarget> {
  const contracts = new Map(frame.contracts.map((contract) => [contract.id, contract]))
  const targets = new Map<string, NodeTarget>()
  for (const target of frame.targets) {
    const contract = contracts.get(target.contract)
    if (contract === undefined || target.nodeId === undefined || targets.has(target.nodeId)) continue
    targets.set(target.nodeId, { contract, target, risk: maxRisk(contract.risk, target.risk) })
  }
  return targets
}

function describeNode(
  frame: Frame,
  node: UiNode,
  parent: Bounds,
  targets: ReadonlyMap<string, NodeTarget>,
  ancestorDisabled: boolean,
  parentRole: string | undefined,
): RenderElement | null {
  const bounds = boundsOf(frame, node.id)
  // Not laid out or hidden: there is nothing a human could see, so nothing is drawn.
  if (bounds === undefined || isHidden(node)) return null
  const disabled = ancestorDisabled || isDisabled(node)
  const target = targets.get(node.id)
  // A button cannot hold buttons: an action whose element holds other actions (a list whose
  // rows open) is drawn as a group, and its rows are the buttons.
  const asButton = target !== undefined && !holdsTarget(node, targets)
  const sensitive = isSensitive(node)
  const element: RenderElement = {
    tag: asButton ? 'button' : node.kind === 'text' ? 'span' : node.kind === 'image' ? 'img' : 'div',
    attributes: [['data-node-id', node.id]],
    style: [
      ['position', 'absolute'],
      ['left', px(bounds.x - parent.x)],
      ['top', px(bounds.y - parent.y)],
      ['width', px(bounds.width)],
      ['height', px(bounds.height)],
      ['box-sizing', 'border-box'],
      ['margin', '0'],
    ],
    text: undefined,
    children: [],
  }
  const { attributes, style } = element

  if (node.kind !== 'box') attributes.push(['data-kind', node.kind])
  if (node.role !== undefined) attributes.push(['data-role', node.role])
  const role = ariaRole(node, { parentRole, isButton: asButton }, (child) => targets.has(child.id) && !holdsTarget(child, targets)) ?? (target !== undefined && !asButton ? 'group' : undefined)
  if (role !== undefined) attributes.push(['role', role])
  // A heading without a level reads as level 2; a frame may say otherwise.
  if (role === 'heading') attributes.push(['aria-level', String(headingLevel(node))])
  const label = accessibleName(node, target, sensitive)
  // A button's name must contain the words it shows (people speak what they see to select it).
  if (label !== undefined && !(asButton && !containsVisibleText(label, node))) attributes.push(['aria-label', label])

  if (target !== undefined) {
    if (asButton) attributes.push(['type', 'button'])
    attributes.push(['data-action', target.contract.id], ['data-risk', target.risk])
    if (asButton && !target.target.enabled) attributes.push(['disabled', ''])
    // A button's user-agent padding, border and font would move its content off the layout.
    style.push(['padding', '0'], ['border', 'none'], ['background', 'none'], ['font', 'inherit'], ['text-align', 'left'])
  }
  if (disabled || (target !== undefined && !target.target.enabled)) attributes.push(['aria-disabled', 'true'])

  if (node.kind === 'image') {
    attributes.push(['alt', node.name ?? ''])
    if (node.src !== undefined && isSafeImageUrl(node.src)) attributes.push(['src', node.src])
  } else if (node.kind === 'text') {
    element.text = sensitive ? MASK : (node.text ?? '')
    const metrics = fontMetrics(node.style)
    // The layout measured the text with fixed font metrics; a real font a hair wider must not
    // break a line the layout kept whole, so a one-line text never wraps.
    const oneLine = wrapText(node.text ?? '', bounds.width, metrics).length <= 1
    style.push(
      ['font-size', px(metrics.fontSize)],
      ['line-height', px(metrics.lineHeight)],
      // Otherwise the layout's wrap model: spaces collapse, newlines break, long words are cut.
      ['white-space', oneLine ? 'nowrap' : 'pre-line'],
      ['overflow-wrap', 'anywhere'],
    )
  } else if (node.value !== undefined && node.value !== null && (node.children?.length ?? 0) === 0) {
    element.text = sensitive ? MASK : String(node.value)
  }
  addCssColor(style, 'color', node.style?.color)
  addCssColor(style, 'background', node.style?.background)
  addCssColor(style, 'border', node.style?.border)

  for (const child of node.children ?? []) {
    const described = describeNode(frame, child, bounds, targets, disabled, role ?? parentRole)
    if (described !== null) element.children.push(described)
  }
  return element
}

function holdsTarget(node: UiNode, targets: ReadonlyMap<string, NodeTarget>): boolean {
  return (node.children ?? []).some((child) => targets.has(child.id) || holdsTarget(child, targets))
}

function visibleText(node: UiNode): string {
  if (node.kind === 'text') return node.text ?? ''
  return (node.children ?? []).map(visibleText).filter((part) => part.length > 0).join(' ')
}

/** Whether `label` contains what the node shows as text (no text shown: any label will do). */
function containsVisibleText(label: string, node: UiNode): boolean {
  const shown = visibleText(node).replace(/\s+/g, ' ').trim().toLowerCase()
  return shown.length === 0 || label.replace(/\s+/g, ' ').toLowerCase().includes(shown)
}

function headingLevel(node: UiNode): number {
  const level = node.semantic?.level
  return typeof level === 'number' && Number.isInteger(level) && level >= 1 && level <= 6 ? level : 2
}

/** The label, unless it would repeat a secret the node is masking. */
function accessibleName(node: UiNode, target: NodeTarget | undefined, sensitive: boolean): string | undefined {
  const name = node.name ?? target?.contract.title
  if (name === undefined || !sensitive) return name
  const secret = node.text ?? (node.value === undefined || node.value === null ? undefined : String(node.value))
  return name === secret ? undefined : name
}

/** Images load only from the web or inline image data: no javascript:, no file:, no relative paths into the host. */
export function isSafeImageUrl(src: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(src) || /^data:image\/[a-z0-9.+-]+[;,][^\s]*$/i.test(src)
}

/**
 * Colours and borders come from app code that may echo untrusted data; only plain values
 * (names, #hex, rgb()/hsl(), widths and border styles) pass — never url(), expression()
 * or anything that could close the declaration.
 */
export function isSafeCssValue(value: string): boolean {
  return /^[#a-zA-Z0-9 .,%()-]{1,64}$/.test(value) && !/(url|expression|image|attr|var)\s*\(/i.test(value)
}

function addCssColor(style: RenderElement['style'], property: string, value: string | undefined): void {
  if (value !== undefined && isSafeCssValue(value)) style.push([property, value])
}

function boundsOf(frame: Frame, id: string): Bounds | undefined {
  return Object.hasOwn(frame.layout, id) ? frame.layout[id] : undefined
}

function px(value: number): string {
  return `${round(value)}px`
}
