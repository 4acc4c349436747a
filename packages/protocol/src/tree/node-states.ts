import type { UiNode } from '../schemas/node.js'

/**
 * What a node's states and semantic flags mean to layout, action extraction, hit-testing
 * and rendering. Kept in one place so those four can never disagree.
 */

/** A hidden node takes no space, is never hit and cannot be acted on — nor can anything inside it. */
export function isHidden(node: UiNode): boolean {
  return node.states?.hidden === true
}

/** A disabled node disables everything inside it, like a disabled fieldset. */
export function isDisabled(node: UiNode): boolean {
  return node.states?.disabled === true
}

/** Same test as the gateway's redaction, so renderers mask exactly what traces redact. */
export function isSensitive(node: UiNode): boolean {
  return node.semantic?.sensitive === true || node.role === 'password' || node.states?.password === true
}
