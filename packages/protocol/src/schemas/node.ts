import { z } from 'zod'
import { ActionContract } from './action-contract.js'
import { JsonObject } from './json.js'

export const NodeKind = z.enum(['box', 'text', 'image', 'scene'])
export type NodeKind = z.infer<typeof NodeKind>

/** Boolean UI states an agent needs to reason about (disabled, selected, checked…). */
export const NodeStates = z.record(z.string(), z.boolean())
export type NodeStates = z.infer<typeof NodeStates>

/** Layout style for yoga: the subset of flexbox Tessera supports. */
export const NodeStyle = z.looseObject({
  width: z.union([z.number(), z.string()]).optional(),
  height: z.union([z.number(), z.string()]).optional(),
  minWidth: z.number().optional(),
  minHeight: z.number().optional(),
  maxWidth: z.number().optional(),
  maxHeight: z.number().optional(),
  flexDirection: z.enum(['row', 'column', 'row-reverse', 'column-reverse']).optional(),
  flexGrow: z.number().optional(),
  flexShrink: z.number().optional(),
  flexBasis: z.number().optional(),
  flexWrap: z.enum(['wrap', 'nowrap', 'wrap-reverse']).optional(),
  justifyContent: z.enum(['flex-start', 'center', 'flex-end', 'space-between', 'space-around', 'space-evenly']).optional(),
  alignItems: z.enum(['flex-start', 'center', 'flex-end', 'stretch', 'baseline']).optional(),
  alignSelf: z.enum(['auto', 'flex-start', 'center', 'flex-end', 'stretch', 'baseline']).optional(),
  padding: z.number().optional(),
  paddingX: z.number().optional(),
  paddingY: z.number().optional(),
  margin: z.number().optional(),
  gap: z.number().optional(),
  position: z.enum(['relative', 'absolute']).optional(),
  left: z.number().optional(),
  top: z.number().optional(),
  fontSize: z.number().optional(),
  lineHeight: z.number().optional(),
  color: z.string().optional(),
  background: z.string().optional(),
  border: z.string().optional(),
})
export type NodeStyle = z.infer<typeof NodeStyle>

/** A selector hint's shape: `#` or `.`, then a CSS name of letters, digits, `-` and `_` (not a digit first, nor `-` and a digit). */
export const SELECTOR_HINT = /^[#.](?:[A-Za-z_]|-[A-Za-z_-])[\w-]{0,38}$/

/** Semantic props: what the node means, independent of how it looks. */
export const SemanticProps = z.looseObject({
  agentAction: ActionContract.optional(),
  /**
   * Input the node itself supplies to its action: a row of a list opens its own claim. A
   * request through this node may leave these fields out and may not contradict them.
   */
  agentActionInput: JsonObject.optional(),
  /** The node's value is a secret: it is redacted before anything leaves the surface. */
  sensitive: z.boolean().optional(),
  description: z.string().optional(),
  data: JsonObject.optional(),
  /**
   * How the markup tells apart an element that has no role and no name (`#slider-range`,
   * `.ui-slider-handle`): its id, else its first class, as a selector. An unnamed clickable
   * says nothing else about itself.
   */
  selectorHint: z.string().regex(SELECTOR_HINT).optional(),
})
export type SemanticProps = z.infer<typeof SemanticProps>

/**
 * A part of the UI its surface has not read yet: a huge page reads what is in view and folds
 * the rest unread, saying roughly what each part holds. Expanding it (surface_snapshot or
 * browser_snapshot with its @ref) reads it; it then stays read while it lasts.
 */
export const UnreadPart = z.object({
  /** About how many outline lines it holds (counted from the DOM, on the high side). */
  lines: z.number().int().nonnegative(),
  /** About how many elements in it can be acted on. */
  actions: z.number().int().nonnegative(),
  /** Its first heading. */
  heading: z.string().max(200).optional(),
  /** Its first words, when it holds no heading. */
  words: z.string().max(200).optional(),
})
export type UnreadPart = z.infer<typeof UnreadPart>

/**
 * A text the frame holds only part of: a log of 60,000 lines keeps the lines in view (or
 * those a find asked for), from its line `line` of `lines`. A find looks through all of it.
 */
export const TextExcerpt = z.object({
  line: z.number().int().positive(),
  lines: z.number().int().positive(),
})
export type TextExcerpt = z.infer<typeof TextExcerpt>

export interface UiNode {
  id: string
  kind: NodeKind
  role?: string | undefined
  name?: string | undefined
  value?: string | number | boolean | null | undefined
  text?: string | undefined
  src?: string | undefined
  states?: NodeStates | undefined
  style?: NodeStyle | undefined
  semantic?: SemanticProps | undefined
  unread?: UnreadPart | undefined
  excerpt?: TextExcerpt | undefined
  /** Of a text: it runs on from the text before it with no space between (`closure API` then `.` in `<em>closure API</em>.`). */
  glued?: true | undefined
  children?: UiNode[] | undefined
  [unknown: string]: unknown
}

/** One element of the declarative tree; the same tree renders, lays out and is snapshotted. */
export const UiNode: z.ZodType<UiNode> = z.lazy(() =>
  z.looseObject({
    id: z.string().min(1).max(256),
    kind: NodeKind,
    role: z.string().max(64).optional(),
    name: z.string().max(10_000).optional(),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    text: z.string().optional(),
    src: z.string().optional(),
    states: NodeStates.optional(),
    style: NodeStyle.optional(),
    semantic: SemanticProps.optional(),
    unread: UnreadPart.optional(),
    excerpt: TextExcerpt.optional(),
    glued: z.literal(true).optional(),
    children: z.array(UiNode).optional(),
  }),
) as z.ZodType<UiNode>
