export {
  box,
  text,
  image,
  scene,
  flattenChildren,
  type ElementNode,
  type Child,
  type CommonProps,
  type BoxProps,
  type SceneProps,
  type TextProps,
  type ImageProps,
} from './elements.js'
export { agentAction } from './agent-action.js'
export { finalizeTree, MAX_NODE_ID_LENGTH } from './node-ids.js'
export {
  measureText,
  wrapText,
  fontMetrics,
  charsPerLine,
  DEFAULT_FONT_SIZE,
  DEFAULT_FONT_METRICS,
  CHAR_WIDTH_RATIO,
  LINE_HEIGHT_RATIO,
  type FontMetrics,
  type TextSize,
} from './text-measure.js'
export { computeLayout } from './layout.js'
export { createLayoutEngine, LAYOUT_PRECISION, type LayoutEngine, type Viewport } from './layout-engine.js'
export { isHidden, isDisabled, isSensitive } from '@tessera/protocol'
export { hitTest, nodeAtPath, findNode, contains, type Point } from '@tessera/protocol'
export { buildFrame, type BuildFrameInput } from './frame.js'
export { MASK, isSafeImageUrl, isSafeCssValue, type RenderOptions } from './render-model.js'
export { renderHtml, escapeText, escapeAttribute, type RenderHtmlOptions } from './render-html.js'
export { renderDom, type RenderDomOptions } from './render-dom.js'
export { renderAnsi, type RenderAnsiOptions } from './render-ansi.js'
export { AppRuntime, defineApp, type AgentApp, type ActionContext, type ActionHandler, type ActionOutcome } from './app.js'
