import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resultText } from '../support/hub.js'
import { useCorpusClient } from './corpus-client.js'
import { refOf } from '../support/outline-refs.js'
import { type FixtureSite, startFixtureSite } from './fixture-site.js'

/** A fold line of an outline: what it says it holds and how to expand it. */
interface Fold {
  line: string
  target: string
  offset: number | undefined
}

function foldsOf(outline: string): Fold[] {
  return outline.split('\n').flatMap((line) => {
    const found = /^\s*… about .*: expand "(@[a-z0-9]+)"(?: offset (\d+))?$/.exec(line)
    return found === null ? [] : [{ line: line.trim(), target: found[1] as string, offset: found[2] === undefined ? undefined : Number(found[2]) }]
  })
}

/**
 * The Bash manual (44,000 DOM nodes, 53,000 accessibility nodes) is read in parts: what is in
 * view, and the parts an agent expands or searches, never the whole tree at once.
 */
describe('a huge page, read in parts over MCP', () => {
  const at = useCorpusClient()
  /** Pages written for a case the manual does not have: a header stuck to the view, a panel that scrolls on its own. */
  let site: FixtureSite
  beforeAll(async () => {
    site = await startFixtureSite()
  })
  afterAll(async () => {
    await site.close()
  })
  const call = (name: string, args: Record<string, unknown>): Promise<string> => at.call(name, args)

  it('shows the viewport and folds the rest unread; an expansion reads its part and its refs act', async () => {
    const first = await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    expect(first).toContain('heading "Bash Reference Manual"')
    const folds = foldsOf(first)
    expect(folds.length).toBeGreaterThan(10)
    // Every fold says where it starts; the frame holds parts not read yet.
    expect(folds.every((fold) => / from "/.test(fold.line))).toBe(true)
    const tile = (/^(browser-\d+)/.exec(first) as RegExpExecArray)[1] as string
    const frame = JSON.parse(await call('surface_snapshot', { surface: tile, format: 'json' })) as { tree: unknown }
    expect(JSON.stringify(frame.tree)).toContain('"unread":{')

    // Expanding two folds, one after the other: each shows its own part, read, whatever the other did to the page's frame.
    const [a, b] = [folds[3] as Fold, folds[8] as Fold]
    const label = (fold: Fold): string => (/from "([^"]+)"/.exec(fold.line) as RegExpExecArray)[1] as string
    const shownA = await call('browser_snapshot', { target: a.target, offset: a.offset })
    expect(shownA).toContain(label(a).replace(/…$/, ''))
    expect(shownA).not.toMatch(/^\s*… about .* unread/m)
    const shownB = await call('browser_snapshot', { target: b.target, offset: b.offset })
    expect(shownB).toContain(label(b).replace(/…$/, ''))
    // The same fold of the first outline still shows the same part.
    expect(await call('browser_snapshot', { target: a.target, offset: a.offset })).toContain(label(a).replace(/…$/, ''))
    // The hub's own surface_snapshot reads a fold the same way.
    const c = folds[12] as Fold
    const viaHub = await call('surface_snapshot', { surface: tile, expand: c.target, ...(c.offset === undefined ? {} : { offset: c.offset }) })
    expect(viaHub).toContain(label(c).replace(/…$/, ''))
    expect(viaHub).not.toMatch(/^\s*… about .* unread/m)

    // A link read by the first expansion still acts after the second: the page jumps to its section.
    const link = refOf(shownA, 'link')
    const clicked = await call('browser_click', { element: 'a link in the manual', target: link })
    expect(clicked).not.toContain('failed')
  })

  it('cuts its folds so that each one\'s expansion shows it whole: the estimates are on the high side', async () => {
    const first = await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    const folds = foldsOf(first)
    // Six folds spread over the page, from the first to the last (the index tables among them).
    const sample = Array.from({ length: 6 }, (_, k) => folds[Math.round((k * (folds.length - 1)) / 5)] as Fold)
    for (const fold of sample) {
      const shown = await call('browser_snapshot', { target: fold.target, offset: fold.offset })
      expect(shown, fold.line).not.toMatch(/^\s*… .*(outline cut)/m)
      expect(shown, fold.line).not.toMatch(/^\s*… about .* unread/m)
      // Where the expansion stops, if it does: not before the next fold of the same element begins.
      const next = folds.slice(folds.indexOf(fold) + 1).find((other) => other.target === fold.target)
      const more = new RegExp(`^… .* more: expand "${fold.target}" offset (\\d+)$`, 'm').exec(shown)
      if (next !== undefined && more !== null) expect(Number(more[1]), fold.line).toBeGreaterThanOrEqual(next.offset ?? 0)
    }
  })

  it('fails a fold of a page that has gone with a typed error', async () => {
    const manual = await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    await call('browser_navigate', { url: at.corpus.url('todomvc-react') })
    // A fold under an element of the manual (the page's root has the same ref on every page).
    const target = /^\s*… .*: expand "(@\d+)"/m.exec(manual)?.[1] as string
    const answer = await at.client.callTool({ name: 'browser_snapshot', arguments: { target } })
    expect(answer.isError).toBe(true)
    expect(resultText(answer)).toMatch(/not_found.*no element @/)
  })

  it('finds words anywhere on the page, reading only the parts that say them', async () => {
    await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    const found = await call('browser_snapshot', { find: 'Readline Killing Commands' })
    expect(found).toMatch(/link "[0-9.]* ?Readline Killing Commands" @\d+/)
    expect(found).not.toContain('nothing on the page says')
    // Playwright MCP's browser_find: the same by words, or by a regular expression, in the page's case unless its flags say otherwise.
    expect(await call('browser_find', { text: 'readline killing commands' })).toMatch(/link "[0-9.]* ?Readline Killing Commands" @\d+/)
    const matched = await call('browser_find', { regex: '^[0-9.]+ Readline Kill(ing)? Commands$' })
    expect(matched).toMatch(/link "[0-9.]* ?Readline Killing Commands" @\d+/)
    expect(await call('browser_find', { regex: 'readline killing commands' })).toContain('nothing on the page matches')
    expect(await call('browser_find', { regex: '/readline killing commands/i' })).toMatch(/link "[0-9.]* ?Readline Killing Commands" @\d+/)
    // Deep in a paragraph far below the view, in a part not read yet: shown where it matched.
    expect(await call('browser_find', { regex: 'no more than \\$HISTFILE\\w+ lines' })).toMatch(/^"…[^"]*truncated to contain no more than \$HISTFILESIZE lines[^"]*" @\d+$/m)
    // Over the whole page's text, a pattern that takes a backtracking engine exponential time answers at once; RE2 runs none it cannot bound.
    expect(await call('browser_find', { regex: '/^(\\w|\\w\\w|\\s)+;;;$/i' })).toContain('nothing on the page matches')
    await expect(call('browser_find', { regex: '(\\w)\\1\\1\\1' })).rejects.toThrow(/invalid_input.*runs in time linear.*invalid escape sequence/)
    await expect(call('browser_find', {})).rejects.toThrow(/invalid_input.*one of "text" or "regex", found neither/)
  })

  it('finds words past where a long text is cut, and reads that text whole by the ref after it, also once the page scrolled on', async () => {
    await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    // Deep in a paragraph of the History section, far past the first 120 characters.
    const found = await call('browser_snapshot', { find: 'truncated to contain no more than $HISTFILESIZE' })
    const line = /^"…[^"]*truncated to contain no more than \$HISTFILESIZE[^"]*" (@\d+)$/m.exec(found)
    expect(line, found).not.toBeNull()
    const holder = (line as RegExpExecArray)[1] as string
    await call('browser_press_key', { key: 'End' })
    const whole = await call('browser_snapshot', { target: holder })
    // The paragraph's texts whole, from its start to its end, and no cut text in it.
    expect(whole).toMatch(/^"When the shell starts up, the history is initialized from the file named by the HISTFILE variable/m)
    expect(whole).toContain('If HISTFILESIZE is unset, or set to null, a non-numeric value, or a numeric value less than zero, the history file is not truncated.')
    expect(whole).not.toMatch(/…" @/)
    // The same ref brings the paragraph into view, far up from the end.
    const tile = (/^(browser-\d+)/.exec(found) as RegExpExecArray)[1] as string
    await call('surface_act', { surface: tile, ref: holder, op: 'scroll' })
    expect(await call('browser_snapshot', {})).toMatch(/^\s*"When the shell starts up, the history is initialized[^"]*" @\d+$/m)
  })

  it('gives a long text in a big element a ref of its own that reads it whole, and reads highlighted code as the page shows it', async () => {
    // Another origin than the tile's: a tile of its own, as a navigation there would need a person.
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    try {
      await call('browser_navigate', { url: `${site.origin}/notes` })
      const found = await call('browser_snapshot', { find: 'is zanzibar' })
      // Its element is all of the notes: the text's own ref reads just the text.
      const line = /^"…[^"]*The last word of this note is zanzibar\." (@t\d+)$/m.exec(found)
      expect(line, found).not.toBeNull()
      const text = (line as RegExpExecArray)[1] as string
      await call('browser_press_key', { key: 'End' })
      const whole = (await call('browser_snapshot', { target: text })).split('\n').slice(2, -1)
      expect(whole).toEqual([`"Upgrading needs care. ${'Read every entry before you upgrade, as some change defaults. '.repeat(8)}The last word of this note is zanzibar."`])
      // The same ref brings the text into view, far up from the end.
      const tile = (/^(browser-\d+)/.exec(found) as RegExpExecArray)[1] as string
      await call('surface_act', { surface: tile, ref: text, op: 'scroll' })
      expect(await call('browser_snapshot', {})).toContain(`"Upgrading needs care. Read every entry`)
      // Each token in an element of its own, and no space added between them; its lines and their indentation kept.
      expect(await call('browser_snapshot', { find: 'fs.rename' })).toContain(JSON.stringify("const fs = require('node:fs');\nif (ready) {\n  fs.rename('/tmp/a', '/tmp/b', done);\n}"))
    } finally {
      // The next tests open the corpus, another origin.
      await at.client.callTool({ name: 'browser_close', arguments: {} })
    }
  })

  it('reads a find\'s parts for its answer only, and a ref read before the page moved on still acts', async () => {
    const first = await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    const tile = (/^(browser-\d+)/.exec(first) as RegExpExecArray)[1] as string
    const unreadParts = async (): Promise<number> => (await call('surface_snapshot', { surface: tile, format: 'json' })).match(/"unread":\{/g)?.length ?? 0
    const before = await unreadParts()
    const found = await call('browser_snapshot', { find: 'BASH_VERSINFO' })
    const match = refOf(found, 'link')
    expect(await unreadParts()).toBeLessThan(before)
    // The next capture reads only what is in view again: a common word does not keep the page slow.
    const topLink = refOf(first, 'link')
    await call('browser_hover', { element: 'the first link of the contents', target: topLink })
    expect(await unreadParts()).toBe(before)
    // The find's ref still acts (a failed call throws): its part is read again. The page jumps far down to its entry…
    const jumped = await call('browser_click', { element: 'the BASH_VERSINFO link found', target: match })
    expect(jumped.split('\n')[0]).toMatch(/#\S*VERSINFO/)
    // …and refs from the first view, now scrolled out of it, still work: a fold of the contents expands…
    const fold = /… \d+ lines.* from "([^"]+)": expand "(@\d+)" offset (\d+)$/m.exec(first) as RegExpExecArray
    expect(fold, first).not.toBeNull()
    expect(await call('browser_snapshot', { target: fold[2], offset: Number(fold[3]) })).toContain(`link "${fold[1]}"`)
    // …and its first link clicks.
    const back = await call('browser_click', { element: 'the first link of the contents', target: topLink })
    expect(back.split('\n')[0]).toMatch(/#\S+ frame/)
  })

  it('answers a scroll with what came into view, not with what went out of it as if the page had lost it', async () => {
    await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    const answers: string[] = []
    for (let page = 0; page < 5; page++) answers.push(await call('browser_press_key', { key: 'PageDown' }))
    const deltas = answers.filter((answer) => answer.includes('--- changes '))
    expect(deltas.length).toBeGreaterThan(0)
    expect(deltas.join('\n')).toMatch(/^\+ /m)
    // What scrolled out now sits in parts left unread: it lives, so no line says it went — not a link, not a text
    // the page splits into several (a sentence around a <code>), not a bare list around them.
    expect(deltas.join('\n')).not.toMatch(/^- /m)
  })

  // After a scroll the last layout is reused (the page only scrolled): what the view holds must still be what is shown.
  describe('a page scrolled under a header stuck to the view', () => {
    /** Another site than the manual's gets a tile of its own (a navigation away would ask a person); none may be open yet. */
    const closeTile = () => at.client.callTool({ name: 'browser_close', arguments: {} })
    /** The chapters whose headings the outline shows in view (a fold's words are not a heading line). */
    const chapters = (outline: string): number[] => [...outline.matchAll(/^\s*heading "Chapter (\d+)"/gm)].map((found) => Number(found[1]))

    it('shows the header in view after the scroll, and what a change inside the page then moved into view', async () => {
      await closeTile()
      const first = await call('browser_navigate', { url: `${site.origin}/long` })
      expect(first).toMatch(/link "Back to top" @\d/)
      for (let page = 0; page < 3; page++) await call('browser_press_key', { key: 'PageDown' })
      // The header scrolled with the page and stuck to the top of the view: it is still in view, not folded above it.
      const scrolled = await call('browser_snapshot', {})
      expect(scrolled).toMatch(/^link "Back to top" @\d+/m)
      const before = chapters(scrolled)
      expect(before.length).toBeGreaterThan(2)
      // Its key H hides the introduction (no pointer, no focus change: only the DOM changes), moving every chapter up by its height.
      await call('browser_press_key', { key: 'h' })
      const afterText = await call('browser_snapshot', {})
      const after = chapters(afterText)
      expect(after.length).toBeGreaterThan(2)
      expect(Math.min(...after)).toBeGreaterThan(Math.max(...before))
      await closeTile()
    })

    it('scrolls at once on a PageDown, so its answer shows where the scroll ended, not a view half-way through it', async () => {
      await closeTile()
      await call('browser_navigate', { url: `${site.origin}/long?scrolls` })
      // An animated scroll (Chromium's default) moves the page in a dozen steps over 150 ms; the answer would be read at the second.
      const answer = await call('browser_press_key', { key: 'PageDown' })
      expect(answer).toContain('"scrolled 1 time"')
      await closeTile()
    })
  })

  it('says the links a list took with it when the page hid it, though they are still in its DOM', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    const first = await call('browser_navigate', { url: `${site.origin}/picker` })
    const shown = await call('browser_click', { element: 'Index', target: refOf(first, 'button', 'Index') })
    expect(shown).toMatch(/^\+ link "Go to chapter 0" @\d+$/m)
    // Before, a hidden link counted as one in a part left unread, and the answer said only that the button changed, or nothing.
    const hidden = await call('browser_click', { element: 'Index', target: refOf(first, 'button', 'Index') })
    expect(hidden).toMatch(/^- .*link "Go to chapter (0|1100)"|^- .*\(\+\d+ inside\)/m)
    expect(hidden).not.toContain('page unchanged')
  })

  it('reads a huge page whose sections the browser skips drawing off screen (Node.js\'s all.html): its folds count them, a find reads them, their links act', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    const first = await call('browser_navigate', { url: `${site.origin}/skipped?n=2500` })
    expect(first).toMatch(/^  heading "Section 0"$/m)
    // Every section counted, from the DOM: 2,500 links in all, most of them in sections the tree holds empty.
    const actions = [...first.matchAll(/(\d+) actions below the view/g)].reduce((sum, found) => sum + Number(found[1]), 0)
    expect(actions).toBeGreaterThan(2400)
    // Before, the find said nothing on the page said so.
    const found = await call('browser_find', { text: 'Words of section 2222' })
    expect(found).toContain('"Words of section 2222, said once."')
    const link = await call('browser_find', { text: 'Next after 1999' })
    expect(await call('browser_click', { element: 'Next after 1999', target: refOf(link, 'link', 'Next after 1999') })).toContain('#s2000')
    // The same page again is another document: what was drawn for the last one is drawn anew for it.
    await call('browser_navigate', { url: `${site.origin}/skipped?n=2500` })
    expect(await call('browser_find', { text: 'Words of section 2222' })).toContain('"Words of section 2222, said once."')
  })

  describe('scrolling to an element', () => {

    it('brings any element with a ref into view, scrolling the box it is in, and turns the wheel over it', async () => {
      await at.client.callTool({ name: 'browser_close', arguments: {} })
      const first = await call('browser_navigate', { url: `${site.origin}/panel` })
      const tile = (/^(browser-\d+)/.exec(first) as RegExpExecArray)[1] as string
      // A message far down the panel: the find names the element that holds its text.
      const found = await call('browser_snapshot', { find: 'Message 50' })
      const message = (/"Message 50" (@\d+)/.exec(found) as RegExpExecArray | null)?.[1]
      expect(message, found).toBeDefined()
      await call('surface_act', { surface: tile, ref: message, op: 'scroll' })
      const moved = /panel at (\d+) px, page at (\d+) px/.exec(await call('browser_snapshot', {})) as RegExpExecArray
      // The panel scrolled to the message (49 rows of 30 px above it, less its own 200 px); the page, whose top holds the panel, did not.
      expect(Number(moved[1])).toBeGreaterThan(1200)
      expect(Number(moved[2])).toBe(0)
      // With a direction, the wheel turns over the element: its panel scrolls back, not the page.
      await call('surface_act', { surface: tile, ref: message, op: 'scroll', input: { direction: 'up', amount: 300 } })
      const back = /panel at (\d+) px, page at (\d+) px/.exec(await call('browser_snapshot', {})) as RegExpExecArray
      expect(Number(back[1])).toBe(Number(moved[1]) - 300)
      expect(Number(back[2])).toBe(0)
      // A ref and a page end at once is a typed error that says what it found.
      const both = await at.client.callTool({ name: 'surface_act', arguments: { surface: tile, ref: message, op: 'scroll', input: { to: 'bottom' } } })
      expect(both.isError).toBe(true)
      expect(resultText(both)).toMatch(/invalid_input.*expected "element" or "to", found both/)
      await at.client.callTool({ name: 'browser_close', arguments: {} })
    })
  })

  it('reads a page that grew huge where it is in parts, though its last capture was small', async () => {
    // A tile of its own: leaving for another origin after it would wait for a person.
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    const first = await call('browser_navigate', { url: `${site.origin}/grow` })
    expect(foldsOf(first)).toEqual([])
    // Read again where it is: the next capture asks for the small page's trees before it knows its size.
    await call('browser_snapshot', {})
    await call('browser_click', { element: 'Load everything', target: refOf(first, 'button', 'Load everything') })
    const grown = await call('browser_snapshot', {})
    expect(foldsOf(grown).length).toBeGreaterThan(0)
    expect(await call('browser_snapshot', { find: 'Row 6999' })).toContain('"Row 6999"')
    // Past the first 50 matches, an offset lists the next (before, "… more matches" and no way to them).
    const rows = (text: string): string[] => [...text.matchAll(/"Row (\d+)"/g)].map((match) => match[1] as string)
    const first50 = await call('browser_find', { text: 'Row 69' })
    expect(rows(first50)).toHaveLength(50)
    expect(first50).toMatch(/^… 61 more matches: the same find with offset 50 lists them$/m)
    const next = await call('browser_find', { text: 'Row 69', offset: 50 })
    expect(rows(next)).toHaveLength(50)
    expect(rows(next).filter((row) => rows(first50).includes(row))).toEqual([])
    expect(next).toMatch(/^… 11 more matches: the same find with offset 100 lists them$/m)
    const last = await call('browser_find', { text: 'Row 69', offset: 100 })
    expect(rows(last)).toHaveLength(11)
    expect(last).not.toContain('more match')
    // Every match once, across the three.
    expect(new Set([...rows(first50), ...rows(next), ...rows(last)]).size).toBe(111)
    expect(await call('browser_snapshot', { find: 'Row 69', offset: 500 })).toContain('the find has 111 matches; offset 500 is past them')
    await at.client.callTool({ name: 'browser_close', arguments: {} })
  })

  it('opens a log of 60,000 lines at once, its text read from the DOM: the accessibility tree of one text takes time by the square of its lines', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    // Asked of the tree, each capture of it took over a minute: the navigation timed out and the tile was lost.
    const opened = await call('browser_navigate', { url: `${site.origin}/log.txt` })
    expect(opened).toMatch(/^"12:00:00 step 0 ok\\n12:00:01 step 1 ok\\n12:00:02 step 2 ok\\n[^"]*…" @(t?\d+) \(line 1 of 60000\)$/m)
    const holder = (/…" @(t?\d+) \(line/m.exec(opened) as RegExpExecArray)[1] as string
    // A find inside an element no longer there fails, and moves no window (before, the text showed the match from then on).
    await expect(call('browser_snapshot', { target: '@t99999', find: 'step 30005 ok' })).rejects.toThrow(/not_found/)
    expect(await call('browser_snapshot', {})).toMatch(/^"12:00:00 step 0 ok\\n[^"]*…" @t?\d+ \(line 1 of 60000\)$/m)
    // An offset reads on from a line of a text or a list's item: alone it names neither.
    await expect(call('browser_snapshot', { offset: 200 })).rejects.toThrow(/invalid_input.*"offset" reads from a line of the "target"/)
    // Its ref reads the text as far as any text is read whole.
    const whole = await call('browser_snapshot', { target: `@${holder}` })
    expect(whole).toContain('12:00:59 step 59 ok\\n12:00:00 step 60 ok')
    // It says which lines it holds, and the offset that reads on from its last (cut) line.
    const on = /…" @t?\d+ \(lines 1–(\d+) of 60000; offset (\d+) reads on\)\n--- end [0-9a-f]{6} ---$/.exec(whole)
    expect(on?.[1]).toBeDefined()
    expect(on?.[2]).toBe(on?.[1])
    // From any line: line 42,000 is step 41,999.
    const from = await call('browser_snapshot', { target: `@${holder}`, offset: 42_000 })
    expect(from).toMatch(/^"12:00:\d\d step 41999 ok\\n12:00:\d\d step 42000 ok\\n/m)
    expect(from).toMatch(/\(lines 42000–\d+ of 60000; offset \d+ reads on\)\n--- end /)
    const next = Number(/offset (\d+) reads on/.exec(from)?.[1])
    expect(await call('browser_snapshot', { target: `@${holder}`, offset: next })).toMatch(new RegExp(`\\(lines ${next}–\\d+ of 60000; offset \\d+ reads on\\)`))
    // Past the end: its last line.
    expect(await call('browser_snapshot', { target: `@${holder}`, offset: 99_999 })).toMatch(/^"ERROR: disk full at step 59999" @t?\d+ \(line 60000 of 60000\)$/m)
  })

  it('keeps the lines of a long text in view as the page scrolls, and finds words anywhere in it', async () => {
    // The frame keeps a window of the log; the error is on its last line, far past it.
    const found = await call('browser_snapshot', { find: 'disk full' })
    expect(found).toMatch(/^"…?ERROR: disk full at step 59999" @t?\d+ \(line 60000 of 60000\)$/m)
    const byPattern = await call('browser_find', { regex: 'step 3000[0-9] ok' })
    expect(byPattern).toMatch(/^"12:00:00 step 30000 ok\\n12:00:01 step 30001 ok[^"]*" @t?\d+ \(line 30001 of 60000\)$/m)
    expect(await call('browser_find', { regex: '^\\d\\d:\\d\\d:\\d\\d step 41999 ok$' })).toMatch(/^"12:00:\d\d step 41999 ok\\n[^"]*" @t?\d+ \(line 42000 of 60000\)$/m)
    // Scrolling moves the window: the key's answer says what came into view.
    const down = await call('browser_press_key', { key: 'PageDown' })
    expect(down).toMatch(/"12:00:\d\d step (\d+) ok\\n[^"]*" @t?\d+ \(line \d+ of 60000\)/)
    const line = Number((/\(line (\d+) of 60000\)/.exec(down) as RegExpExecArray)[1])
    expect(line).toBeGreaterThan(10)
    expect(line).toBeLessThan(200)
    const end = await call('browser_press_key', { key: 'End' })
    expect(end).toMatch(/\(line 59\d\d\d of 60000\)/)
    const holder = (/@(t?\d+) \(line/.exec(end) as RegExpExecArray)[1] as string
    expect(await call('browser_snapshot', { target: `@${holder}` })).toMatch(/ERROR: disk full at step 59999" @t?\d+ \(lines 59\d\d\d–60000 of 60000\)\n/)
    expect(await call('browser_snapshot', { find: 'words the log never says' })).toContain('nothing on the page says "words the log never says"')
    await at.client.callTool({ name: 'browser_close', arguments: {} })
  })

  it('finds words far along one line longer than what a frame keeps of a text (a minified JSON), and shows them', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    await call('browser_navigate', { url: `${site.origin}/items.json` })
    // Before, the window started at the line's start: the match lay past it, and the find said nothing matched.
    expect(await call('browser_find', { text: '"item 5500"' })).toMatch(/^"….*\\"name\\":\\"item 5500\\".*" @t?\d+ \(line 1 of 1\)$/m)
    expect(await call('browser_find', { regex: '"id":5999,' })).toMatch(/^"….*\\"id\\":5999,.*" @t?\d+ \(line 1 of 1\)$/m)
    await at.client.callTool({ name: 'browser_close', arguments: {} })
  })

  it('finds words past what the frame keeps of a paragraph, and shows them', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    const opened = await call('browser_navigate', { url: `${site.origin}/terms` })
    expect(opened).toMatch(/^"Clause 1: the parties agree\. Clause 2: [^"]*…" @t?\d+ \(line 1 of 1\)$/m)
    expect(opened).not.toContain('deposit')
    // Before, a find looked only through the paragraph's first 16,000 characters, and said the page did not say it.
    expect(await call('browser_find', { text: 'keeps the deposit' })).toMatch(/^"…[^"]*Clause 1401: the seller keeps the deposit when you cancel\.[^"]*" @t?\d+ \(line 1 of 1\)$/m)
    expect(await call('browser_find', { regex: 'Clause \\d+: the seller' })).toContain('Clause 1401: the seller keeps the deposit')
    expect(await call('browser_find', { text: 'words the terms never say' })).toContain('nothing on the page says "words the terms never say"')
    // A match longer than the window, or anchored past its end, is found: the window shows where it starts.
    await call('browser_navigate', { url: `${site.origin}/digest` })
    expect(await call('browser_find', { regex: 'a+$' })).toMatch(/^"a{100,}…" @t?\d+ \(line 1 of 1\)$/m)
    // Another find then is answered for itself, not by the texts the last one matched.
    expect(await call('browser_find', { regex: 'b+$' })).toContain('nothing on the page matches "b+$"')
    await at.client.callTool({ name: 'browser_close', arguments: {} })
  })

  it('finds words past what the frame keeps of a block of code read from the tree, and shows the lines of the match', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    const opened = await call('browser_navigate', { url: `${site.origin}/source` })
    expect(opened).toMatch(/^"const value000 = compute\(0\) \/\/ line 1 of the file\\n[^"]*…" @t?\d+ \(line 1 of 400\)$/m)
    // Before, a find looked only through the first 16,000 characters, and said the page did not say it.
    expect(await call('browser_snapshot', { find: 'found me' })).toMatch(/"function lastOne\(\) \{ return 'found me' \}[^"]*" @t?\d+ \(line 390 of 400\)$/m)
    expect(await call('browser_find', { regex: '^function lastOne' })).toMatch(/\(line 390 of 400\)$/m)
    // `$` ends a line of the block as `^` starts one: the find does not read the block as one line.
    expect(await call('browser_find', { regex: "return 'found me' \\}$" })).toMatch(/\(line 390 of 400\)$/m)
    // Read from a line of the agent's choice, though its text came from the tree.
    const ref = (/@(t?\d+) \(line/.exec(opened) as RegExpExecArray)[1] as string
    expect(await call('browser_snapshot', { target: `@${ref}`, offset: 200 })).toMatch(/^"const value199 = compute\(199\) \/\/ line 200 of the file\\n[^"]*" @t?\d+ \(lines 200–400 of 400\)$/m)
    await at.client.callTool({ name: 'browser_close', arguments: {} })
  })

  it('reads a feed of 30,000 bare cards: the first in view, the last found, its link acts', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    // Before, reading the children of its bare containers kept the page's thread busy for a minute: the tile called the page stuck.
    const first = await call('browser_navigate', { url: `${site.origin}/feed` })
    expect(first).toContain('link "Open 0"')
    expect(first).toMatch(/^… about \d+ lines, \d+ actions below the view, from "Card \d+": expand/m)
    // The hundreds of parts below, none holding a heading, are one line: any of its offsets shows one part whole.
    // Before, a line each (as many as the outline holds, 60) was 1,500 tokens of every answer.
    const parts = /^… about \d+ lines, \d+ actions below the view in (\d+) parts, from "Card \d+" to "Card \d+": expand "(@\w+)" offset (\d+) to (\d+), a part each$/m.exec(first)
    expect(parts, first).not.toBeNull()
    const [, count, target, low, high] = parts as RegExpExecArray
    expect(Number(high) - Number(low) + 1).toBe(Number(count))
    expect(first.split('\n').length).toBeLessThan(45)
    const middle = await call('browser_snapshot', { target, offset: Math.round((Number(low) + Number(high)) / 2) })
    const links = [...middle.matchAll(/^link "Open (\d+)" @\w+$/gm)].map((match) => Number(match[1]))
    expect(links.length).toBeGreaterThan(30)
    expect(links).toEqual(links.map((_, i) => (links[0] as number) + i))
    const found = await call('browser_find', { text: 'Card 29999' })
    const link = /link "Open 29999" @(\w+)/.exec(await call('browser_snapshot', { find: 'Open 29999' }))?.[1]
    expect(found).toContain('"Card 29999"')
    expect(link).toBeDefined()
    expect(await call('browser_click', { element: 'Open 29999', target: link as string })).toContain('#card-29999')
    await at.client.callTool({ name: 'browser_close', arguments: {} })
  })

  it('reads a block of code of 3,000 highlighted lines as the page shows it: its words from the DOM, its links and a token that listens for clicks acting', async () => {
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    // Before, each text and token in view was asked of the tree, 12–25 ms a call among the code's 40,000 children.
    const first = await call('browser_navigate', { url: `${site.origin}/highlighted` })
    expect(first).toMatch(/^link "1" @\w+\n"pub fn item_1\(&self\) -> u32 \{ 1 \}"$/m)
    // A token the page listens to is still something to click.
    const toggle = /clickable \.fold @(\w+)/.exec(first)?.[1]
    expect(toggle, first).toBeDefined()
    // A token with a title is asked of the tree; its words are read all the same.
    expect(first).toContain('"\'a pub fn item_3(&self) -> u32 { 3 }"')
    await call('browser_click', { element: 'fold toggle', target: toggle as string })
    expect(await call('browser_find', { text: 'folded line' })).toContain('"folded line 2"')
    // Far below, found by its words, its number's link acts.
    const found = await call('browser_find', { text: 'item_2900(' })
    expect(found).toContain('"pub fn item_2900(&self) -> u32 { 2900 }"')
    const link = /link "2900" @(\w+)/.exec(await call('browser_snapshot', { find: '2900' }))?.[1]
    expect(link).toBeDefined()
    expect(await call('browser_click', { element: 'line 2900', target: link as string })).toContain('#2900')
    // The pages of lines below, none holding a heading and each as long, are one line that names their offsets as a range and its step; any of them shows its page whole.
    const parts = /^… about \d+ lines, \d+ actions below the view in (\d+) parts, from "[^"]+" to "[^"]+": expand "(@\w+)" offset (\d+) to (\d+) in steps of (\d+), a part each$/m.exec(first)
    expect(parts, first).not.toBeNull()
    const [, count, , from, to, step] = (parts as RegExpExecArray).map(Number)
    expect(((to as number) - (from as number)) / (step as number) + 1).toBe(count)
    expect(first.split('\n').filter((line) => line.startsWith('… ')).length).toBeLessThan(5)
    const shown = await call('browser_snapshot', { target: (parts as RegExpExecArray)[2] as string, offset: (from as number) + 2 * (step as number) })
    const numbers = [...shown.matchAll(/^link "(\d+)" @\w+$/gm)].map((match) => Number(match[1]))
    expect(numbers.length).toBeGreaterThan(30)
    expect(shown).toContain(`"pub fn item_${numbers[0]}(&self) -> u32 { ${numbers[0]} }"`)
    await at.client.callTool({ name: 'browser_close', arguments: {} })
  })

  it('acts on an element far below the view named by a CSS selector', async () => {
    // A tile of its own, whatever a test before left open.
    await at.client.callTool({ name: 'browser_close', arguments: {} })
    await call('browser_navigate', { url: at.corpus.url('bash-reference') })
    const hovered = await call('browser_hover', { element: 'the index entry for yanking text', target: 'a[href="#index-yanking-text"]' })
    expect(hovered).not.toContain('takes no action')
  })
})
