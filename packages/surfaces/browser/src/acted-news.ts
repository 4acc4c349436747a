import { outlinePage } from '@tessera/kit'
import { type Frame, RefTable } from '@tessera/protocol'
import { changesFence, onlyFocusDiffers, refsIn } from './page-delta.js'

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

/**
 * A delta with what changed on the elements the action named where neither outline shows
 * them — a toolbar's Bold found with `find` under "… 6 more toolbars", a checkbox scrolled
 * out of view: the change the agent acted for (`~ button "Bold" @e53 (pressed)`) is the
 * news it needs most, fold or not. Where the whole page came back, it stands as it is.
 */
export function withActedNews(delta: string, acted: readonly string[], before: { frame: Frame; outline: string }, after: { frame: Frame; outline: string }): string {
  const news: string[] = []
  for (const target of new Set(acted.map((ref) => ref.replace(/^@/, '')))) {
    if (prints(before.outline, target) || prints(after.outline, target)) continue
    const now = lineIn(after.frame, target)
    const was = lineIn(before.frame, target)
    // That it took focus is no news: the agent acted on it.
    if (now !== undefined && now !== was && (was === undefined || !onlyFocusDiffers(was, now))) news.push(`~ ${now}`)
  }
  if (news.length === 0) return delta
  const lines = delta.split('\n')
  const end = lines.findIndex((line) => line.startsWith('--- end '))
  if (lines.some((line) => line.startsWith('--- changes ')) && end > 0) return [...lines.slice(0, end), ...news, ...lines.slice(end)].join('\n')
  if (lines[1] !== 'page unchanged') return delta
  // Nothing the outline shows changed: the element's line, fenced as the page's words are.
  const fence = changesFence(after.outline)
  return [lines[0] as string, fence.open, ...news, fence.close, ...lines.slice(2)].join('\n')
}
