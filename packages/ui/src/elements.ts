import type { NodeKind, NodeStates, NodeStyle, SemanticProps } from '@tessera/protocol'

/**
 * A node as an app writes it: like a protocol UiNode, but ids are optional (finalizeTree
 * derives them) and a `key` can name a node among its siblings. Unknown fields are allowed
 * so that a finished UiNode is also a valid ElementNode.
 */
export interface ElementNode {
  id?: string | undefined
  key?: string | number | undefined
  kind: NodeKind
  role?: string | undefined
  name?: string | undefined
  value?: string | number | boolean | null | undefined
  text?: string | undefined
  src?: string | undefined
  states?: NodeStates | undefined
  style?: NodeStyle | undefined
  semantic?: SemanticProps | undefined
  children?: ElementNode[] | undefined
  [extra: string]: unknown
}

/** What may appear in a children list: falsy entries and nested arrays make conditional rendering and `.map()` painless. */
export type Child = ElementNode | null | false | undefined | readonly Child[]

export interface CommonProps {
  /** Names the node among its siblings, so its id survives insertions and reorders. */
  key?: string | number | undefined
  /** A global id; wins over the derived one. */
  id?: string | undefined
  role?: string | undefined
  name?: string | undefined
  value?: string | number | boolean | null | undefined
  states?: NodeStates | undefined
  style?: NodeStyle | undefined
  semantic?: SemanticProps | undefined
  /** Shorthand for `semantic: { sensitive: true }`: the value is a secret. */
  sensitive?: boolean | undefined
}

export type BoxProps = CommonProps
export type SceneProps = CommonProps

export interface TextProps extends CommonProps {
  text: string
}

export interface ImageProps extends CommonProps {
  src: string
  /** Required because an agent (and a screen reader) only ever sees the alt text; use '' for decoration. */
  alt: string
}

export function box(props: BoxProps = {}, children?: readonly Child[]): ElementNode {
  return createElement('box', props, {}, children)
}

export function scene(props: SceneProps = {}, children?: readonly Child[]): ElementNode {
  return createElement('scene', props, { role: 'scene' }, children)
}

export function text(propsOrString: TextProps | string): ElementNode {
  const props: TextProps = typeof propsOrString === 'string' ? { text: propsOrString } : propsOrString
  // A secret's text must not leak through its accessible name, so only non-sensitive text names itself.
  const sensitive = props.sensitive === true || props.semantic?.sensitive === true
  const defaults = sensitive ? { role: 'text' } : { role: 'text', name: props.text }
  return createElement('text', props, defaults, undefined, { text: props.text })
}

export function image(props: ImageProps): ElementNode {
  return createElement('image', props, { role: 'img', name: props.alt }, undefined, { src: props.src })
}

/** Flattens nested child lists and drops null/false/undefined entries. */
export function flattenChildren(children: readonly Child[]): ElementNode[] {
  const out: ElementNode[] = []
  const visit = (list: readonly Child[]): void => {
    for (const child of list) {
      if (child === null || child === undefined || child === false) continue
      if (Array.isArray(child)) visit(child as readonly Child[])
      else out.push(child as ElementNode)
    }
  }
  visit(children)
  return out
}

interface Defaults {
  role?: string
  name?: string
}

interface KindFields {
  text?: string
  src?: string
}

/** Builds a node with a fixed field order and no undefined fields, so trees serialize the same way every time. */
function createElement(
  kind: NodeKind,
  props: CommonProps,
  defaults: Defaults,
  children: readonly Child[] | undefined,
  fields: KindFields = {},
): ElementNode {
  const node: ElementNode = { kind }
  if (props.id !== undefined) node.id = props.id
  if (props.key !== undefined) node.key = props.key
  const role = props.role ?? defaults.role
  if (role !== undefined) node.role = role
  const name = props.name ?? defaults.name
  if (name !== undefined) node.name = name
  if (props.value !== undefined) node.value = props.value
  if (fields.text !== undefined) node.text = fields.text
  if (fields.src !== undefined) node.src = fields.src
  if (props.states !== undefined) node.states = props.states
  if (props.style !== undefined) node.style = props.style
  const semantic = props.sensitive === true ? { ...props.semantic, sensitive: true } : props.semantic
  if (semantic !== undefined) node.semantic = semantic
  if (children !== undefined) {
    const flat = flattenChildren(children)
    if (flat.length > 0) node.children = flat
  }
  return node
}
