import type { Layout, UiNode } from '@tessera/protocol'
import { type Viewport, createLayoutEngine } from './layout-engine.js'

/**
 * Lays the tree out with flexbox (yoga) inside `viewport`, returning absolute bounds for
 * every node keyed by id. Defaults are yoga's (React Native's): column direction,
 * stretch, no shrink; hidden nodes take no space. One-shot: every yoga node is freed
 * before returning, even when a style is rejected. To lay out successive versions of a
 * UI faster, keep a LayoutEngine instead.
 */
export function computeLayout(tree: UiNode, viewport: Viewport): Layout {
  const engine = createLayoutEngine()
  try {
    return engine.layout(tree, viewport)
  } finally {
    engine.dispose()
  }
}
