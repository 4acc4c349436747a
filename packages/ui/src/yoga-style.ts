import { type NodeStyle, TesseraError } from '@tessera/protocol'
import {
  Align,
  Edge,
  FlexDirection,
  Gutter,
  Justify,
  PositionType,
  Wrap,
  type Node as YogaNode,
} from 'yoga-layout'

const FLEX_DIRECTION: Record<NonNullable<NodeStyle['flexDirection']>, FlexDirection> = {
  row: FlexDirection.Row,
  column: FlexDirection.Column,
  'row-reverse': FlexDirection.RowReverse,
  'column-reverse': FlexDirection.ColumnReverse,
}

const FLEX_WRAP: Record<NonNullable<NodeStyle['flexWrap']>, Wrap> = {
  wrap: Wrap.Wrap,
  nowrap: Wrap.NoWrap,
  'wrap-reverse': Wrap.WrapReverse,
}

const JUSTIFY: Record<NonNullable<NodeStyle['justifyContent']>, Justify> = {
  'flex-start': Justify.FlexStart,
  center: Justify.Center,
  'flex-end': Justify.FlexEnd,
  'space-between': Justify.SpaceBetween,
  'space-around': Justify.SpaceAround,
  'space-evenly': Justify.SpaceEvenly,
}

const ALIGN: Record<NonNullable<NodeStyle['alignSelf']>, Align> = {
  auto: Align.Auto,
  'flex-start': Align.FlexStart,
  center: Align.Center,
  'flex-end': Align.FlexEnd,
  stretch: Align.Stretch,
  baseline: Align.Baseline,
}

type Dimension = 'width' | 'height'

/**
 * Copies a node's NodeStyle onto a yoga node. Only fields that are present are set: each
 * setter is a call into WebAssembly, and most nodes of a large tree set one or two.
 * Anything yoga would misread (an unknown enum value, a size like "10px") is rejected
 * with a message naming the node, rather than silently laid out some other way.
 */
export function applyStyle(yogaNode: YogaNode, style: NodeStyle, nodeId: string): void {
  if (style.width !== undefined) setDimension(yogaNode, 'width', style.width, nodeId)
  if (style.height !== undefined) setDimension(yogaNode, 'height', style.height, nodeId)
  if (style.minWidth !== undefined) yogaNode.setMinWidth(number(style.minWidth, 'minWidth', nodeId))
  if (style.minHeight !== undefined) yogaNode.setMinHeight(number(style.minHeight, 'minHeight', nodeId))
  if (style.maxWidth !== undefined) yogaNode.setMaxWidth(number(style.maxWidth, 'maxWidth', nodeId))
  if (style.maxHeight !== undefined) yogaNode.setMaxHeight(number(style.maxHeight, 'maxHeight', nodeId))
  if (style.flexDirection !== undefined) {
    yogaNode.setFlexDirection(lookup(FLEX_DIRECTION, style.flexDirection, 'flexDirection', nodeId))
  }
  if (style.flexGrow !== undefined) yogaNode.setFlexGrow(number(style.flexGrow, 'flexGrow', nodeId))
  if (style.flexShrink !== undefined) yogaNode.setFlexShrink(number(style.flexShrink, 'flexShrink', nodeId))
  if (style.flexBasis !== undefined) yogaNode.setFlexBasis(number(style.flexBasis, 'flexBasis', nodeId))
  if (style.flexWrap !== undefined) yogaNode.setFlexWrap(lookup(FLEX_WRAP, style.flexWrap, 'flexWrap', nodeId))
  if (style.justifyContent !== undefined) {
    yogaNode.setJustifyContent(lookup(JUSTIFY, style.justifyContent, 'justifyContent', nodeId))
  }
  if (style.alignItems !== undefined) yogaNode.setAlignItems(lookup(ALIGN, style.alignItems, 'alignItems', nodeId))
  if (style.alignSelf !== undefined) yogaNode.setAlignSelf(lookup(ALIGN, style.alignSelf, 'alignSelf', nodeId))
  // The general value first, so the per-axis shorthands override it as in CSS-in-JS.
  if (style.padding !== undefined) yogaNode.setPadding(Edge.All, number(style.padding, 'padding', nodeId))
  if (style.paddingX !== undefined) yogaNode.setPadding(Edge.Horizontal, number(style.paddingX, 'paddingX', nodeId))
  if (style.paddingY !== undefined) yogaNode.setPadding(Edge.Vertical, number(style.paddingY, 'paddingY', nodeId))
  if (style.margin !== undefined) yogaNode.setMargin(Edge.All, number(style.margin, 'margin', nodeId))
  if (style.gap !== undefined) yogaNode.setGap(Gutter.All, number(style.gap, 'gap', nodeId))
  if (style.position === 'absolute') yogaNode.setPositionType(PositionType.Absolute)
  else if (style.position !== undefined && style.position !== 'relative') {
    throw styleError(nodeId, 'position', '"relative" or "absolute"', style.position)
  }
  if (style.left !== undefined) yogaNode.setPosition(Edge.Left, number(style.left, 'left', nodeId))
  if (style.top !== undefined) yogaNode.setPosition(Edge.Top, number(style.top, 'top', nodeId))
}

const PERCENT = /^(-?\d+(?:\.\d+)?)%$/

function setDimension(yogaNode: YogaNode, dimension: Dimension, value: number | string, nodeId: string): void {
  if (typeof value === 'number') {
    const points = number(value, dimension, nodeId)
    if (dimension === 'width') yogaNode.setWidth(points)
    else yogaNode.setHeight(points)
    return
  }
  if (value === 'auto') {
    if (dimension === 'width') yogaNode.setWidthAuto()
    else yogaNode.setHeightAuto()
    return
  }
  const percent = PERCENT.exec(value)?.[1]
  if (percent === undefined) throw styleError(nodeId, dimension, 'a number, a percentage like "50%", or "auto"', value)
  if (dimension === 'width') yogaNode.setWidthPercent(Number(percent))
  else yogaNode.setHeightPercent(Number(percent))
}

function number(value: unknown, field: string, nodeId: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw styleError(nodeId, field, 'a finite number', value)
  return value
}

function lookup<K extends string, V>(table: Record<K, V>, value: unknown, field: string, nodeId: string): V {
  if (typeof value === 'string' && Object.hasOwn(table, value)) return table[value as K]
  throw styleError(nodeId, field, `one of ${Object.keys(table).map((k) => `"${k}"`).join(', ')}`, value)
}

function styleError(nodeId: string, field: string, expected: string, found: unknown): TesseraError {
  const shown = typeof found === 'string' ? `"${found}"` : String(found)
  return new TesseraError('invalid_frame', `node "${nodeId}": style.${field} expected ${expected}, found ${shown}`, {
    nodeId,
    field: `style.${field}`,
    expected,
    found: typeof found === 'string' || typeof found === 'number' ? found : typeof found,
  })
}
