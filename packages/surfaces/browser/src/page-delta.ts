import { type Frame, RefTable, type UiNode, ledgerIdOf } from '@tessera/protocol'
import { diffArrays } from 'diff'
import { ShiftedFolds } from './fold-shift.js'

/** How long a frame text must be to stand for a line that begins with it (a paragraph joined from several texts). */
const JOINED_TEXT_MIN = 16

/** Past this share of changed lines a delta reads worse than the page itself. */
const WHOLE_PAGE_SHARE = 0.6

/**
 * Lines that went side by side are listed while they take this many characters together, about
 * two lines of a wide page — a deleted todo with the footer it took along, whole; a closed
 * calendar, its first lines — and the rest of them is a count on the last one listed.
 */
const GONE_RUN_CHARS = 160
/** A line that is a role and nothing else: no name, value, state or ref. */
const ROLE_ALONE = /^[A-Za-z]+$/

/** The lines of an outline between its fences, without the nonce lines that differ every time. */
function contentLines(outline: string): { header: string; body: string[]; tail: string[] } {
  const lines = outline.split('\n')
  const open = lines.findIndex((line) => line.startsWith('--- page '))
  const close = lines.findIndex((line) => line.startsWith('--- end '))
  return { header: lines[0] ?? '', body: open < 0 || close < 0 ? lines.slice(1) : lines.slice(open + 1, close), tail: close < 0 ? [] : lines.slice(close + 1) }
}

/** An outline's header: the tile, its URL, then the frame id (the page's title is a line inside the fence). */
const HEADER = /^(\S+) (\S+) frame \S+$/

/**
 * The header of a delta: the tile, and the page's URL where it changed — the agent has the
 * rest, so a URL on the same site says only what changed: `#/active` where only the fragment
 * did, else from its path. Not the frame id: the browser's tools take none, and an
 * `action_request` may name the frame of the agent's last whole read, whose targets the
 * gateway checks (its staleness step recalls the frame).
 */
function deltaHeader(was: string, now: string): string {
  const [before, after] = [HEADER.exec(was), HEADER.exec(now)]
  if (after === null) return now
  const [, tile, url] = after
  return [tile, url !== undefined && url !== before?.[2] ? ` ${urlSince(before?.[2], url)}` : ''].join('')
}

/** A URL as it reads beside the one before it: its fragment where only that changed, its path on the same site, else whole. */
function urlSince(before: string | undefined, now: string): string {
  try {
    const [was, is] = [new URL(before ?? ''), new URL(now)]
    if (was.origin !== is.origin || is.origin === 'null') return now
    if (was.pathname === is.pathname && was.search === is.search && is.hash !== '') return is.hash
    return `${is.pathname}${is.search}${is.hash}`
  } catch {
    return now
  }
}

/** A quoted page text in a line: JSON's string syntax, as the outline writes it. */
const QUOTED = /"(?:[^"\\]|\\.)*"/
/** A line that opens with its role before its quoted name (`tabpanel "Settings"`), not with the page's words. */
const LEADING_ROLE = /^([a-z]+) "/

/** The line with every quoted page text emptied: what is left is the outline's own words, which a page cannot write. */
function withoutQuotes(line: string): string {
  return line.replace(new RegExp(QUOTED.source, 'g'), '""')
}

/** A ref in a line: a ledger number (`@12`, `@t7`; `@e12` in an older frame) or a hashed one (`@n1k2`). */
const REF_IN_LINE = / @([1-9][0-9]*|[net][0-9a-z.]+)/g

/** The first ref a line shows: the element the line is about (a packed row's first control). Never one a quoted page text says ("ask @nicolas"). */
function firstRef(line: string): string | undefined {
  return new RegExp(REF_IN_LINE.source).exec(withoutQuotes(line))?.[1]
}

/** The fence lines of a delta: the outline's own, with its nonce, the opening one saying `changes` for `page`. */
export function changesFence(outline: string): { open: string; close: string } {
  const lines = outline.split('\n')
  const open = lines.find((line) => line.startsWith('--- page ')) ?? '--- page ---'
  return { open: open.replace('--- page ', '--- changes '), close: lines.find((line) => line.startsWith('--- end ')) ?? '--- end ---' }
}

/** The line with every quoted page text blanked to the same length: what is found in it sits where it is in the line. */
function blankQuotes(line: string): string {
  return line.replace(new RegExp(QUOTED.source, 'g'), (quoted) => `"${'_'.repeat(quoted.length - 2)}"`)
}

