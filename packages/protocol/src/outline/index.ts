export { outlineFrame, type Outline, type OutlineOptions } from './outline.js'
export { outlineDelta, type DeltaTextOptions } from './delta-text.js'
export { RefTable, isRef, ledgerIdOf, refFor } from './refs.js'
export { estimateTokens } from './token-estimate.js'
