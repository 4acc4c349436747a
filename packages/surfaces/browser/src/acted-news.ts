import { outlinePage } from '@tessera/kit'
import { type Frame, RefTable, type UiNode, ledgerIdOf } from '@tessera/protocol'
import type { ClassChange } from './browser-schemas.js'
import { changesFence, onlyFocusDiffers, refsIn, withoutFocus } from './page-delta.js'

/**
 * The line an element reads as in a frame: the first line of its expansion. Nothing where the
 * frame has no such element (it went, or sits in a part of a huge page not read).
 */
function lineIn(frame: Frame, ref: string): string | undefined {
  if (RefTable.forFrame(frame).resolve(ref) === undefined) return undefined
  const lines = outlinePage(frame, { expand: `@${ref}` }).split('\n')
  return lines[lines.findIndex((line) => line.startsWith('--- page ')) + 1]?.trim()
}

/** Whether an outline prints an element's ref as the outline's own (never as a page's quoted words). */
function prints(outline: string, ref: string): boolean {
  return outline.split('\n').some((line) => refsIn(line).includes(ref))
}

/** Classes a click changed, by the ref of the element it named, and on the page's `html` and `body`. */
export interface ClassNews {
  elements: ReadonlyMap<string, ClassChange>
  page?: ClassChange
}

/**
 * A delta with what changed on the elements the action named where neither outline shows
 * them — a toolbar's Bold found with `find` under "… 6 more toolbars", a checkbox scrolled
 * out of view: the change the agent acted for (`~ button "Bold" @53 (pressed)`) is the
 * news it needs most, fold or not. And where nothing the tree says of a clicked element
 * changed but its classes did (a selectable list's `ui-selected`), its line says so: the
 * click was not lost — and how many of its siblings hold the class it gained, where any do
 * (a choice added to, not moved), and which lost it (a choice moved); so does the page's,
 * where nothing else changed (a theme toggled on `html`). Where the whole page came back, it
 * stands as it is.
 */
export function withActedNews(delta: string, acted: readonly string[], before: { frame: Frame; outline: string }, after: { frame: Frame; outline: string }, looks: ClassNews = { elements: new Map() }): string {
  const news: string[] = []
  const lines = delta.split('\n')
  const inDelta = new Set(lines.flatMap(refsIn))
  for (const target of new Set(acted.map((ref) => ledgerIdOf(ref) ?? ref.replace(/^@/, '')))) {
    const now = lineIn(after.frame, target)
    if (now === undefined) continue
    const printed = prints(before.outline, target) || prints(after.outline, target)
    const was = lineIn(before.frame, target)
    // That it took focus is no news: the agent acted on it; nor is it beside what else changed.
    if (!printed && now !== was && (was === undefined || !onlyFocusDiffers(was, now))) news.push(`~ ${withoutFocus(now)}`)
    // The focus the click gave it is no news beside its classes.
    else if (!inDelta.has(target) && looks.elements.has(target)) news.push(`~ ${withoutFocus(now)} ${classWords(looks.elements.get(target) as ClassChange)}`)
  }
  if (news.length === 0 && looks.page !== undefined && lines[1] === 'page unchanged') news.push(`~ page ${classWords(looks.page)}`)
  // Nothing the tree says changed, yet what the action moved moved: a slider's handle a key or a drag took along its track.
  if (news.length === 0 && lines[1] === 'page unchanged') {
    for (const target of new Set([...acted.map((ref) => ledgerIdOf(ref) ?? ref.replace(/^@/, '')), ...focusedRefs(before.frame)])) {
      const moved = movedWords(before.frame, after.frame, target)
      const now = moved === undefined ? undefined : lineIn(after.frame, target)
      if (now !== undefined) news.push(`~ ${withoutFocus(now)} (${moved})`)
    }
  }
  if (news.length === 0) return delta
  const end = lines.findIndex((line) => line.startsWith('--- end '))
  if (lines.some((line) => line.startsWith('--- changes ')) && end > 0) return [...lines.slice(0, end), ...news, ...lines.slice(end)].join('\n')
  if (lines[1] !== 'page unchanged') return delta
  // Nothing the outline shows changed: the element's line, fenced as the page's words are.
  const fence = changesFence(after.outline)
  return [lines[0] as string, fence.open, ...news, fence.close, ...lines.slice(2)].join('\n')
}

/** The refs of the elements a frame says have the focus: where a key goes. */
function focusedRefs(frame: Frame): string[] {
  const refs = RefTable.forFrame(frame)
  const found: string[] = []
  const visit = (node: UiNode): void => {
    if (node.states?.focused === true) {
      const ref = refs.refOf(node.id)
      if (ref !== undefined) found.push(ref)
    }
    for (const child of node.children ?? []) visit(child)
  }
  visit(frame.tree)
  return found
}

/** How far an element was drawn from where it was (`moved 26 px right`); nothing for less than MOVED_MIN_PX, or an element not in both frames. */
function movedWords(before: Frame, after: Frame, ref: string): string | undefined {
  const was = drawnAt(before, ref)
  const now = drawnAt(after, ref)
  if (was === undefined || now === undefined) return undefined
  const dx = Math.round(now.x - was.x)
  const dy = Math.round(now.y - was.y)
  const ways = [...(Math.abs(dx) >= MOVED_MIN_PX ? [`${Math.abs(dx)} px ${dx > 0 ? 'right' : 'left'}`] : []), ...(Math.abs(dy) >= MOVED_MIN_PX ? [`${Math.abs(dy)} px ${dy > 0 ? 'down' : 'up'}`] : [])]
  return ways.length === 0 ? undefined : `moved ${ways.join(', ')}`
}

/** Less than this is a redraw's rounding, not a move. */
const MOVED_MIN_PX = 2

/** Where a frame draws the element a ref names (its corner, in page coordinates). */
function drawnAt(frame: Frame, ref: string): { x: number; y: number } | undefined {
  const nodeId = RefTable.forFrame(frame).resolve(ref)
  return nodeId === undefined ? undefined : frame.layout[nodeId]
}

function classWords(change: ClassChange): string {
  const also = change.alsoOn === undefined ? [] : [`(also on ${change.alsoOn} sibling${change.alsoOn === 1 ? '' : 's'})`]
  const taken = change.takenFrom === undefined ? [] : [`(taken from ${change.takenFrom.map((words) => (words === '' ? 'a sibling' : JSON.stringify(words))).join(', ')})`]
  return ['class', ...change.added.map((name) => `+${name}`), ...change.removed.map((name) => `-${name}`), ...also, ...taken].join(' ')
}