/** Every ref a line shows, the packed ones after its first too; never one a quoted page text says. */
export function refsIn(line: string): string[] {
  return [...withoutQuotes(line).matchAll(REF_IN_LINE)].map((match) => match[1] as string)
}

/**
 * What a line says besides whether its element has focus, and whether it has. States are read
 * only outside quoted page text (blanked to the same length, so a page cannot write a state
 * and what is found sits where it is in the line); the rest keeps the page's words, so a value
 * typed into a field that took focus on the way is news.
 */
function focusApart(line: string): { rest: string; focused: boolean } {
  const blank = blankQuotes(line)
  let focused = false
  let rest = ''
  let from = 0
  for (const match of blank.matchAll(/ \(([^()]*)\)/g)) {
    const words = (match[1] as string).split(', ')
    const kept = words.filter((word) => word !== 'focused')
    if (kept.length < words.length) focused = true
    rest += line.slice(from, match.index) + (kept.length === 0 ? '' : ` (${kept.join(', ')})`)
    from = match.index + match[0].length
  }
  return { rest: rest + line.slice(from), focused }
}

/**
 * Whether an element's line now says what it said packed in the line that went holding it
 * (`button "Add" @14` in `heading "People": button "Collapse" @13 button "Add" @14`): the
 * same words, followed there by the next element or the line's end — not by a state or a risk
 * it has lost since. That focus left it is no news, so the old line is read without focus.
 */
