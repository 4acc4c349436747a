import type { ResolvedTarget } from '../frame/targets.js'
import type { Bounds } from '../schemas/geometry.js'

/**
 * How one node becomes one line of an outline or of a delta. Shared so a model sees the
 * same shape for a node whether it meets it in a snapshot or in the result of an action:
 *
 *   role "name": content [action-id risk flags] @ref (states) <x,y wxh>
 *
 * Every part is optional; the order is fixed so lines stay comparable.
 */

/** Roles that add nothing a model needs: the role word is never printed for them. */
const SILENT_ROLES: ReadonlySet<string> = new Set(['text', 'generic', 'none', 'presentation', 'paragraph', 'statictext', 'inlinetextbox', 'div', 'span'])

/** Roles that, without a name, are layout or decoration rather than meaning (an image with alt ''); such a node is dropped. */
const WRAPPER_ROLES: ReadonlySet<string> = new Set([...SILENT_ROLES, 'group', 'img', 'image'])

/** Roles that only group; unnamed and around a single thing, they group nothing and are dropped. */
const CONTAINER_ROLES: ReadonlySet<string> = new Set([
  'application',
  'article',
  'banner',
  'complementary',
  'contentinfo',
  'document',
  'form',
  'list',
  'main',
  'navigation',
  'region',
  'rowgroup',
  'section',
  'toolbar',
])

/** Roles an agent can act on even when no contract says so; they get a ref. */
const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'option',
  'treeitem',
])

/** The boolean states worth a word, in the order they are printed. */
const STATE_WORDS = ['checked', 'selected', 'expanded', 'pressed', 'focused', 'required', 'invalid', 'readonly'] as const

/** Texts longer than this are cut: a model needs to recognise a text, not to read a page of it. */
export const MAX_TEXT_CHARS = 120

/** Printed instead of a secret. The same marker the gateway writes into redacted frames. */
export const REDACTED_MARK = '[REDACTED]'

export function displayRole(role: string | undefined): string | undefined {
  if (role === undefined || role === '') return undefined
  return SILENT_ROLES.has(role.toLowerCase()) ? undefined : role
}

export function isWrapperRole(role: string | undefined): boolean {
  return role === undefined || role === '' || WRAPPER_ROLES.has(role.toLowerCase())
}

export function isContainerRole(role: string | undefined): boolean {
  return role !== undefined && CONTAINER_ROLES.has(role.toLowerCase())
}

export function isInteractiveRole(role: string | undefined): boolean {
  return role !== undefined && INTERACTIVE_ROLES.has(role.toLowerCase())
}

/** Whitespace collapsed to single spaces, so one node can never spill onto a second line. */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Cut to `max` characters with '…', never inside a surrogate pair. */
export function truncate(text: string, max = MAX_TEXT_CHARS): string {
  if (text.length <= max) return text
  const points = Array.from(text.slice(0, max + 1))
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`
}

/** A text as a JSON string: quotes and control characters escaped, one line, bounded. */
export function quote(text: string): string {
  return JSON.stringify(truncate(singleLine(text)))
}

/** Routes and surface ids are printed bare when they can be, quoted when they would be ambiguous. */
export function bare(text: string, max = 200): string {
  const cut = truncate(text, max)
  return /^[^\s"]+$/.test(cut) ? cut : JSON.stringify(singleLine(cut))
}

/** A node value as shown after the colon; undefined when there is nothing to show. */
export function formatValue(value: string | number | boolean | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return singleLine(value) === '' ? undefined : quote(value)
  return String(value)
}

/** `[approve-payout write confirm input]`: what the action is, how risky, and what it will ask for. */
export function actionBadge(resolved: ResolvedTarget, markDisabled = false): string {
  const flags = [resolved.contract.id, resolved.risk]
  if (resolved.contract.requiresConfirmation === true) flags.push('confirm')
  if (resolved.contract.inputSchema !== undefined) flags.push('input')
  if (markDisabled && !resolved.target.enabled) flags.push('disabled')
  return `[${flags.join(' ')}]`
}

/** The state words of a node; `expanded: false` is news (a closed menu), so it reads `collapsed`. */
export function stateWords(states: Readonly<Record<string, boolean>> | undefined): string[] {
  if (states === undefined) return []
  const words: string[] = []
  for (const word of STATE_WORDS) if (states[word] === true) words.push(word)
  if (states.expanded === false) words.push('collapsed')
  return words
}

export function formatBounds(bounds: Bounds): string {
  return `<${Math.round(bounds.x)},${Math.round(bounds.y)} ${Math.round(bounds.width)}x${Math.round(bounds.height)}>`
}

export interface LineParts {
  role?: string | undefined
  name?: string | undefined
  /** Already formatted: quoted texts, bare numbers, or the redaction mark. */
  content: string[]
  badges: string[]
  ref?: string | undefined
  states: string[]
  bounds?: Bounds | undefined
}

export function formatLine(parts: LineParts): string {
  const head: string[] = []
  if (parts.role !== undefined) head.push(parts.role)
  if (parts.name !== undefined) head.push(quote(parts.name))
  let line = head.join(' ')
  if (parts.content.length > 0) line += line === '' ? parts.content.join(' ') : `: ${parts.content.join(' ')}`
  const tail: string[] = [...parts.badges]
  if (parts.ref !== undefined) tail.push(`@${parts.ref}`)
  if (parts.states.length > 0) tail.push(`(${parts.states.join(', ')})`)
  if (parts.bounds !== undefined) tail.push(formatBounds(parts.bounds))
  if (tail.length > 0) line += line === '' ? tail.join(' ') : ` ${tail.join(' ')}`
  return line === '' ? '(unnamed)' : line
}

/**
 * Whether `part` appears in `whole` as whole words ("c-1001" in "c-1001 Ada Brennan", but
 * not "c-100" in "c-1001"): a text its parent's name already says is not repeated.
 */
export function saysAlready(whole: string, part: string): boolean {
  if (part === '') return true
  let from = 0
  for (;;) {
    const at = whole.indexOf(part, from)
    if (at < 0) return false
    const before = whole.slice(0, at)
    const after = whole.slice(at + part.length)
    if (!/[\p{L}\p{N}]$/u.test(before) && !/^[\p{L}\p{N}]/u.test(after)) return true
    from = at + 1
  }
}
