import { type Bounds, type Frame, type ResolvedTarget, type UiNode, resolvedTargets } from '@tessera/protocol'
import { round } from './layout-engine.js'
import { isDisabled, isHidden, isSensitive } from '@tessera/protocol'
import { DEFAULT_FONT_METRICS, fontMetrics } from './text-measure.js'

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
  const targets = new Map<string, ResolvedTarget>()
  for (const resolved of resolvedTargets(frame)) if (resolved.target.nodeId !== undefined && !targets.has(resolved.target.nodeId)) targets.set(resolved.target.nodeId, resolved)
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
  const root = describeNode(frame, frame.tree, { x: 0, y: 0, width: 0, height: 0 }, targets, false)
  if (root !== null) container.children.push(root)
  return container
}

function describeNode(
  frame: Frame,
  node: UiNode,
  parent: Bounds,
  targets: ReadonlyMap<string, ResolvedTarget>,
  ancestorDisabled: boolean,
): RenderElement | null {
  const bounds = boundsOf(frame, node.id)
  // Not laid out or hidden: there is nothing a human could see, so nothing is drawn.
  if (bounds === undefined || isHidden(node)) return null
  const disabled = ancestorDisabled || isDisabled(node)
  const target = targets.get(node.id)
  const sensitive = isSensitive(node)
  const element: RenderElement = {
    tag: target !== undefined ? 'button' : node.kind === 'text' ? 'span' : node.kind === 'image' ? 'img' : 'div',
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
  const role = node.role ?? (target === undefined ? undefined : 'button')
  if (role !== undefined) attributes.push(['role', role])
  const label = accessibleName(node, target, sensitive)
  if (label !== undefined) attributes.push(['aria-label', label])

  if (target !== undefined) {
    attributes.push(['type', 'button'], ['data-action', target.contract.id], ['data-risk', target.risk])
    if (!target.target.enabled) attributes.push(['disabled', ''])
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
    style.push(
      ['font-size', px(metrics.fontSize)],
      ['line-height', px(metrics.lineHeight)],
      // Matches the layout's wrap model: spaces collapse, newlines break, long words are cut.
      ['white-space', 'pre-line'],
      ['overflow-wrap', 'anywhere'],
    )
  } else if (node.value !== undefined && node.value !== null && (node.children?.length ?? 0) === 0) {
    element.text = sensitive ? MASK : String(node.value)
  }
  addCssColor(style, 'color', node.style?.color)
  addCssColor(style, 'background', node.style?.background)
  addCssColor(style, 'border', node.style?.border)

  for (const child of node.children ?? []) {
    const described = describeNode(frame, child, bounds, targets, disabled)
    if (described !== null) element.children.push(described)
  }
  return element
}

/** The label, unless it would repeat a secret the node is masking. */
function accessibleName(node: UiNode, target: ResolvedTarget | undefined, sensitive: boolean): string | undefined {
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