function saidAsBefore(holder: string, now: string): boolean {
  const was = withoutFocus(holder)
  for (let at = was.indexOf(now); at >= 0; at = was.indexOf(now, at + 1)) {
    const before = was[at - 1]
    const after = was.slice(at + now.length)
    if ((before === undefined || before === ' ') && (after === '' || /^ [^(!]/.test(after))) return true
  }
  return false
}

/** A line without its `focused` state. */
export function withoutFocus(line: string): string {
  return focusApart(line).rest
}

/** Whether two lines of one element differ in nothing but whether it has focus. */
export function onlyFocusDiffers(was: string, now: string): boolean {
  return focusApart(was).rest === focusApart(now).rest
}

/**
 * A line that changed only in where focus is, and says nothing the agent does not know: focus
 * left the element (the line of the element that has it now says where it went), or came to
 * the element the agent just acted on (a clicked button takes focus).
 */
function onlyFocusNews(was: string, now: string, ref: string, acted: ReadonlySet<string>): boolean {
  const before = focusApart(was)
  const after = focusApart(now)
  if (before.rest !== after.rest || before.focused === after.focused) return false
  return before.focused || acted.has(ref)
}

/** How deep an outline line sits: its leading spaces. */
function indentOf(line: string): number {
  return line.length - line.trimStart().length
}

/** The index of the line a line sits under (the nearest line above it indented less), or -1. */
function parentLine(lines: readonly string[], at: number): number {
  const own = indentOf(lines[at] ?? '')
  for (let k = at - 1; k >= 0; k--) if (indentOf(lines[k] as string) < own) return k
  return -1
}

/** Where a line that moved is now: after the line above it at its level, or first under the line it sits under. */
function movedTo(lines: readonly string[], at: number): string {
  const own = indentOf(lines[at] ?? '')
  const name = (line: string): string => {
    const ref = firstRef(line)
    if (ref !== undefined) return `@${ref}`
    const quoted = QUOTED.exec(line)?.[0]
    return quoted ?? line.trim().split(' ')[0] ?? ''
  }
  for (let k = at - 1; k >= 0; k--) {
    const line = lines[k] as string
    if (indentOf(line) === own) return `moved after ${name(line)}`
    if (indentOf(line) < own) return `moved first in ${name(line)}`
  }
  return 'moved to the top'
}

/**
 * Texts that took another's place: in a run of lines that went next to a run that came, a
 * text line (no ref) that went and one of the same shape that came, in order — a counter that
 * went from "1 item left" to "2 items left", a status from "Saving…" to "Saved". Each reads as
 * one `~` line, the new text, instead of a `-` and a `+`. Keys are `part:line`.
 */
function textsReplaced(parts: ReadonlyArray<{ value: string[]; added?: boolean; removed?: boolean }>, says: (text: string) => boolean): Set<string> {
  const pairs = new Set<string>()
  const shape = (line: string): string | undefined => {
    if (firstRef(line) !== undefined) return undefined
    const quoted = firstQuote(line)
    return quoted === undefined || says(quoted) ? undefined : withoutQuotes(line)
  }
  for (let p = 0; p + 1 < parts.length; p++) {
    const [a, b] = [parts[p], parts[p + 1]] as const
    if (!((a?.removed && b?.added) || (a?.added && b?.removed))) continue
    const [went, came, wentAt, cameAt] = a.removed ? [a, b, p, p + 1] : [b, a, p + 1, p]
    let from = 0
    for (const [k, line] of went.value.entries()) {
      const want = shape(line)
      if (want === undefined) continue
      const match = came.value.findIndex((other, j) => j >= from && firstRef(other) === undefined && withoutQuotes(other) === want && !pairs.has(`${cameAt}:${j}`))
      if (match < 0) continue
      pairs.add(`${wentAt}:${k}`).add(`${cameAt}:${match}`)
      from = match + 1
    }
  }
  return pairs
}

/** What a delta knows besides the two outlines. */
export interface DeltaContext {
  /** The targets the action named (`@5`): their taking focus is no news. */
  acted?: readonly string[]
  /** Whether an element ref names an element of the page after the action. */
  present?: (ref: string) => boolean
  /** Whether the page after the action still says this text, as a name or a text (one cut with '…' by its start). */
  says?: (text: string) => boolean
  /**
   * Whether the page after the action still has an element of this role and name (one cut
   * with '…' by its start): a tab panel is named by its tab, so its text alone says nothing of
   * the panel. Where not given, its name's text stands for it.
   */
  named?: (role: string, name: string) => boolean
}

/** What the frame after an action still holds, for a delta to tell what left the view from what went. */
export function presenceIn(frame: Frame): Required<Pick<DeltaContext, 'present' | 'says' | 'named'>> {
  const refs = RefTable.forFrame(frame)
  const texts = new Set<string>()
  const names = new Map<string, string[]>()
  const walk = (node: UiNode): void => {
    for (const text of [node.name, node.text]) if (text !== undefined) texts.add(text.replace(/\s+/g, ' ').trim())
    if (node.role !== undefined && node.name !== undefined) {
      const known = names.get(node.role) ?? []
      known.push(node.name.replace(/\s+/g, ' ').trim())
      names.set(node.role, known)
    }
    for (const child of node.children ?? []) walk(child)
  }
  walk(frame.tree)
  return {
    present: (ref) => refs.resolve(ref) !== undefined,
    named: (role, name) => {
      const start = name.endsWith('…') ? name.slice(0, -1) : undefined
      return (names.get(role) ?? []).some((known) => known === name || (start !== undefined && known.startsWith(start)))
    },
    says: (text) => {
      if (texts.has(text)) return true
      const start = text.endsWith('…') ? text.slice(0, -1) : text
      // A line may join a paragraph's texts (and cut the whole): the frame says it when one of
      // its texts begins the line, long enough not to be a chance, or the line begins one.
      for (const known of texts) if (known.startsWith(start) || (known.length >= Math.min(start.length, JOINED_TEXT_MIN) && start.startsWith(known))) return true
      return false
    },
  }
}

/** The first quoted text of a line, as the page wrote it. */
function firstQuote(line: string): string | undefined {
  const quoted = QUOTED.exec(line)?.[0]
  if (quoted === undefined) return undefined
  try {
    return JSON.parse(quoted) as string
  } catch {
    // The outline quotes with JSON.stringify, so this is no outline text: nothing to look for.
    return undefined
  }
}

/**
 * What an action changed on the page, as the lines of the outline that came (`+`), went
 * (`-`: the outermost line of what vanished, with a count of the lines under it; of a run of
 * such lines side by side, as many as GONE_RUN_CHARS holds, with a count of the rest) and changed
 * (`~`: an element still there under its ref, as it reads now — the agent has the old line),
 * fenced like the outline because they are the page's text; the whole new outline when most
 * of it changed (a navigation), and one line when nothing did.
 */
export function pageDelta(before: string, after: string, context: DeltaContext = {}): string {
  const actedOn = new Set((context.acted ?? []).map((target) => ledgerIdOf(target) ?? target.replace(/^@/, '')))
  const present = context.present ?? (() => false)
  const says = context.says ?? (() => false)
  const named = context.named ?? ((_role: string, name: string) => says(name))
  const was = contentLines(before)
  const now = contentLines(after)
  const parts = diffArrays(was.body, now.body)
  // An element the page rendered anew reads the same with a new ref: only its new line is news.
  const withoutRef = (line: string): string => line.trim().replace(REF_IN_LINE, '')
  const added = parts.filter((part) => part.added).flatMap((part) => part.value)
  const renewed = new Set(added.map(withoutRef))
  // Of those, the refs that went with the line that reads the same (a wizard's "Next" of step 1, hidden, and step 2's): the new line says which it stands for, so no one acts on the old ref thinking both are there. Only where one line was renewed (below).
  const renewedFrom = new Map<string, string[]>()
  for (const part of parts.filter((one) => one.removed)) {
    for (const line of part.value) {
      const ref = firstRef(line)
      if (ref === undefined || !renewed.has(withoutRef(line)) || present(ref)) continue
      renewedFrom.set(withoutRef(line), [...(renewedFrom.get(withoutRef(line)) ?? []), ref])
    }
  }
  // Many lines rendered anew at once are a list or a footer drawn again (TodoMVC's, on every change): their old refs went as one, and naming each would cost more than it tells.
  const renewedOne = [...renewedFrom.values()].flat().length === 1
  const wasRef = (line: string, ref: string | undefined): string => {
    if (!renewedOne) return ''
    const old = renewedFrom.get(withoutRef(line))?.find((one) => one !== ref)
    if (old === undefined) return ''
    renewedFrom.set(withoutRef(line), (renewedFrom.get(withoutRef(line)) ?? []).filter((one) => one !== old))
    return ` (was @${old})`
  }
  const removedByRef = new Map(parts.filter((part) => part.removed).flatMap((part) => part.value.map((line) => [firstRef(line), line] as const)))
  const stayed = new Set(added.map(firstRef).filter((ref) => ref !== undefined && removedByRef.has(ref)))
  const removedLines = new Set(parts.filter((part) => part.removed).flatMap((part) => part.value.map((line) => line.trim())))
  // Elements a line that went held packed after its first: when that line unpacks (a fourth button came), they are not new.
  // Every ref a line that went showed, with that line: an element that comes back unpacked from it.
  const heldIn = new Map(parts.filter((part) => part.removed).flatMap((part) => part.value.flatMap((line) => refsIn(line).map((ref) => [ref, line] as const))))
  // What each of those lines packs its elements after (`heading "People"` of `heading "People": button …`).
  const packedHeads = new Set([...removedLines].flatMap((gone) => [...blankQuotes(gone).matchAll(/: /g)].map((match) => gone.slice(0, match.index))))
  const unpacked = (line: string): boolean => packedHeads.has(line.trim())
  // How many unchanged lines come before each removed line: a line that came back after another count of them moved.
  const keptBefore = new Map<string, number>()
  let kept = 0
  for (const part of parts) {
    if (part.removed) for (const line of part.value) keptBefore.set(firstRef(line) ?? '', kept)
    else if (!part.added) kept += part.value.length
  }
  kept = 0
  // An element the agent acted on took focus, as it knows: its line says what else changed. A line that went says what went, not where focus was.
  const told = (line: string, ref: string | undefined): string => (ref !== undefined && actedOn.has(ref) ? withoutFocus(line.trimStart()) : line.trimStart())
  const replaced = textsReplaced(parts, says)
  const shifted = new ShiftedFolds([...removedLines])
  const changed: string[] = []
  let changedCount = 0
  // Where each added line is in the new outline, to say where an element that moved went.
  let nowAt = 0
  const moved = new Set<number>()
  for (const [p, part] of parts.entries()) {
    const firstAt = nowAt
    if (!part.removed) nowAt += part.value.length
    if (!part.added && !part.removed) kept += part.value.length
    if (!part.added && !part.removed) continue
    changedCount += part.value.length
    // A vanished element's line speaks for what it held: the lines under it, gone with it, are counted on it.
    let gone: { indent: number; at: number; inside: number; bare: boolean } | undefined
    // The lines that went side by side (same depth, one after another), each with how many lines it stands for (itself and what went inside it).
    let run: { indent: number; first: number; sizes: number[] } | undefined
    const endRun = (): void => {
      if (run === undefined) return
      let chars = 0
      let listed = 0
      while (listed < run.sizes.length && (listed === 0 || chars + (changed[run.first + listed] as string).length <= GONE_RUN_CHARS)) chars += (changed[run.first + listed++] as string).length
      const rest = run.sizes.slice(listed).reduce((sum, size) => sum + size, 0)
      // One line left over is shown rather than counted: a count of one hides as much as it saves.
      if (rest > 1) {
        changed.splice(run.first + listed)
        changed[run.first + listed - 1] += ` (+${rest} lines after it)`
      }
      run = undefined
    }
    const close = (): void => {
      if (gone !== undefined && gone.inside > 0) {
        changed[gone.at] += ` (+${gone.inside} inside)`
        if (run !== undefined) run.sizes[run.sizes.length - 1] = 1 + gone.inside
      }
      // A bare structure line (`- list`) that took nothing with it says nothing, and may only have scrolled away.
      else if (gone?.bare === true && gone.at === changed.length - 1) {
        changed.pop()
        run?.sizes.pop()
      }
      gone = undefined
    }
    for (const [k, line] of part.value.entries()) {
      const indent = indentOf(line)
      if (gone !== undefined && indent <= gone.indent) close()
      const ref = firstRef(line)
      const same = ref !== undefined && stayed.has(ref)
      if (part.removed && (same || renewed.has(withoutRef(line)) || replaced.has(`${p}:${k}`))) continue
      if (part.added && shifted.take(line)) continue
      if (part.added && replaced.has(`${p}:${k}`)) {
        changed.push(`~ ${line.trimStart()}`)
        continue
      }
      if (part.added) {
        const at = firstAt + k
        // What an element that moved holds moved with it: its line says so. What changed in it on the way is still news.
        if (moved.has(parentLine(now.body, at))) {
          moved.add(at)
          if (!removedLines.has(line.trim())) changed.push(`${same ? '~' : '+'} ${line.trimStart()}`)
          continue
        }
        // The same ref among other unchanged lines than before: the element moved (a list reordered, a card dragged).
        // So did a line of text alone, word for word one that went (a sorted table's row): no new one came.
        if ((same && keptBefore.get(ref) !== kept) || (ref === undefined && firstQuote(line) !== undefined && removedLines.has(line.trim()))) {
          moved.add(at)
          changed.push(`~ ${told(line, ref)} ${movedTo(now.body, at)}`)
          continue
        }
      }
      // Still on the page, out of what the outline shows now (scrolled away, folded): not gone.
      const quoted = ref === undefined ? firstQuote(line) : undefined
      const role = quoted === undefined ? undefined : LEADING_ROLE.exec(line.trimStart())?.[1]
      if (part.removed && (ref !== undefined ? present(ref) : quoted !== undefined && (role !== undefined ? named(role, quoted) : says(quoted)))) continue
      // A fold line that went was the outline's, not the page's: the new fold lines say where things are now.
      if (part.removed && line.trimStart().startsWith('… ')) continue
      if (same && onlyFocusNews(removedByRef.get(ref) ?? '', line, ref, actedOn)) continue
      // The first element of a line that unpacked, word for word what it said there: no news either.
      if (same && part.added && saidAsBefore(removedByRef.get(ref) ?? '', told(line, ref))) continue
      const bare = ref === undefined && quoted === undefined
      // A bare structure line (`list`) under one that went is no news of its own: what it held is counted, not it.
      if (part.removed && gone !== undefined && bare) continue
      if (part.removed && gone !== undefined) {
        gone.inside += 1
        continue
      }
      // A structure line that came with nothing of its own (`list`, `listitem`): what it holds follows, and says it all.
      if (part.added && bare && ROLE_ALONE.test(line.trim())) continue
      // The head of a line that unpacked (`heading "People"`, where `heading "People": button …` went) is no news of its own.
      if (part.added && ref === undefined && unpacked(line)) continue
      // An element a line that went held packed is still there: it reads as it does now (`~`), never as new.
      if (part.added && ref !== undefined && !same && heldIn.has(ref)) {
        // Word for word what it said in the line that held it (a heading's buttons, printed one a line once a fourth came): no news.
        if (!saidAsBefore(heldIn.get(ref) ?? '', told(line, ref))) changed.push(`~ ${told(line, ref)}`)
        continue
      }
      if (part.removed && (run === undefined || run.indent !== indent || run.first + run.sizes.length !== changed.length)) {
        endRun()
        run = { indent, first: changed.length, sizes: [] }
      }
      changed.push(`${same ? '~' : part.added ? '+' : '-'} ${part.removed ? withoutFocus(line.trimStart()) : same ? told(line, ref) : `${line.trimStart()}${wasRef(line, ref)}`}`)
      if (part.removed) run?.sizes.push(1)
      if (part.removed) gone = { indent, at: changed.length - 1, inside: 0, bare }
    }
    close()
    endRun()
  }
  changed.push(...shifted.said())
  const tail = now.tail.filter((line) => !was.tail.includes(line))
  const header = deltaHeader(was.header, now.header)
  if (changed.length === 0) return [header, 'page unchanged', ...tail].join('\n')
  if (changedCount > Math.max(was.body.length, now.body.length) * WHOLE_PAGE_SHARE * 2) return after
  const fence = changesFence(after)
  return [header, fence.open, ...changed, fence.close, ...tail].join('\n')
}
