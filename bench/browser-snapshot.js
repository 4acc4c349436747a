// The browser surface against Playwright MCP (and chrome-devtools-mcp where it runs), in one
// run, on this machine, on the same pages: every page of the real-page corpus
// (test/browser/corpus), served from loopback.
//   - Per page: the tokens of a `browser_snapshot` answer after `browser_navigate` (each
//     peer's text as the model reads it: Playwright MCP's YAML, Tessera's outline;
//     chrome-devtools-mcp's `take_snapshot`); how many of Playwright MCP's actionable
//     elements (a role an agent acts on, and a ref) Tessera makes reachable, in its default
//     snapshot or one expansion of one of its fold lines; and the p50 of 5 snapshot calls.
//     Tessera's hub may answer `browser_snapshot` from its frame cache, so a fresh snapshot
//     is timed too: a browser tile in this process (the hub's Chromium, a context of its
//     own) capturing and outlining the same page, 5 times. And the time from asking for a
//     new page to reading its snapshot, both ways: what an agent waits for on a new page,
//     and whether what it read then was the page as it stood once settled.
//   - A huge page read by scrolling, both ways: five PageDowns, each until what came into
//     view is read (Playwright MCP needs a snapshot after each key; Tessera's key answer is
//     the delta): tokens and the time of each.
//   - A page's requests read one by one, both ways: the list, then each request's default
//     answer (tokens and calls).
//   - Choices from comboboxes the page draws (jQuery UI's selectmenu), both ways, from a
//     snapshot: calls and tokens read, and what the page's hidden selects hold after.
//   - A text file of 39,429 lines (bench/browser-long-text.js), both ways: open it, find a
//     declaration far into it and read it (calls, tokens, time).
//   - A feed of 30,000 bare cards (bench/browser-feed.js), both ways: open it, find the last
//     card's link and follow it (calls, tokens, time).
//   - The TodoMVC task on every TodoMVC app of the corpus, by one agent script on both
//     peers (bench/browser-todomvc.js): calls and tokens read, and the end state checked in
//     the page.
// Tokens: gpt-tokenizer's o200k_base. The peers are installed once into scratch folders
// (bench/peers.js); Chromium is Debian's, nothing is downloaded. The corpus module is
// TypeScript: it is transpiled with esbuild into node_modules/.cache for this run.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'
import { fmt, percentile } from './stats.js'
import { foldLines, pageShape, parsePlaywright, playwrightTargets, playwrightYaml, reachability, tesseraLines } from './browser-outlines.js'
import { Agent, TODO_STATE_SCRIPT, todoTask } from './browser-todomvc.js'
import { longTextTask, serveLongText } from './browser-long-text.js'
import { FEED_CARDS, feedTask, serveFeed } from './browser-feed.js'
import { SOURCE_LINES, serveSource, sourceTask } from './browser-source.js'
import { CHROMIUM, startChromeDevtoolsMcp, startPlaywrightMcp, startTesseraHub, textOf, tokens } from './peers.js'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..')
const CORPUS_TS = join(REPO, 'test/browser/corpus/corpus.ts')
const CORPUS_JS = join(REPO, 'node_modules/.cache/tessera-bench/corpus.mjs')
const BROWSER_DIST = join(REPO, 'packages/surfaces/browser/dist/index.js')

/** The goals of the browser surface. */
const MAX_RATIO = 0.2
const TIMED_SNAPSHOTS = 5
const MAX_TIMED = 21
const TIMED_WINDOW_MS = 1000
/** After a navigation, before the measured snapshot, for each peer alike: pages that build themselves after load get the time to. */
const SETTLE_MS = 500
/** The page whose requests are read one by one: it loads a script and fetches two JSON schemas. */
const REQUESTS_PAGE = 'json-editor'
/** The page whose comboboxes the page draws itself (dropdownTask). */
const DROPDOWN_PAGE = 'jqui-selectmenu'
/** PageDowns in the scrolling task on a huge page. */
const SCROLL_PAGES = 5
/** At most this many misses of a page are looked up with `find`, a call each. */
const FIND_SAMPLE = 60
/** Misses printed per page (stderr). */
const MISSES_SHOWN = 5
/** A folder to keep every answer read in (`TESSERA_BENCH_DUMP=bench/.work/browser`), to look at what the numbers count. */
const DUMP = process.env.TESSERA_BENCH_DUMP

function dump(name, text) {
  if (DUMP === undefined) return
  mkdirSync(DUMP, { recursive: true })
  writeFileSync(join(DUMP, name), text)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const say = (line) => process.stderr.write(`  ${line}\n`)
const pct = (part, whole) => (whole === 0 ? '-' : `${fmt((100 * part) / whole, 0)} %`)
const reason = (error) => (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200)

async function loadCorpus() {
  const esbuild = await import('esbuild')
  mkdirSync(dirname(CORPUS_JS), { recursive: true })
  await esbuild.build({ entryPoints: [CORPUS_TS], bundle: true, platform: 'node', format: 'esm', outfile: CORPUS_JS, logLevel: 'warning' })
  // A query string so that a second run in one process reads the new build.
  return import(`${pathToFileURL(CORPUS_JS).href}?${Date.now()}`)
}

async function timed(fn) {
  const start = performance.now()
  const value = await fn()
  return { value, ms: performance.now() - start }
}

/**
 * `fn` run `n` times, and on while it is quick (up to MAX_TIMED runs within TIMED_WINDOW_MS):
 * a snapshot of a small page takes milliseconds, and five of those make a median that a
 * hiccup of the machine moves. Every peer is timed by the same rule. The first answer, and the
 * sorted times.
 */
async function repeated(n, fn) {
  const times = []
  let first
  const started = performance.now()
  for (let i = 0; i < n || (i < MAX_TIMED && performance.now() - started < TIMED_WINDOW_MS); i++) {
    const { value, ms } = await timed(fn)
    if (i === 0) first = value
    times.push(ms)
  }
  return { first, times: times.sort((a, b) => a - b) }
}

/**
 * A task on a page served from loopback, run by Playwright MCP and then Tessera on a tile of
 * its own (a tile's first page is its home; leaving it for another origin waits for a
 * person): each run's answers dumped, the same budget as any task (fewer tokens, no more
 * calls, the task done), and its row. The server is closed after.
 */
async function taskBothWays(pw, tessera, served, task, { slug, label, title, done, missed, digits }) {
  try {
    const p = await task(pw.client, 'playwright', served.url)
    await callText(pw.client, 'browser_navigate', { url: 'about:blank' })
    // The tile a task before left open, if any: not an error when none is.
    await tessera.client.callTool({ name: 'browser_close', arguments: {} })
    const t = await task(tessera.client, 'tessera', served.url)
    await callText(tessera.client, 'browser_close', {})
    for (const [dialect, r] of [['playwright', p], ['tessera', t]]) dump(`${slug}.${dialect}.txt`, r.answers.map((a) => `### ${a.call}\n${a.text}`).join('\n\n'))
    const how = (r) => `${r.calls} calls, ${r.tokens.toLocaleString('en')} tokens, ${Math.round(r.ms).toLocaleString('en')} ms (${r.answers.map((a) => Math.round(a.ms).toLocaleString('en')).join(', ')})${done(r) ? '' : `, **${missed}**`}`
    return {
      ok: done(t) && t.tokens <= MAX_RATIO * p.tokens && t.calls <= p.calls,
      row: [title, `${how(p)} · ${how(t)} · **${fmt(t.tokens / p.tokens, digits)}** / **${fmt(t.ms / p.ms, 2)}**`],
    }
  } catch (error) {
    return { ok: false, row: [label, `not measured — ${reason(error)}`] }
  } finally {
    await served.close()
  }
}

async function callText(client, name, args) {
  const result = await client.callTool({ name, arguments: args })
  const text = textOf(result)
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text.slice(0, 300)}`)
  return text
}

/** Playwright MCP on one page: navigate, then at least 5 snapshots (the first one's YAML is what is counted). */
async function playwrightPage(pw, url) {
  // Its navigate answer links to a file of the snapshot instead of carrying it: the page is read with a browser_snapshot right after.
  const { value: early, ms: navigateMs } = await timed(async () => {
    await callText(pw.client, 'browser_navigate', { url })
    return callText(pw.client, 'browser_snapshot', {})
  })
  await sleep(SETTLE_MS)
  const { first, times } = await repeated(TIMED_SNAPSHOTS, () => callText(pw.client, 'browser_snapshot', {}))
  if (playwrightYaml(first) === '') throw new Error(`Playwright MCP's snapshot carries no YAML: ${first.slice(0, 300)}`)
  await callText(pw.client, 'browser_navigate', { url: 'about:blank' })
  return { text: first, times, navigateMs, early }
}

/**
 * A huge page read by scrolling: navigate (not counted), then SCROLL_PAGES PageDowns, each
 * until the agent has read what came into view. Playwright MCP's key answer points to a file
 * of the snapshot, so a `browser_snapshot` follows it; Tessera's answer is the delta.
 */
async function scrollTask(client, dialect, url) {
  await callText(client, 'browser_navigate', { url, ...(dialect === 'tessera' ? { snapshot: 'none' } : {}) })
  await sleep(SETTLE_MS)
  const times = []
  const answers = []
  let calls = 0
  for (let i = 0; i < SCROLL_PAGES; i++) {
    const { ms } = await timed(async () => {
      answers.push(await callText(client, 'browser_press_key', { key: 'PageDown' }))
      calls++
      if (dialect === 'playwright') {
        answers.push(await callText(client, 'browser_snapshot', {}))
        calls++
      }
    })
    times.push(ms)
  }
  dump(`scroll.${dialect}.txt`, answers.join('\n\n'))
  return { calls, tokens: answers.reduce((sum, text) => sum + tokens(text), 0), times: times.sort((a, b) => a - b) }
}

/**
 * A page's requests read as an agent debugging it reads them: navigate (not counted), list
 * every request, then read each by its number with no part (each peer's default answer).
 */
async function requestsTask(client, dialect, url) {
  await callText(client, 'browser_navigate', { url, ...(dialect === 'tessera' ? { snapshot: 'none' } : {}) })
  await sleep(SETTLE_MS)
  const list = await callText(client, 'browser_network_requests', { static: true })
  // Playwright MCP numbers its lines `1. [GET] …`; Tessera, inside its fence, `1 GET …`.
  const count = list.split('\n').filter((line) => (dialect === 'playwright' ? /^\d+\. \[/ : /^\d+ [A-Z]+ /).test(line)).length
  const answers = [list]
  for (let index = 1; index <= count; index++) answers.push(await callText(client, 'browser_network_request', { index }))
  dump(`requests.${dialect}.txt`, answers.join('\n\n'))
  // Bodies said in the answers themselves (Playwright MCP leaves each to a call with its part).
  const bodies = answers.filter((text) => /^response body:$|^ {2}Response body\b/m.test(text)).length
  return { requests: count, calls: answers.length, bodies, tokens: answers.reduce((sum, text) => sum + tokens(text), 0) }
}

/** The choices made on DROPDOWN_PAGE: each combobox by the text before it, and the option to choose. */
const DROPDOWN_CHOICES = [
  ['Select a speed', 'Fast'],
  ['Select a number', '19'],
]
/** What the page's hidden select elements hold, read after the task (not counted). */
const DROPDOWN_STATE = "[document.getElementById('speed').value, document.getElementById('number').value]"

/**
 * Choices from a list the page draws (jQuery UI's selectmenu: a combobox whose select element
 * is hidden), as an agent makes them from a snapshot. Playwright MCP's browser_select_option
 * takes only a select element, so its agent clicks the combobox, reads a snapshot for the
 * option's ref (its click answer links to a file) and clicks the option; Tessera's chooses in
 * one browser_select_option.
 */
async function dropdownTask(client, dialect, url, state) {
  await callText(client, 'browser_navigate', { url, ...(dialect === 'tessera' ? { snapshot: 'none' } : {}) })
  await sleep(SETTLE_MS)
  const answers = []
  const call = async (name, args) => {
    const text = await callText(client, name, args)
    answers.push(`### ${name} ${JSON.stringify(args)}\n${text}`)
    return text
  }
  const refIn = (text, pattern, what) => {
    const ref = pattern.exec(text)?.[1]
    if (ref === undefined) throw new Error(`${dialect}: no ref for ${what} in ${text.slice(0, 300)}`)
    return ref
  }
  const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const page = await call('browser_snapshot', {})
  for (const [label, value] of DROPDOWN_CHOICES) {
    if (dialect === 'tessera') {
      const combobox = refIn(page, new RegExp(`"${escaped(label)}"\\ncombobox:? [^\\n]*@(\\d+)`), label)
      await call('browser_select_option', { element: label, target: combobox, values: [value] })
    } else {
      const combobox = refIn(page, new RegExp(`${escaped(label)}\\n\\s*- combobox \\[ref=([^\\]]+)\\]`), label)
      await call('browser_click', { element: label, target: combobox })
      const open = await call('browser_snapshot', {})
      await call('browser_click', { element: value, target: refIn(open, new RegExp(`option "${escaped(value)}"[^\\n]*?\\[ref=([^\\]]+)\\]`), value) })
    }
  }
  dump(`dropdown.${dialect}.txt`, answers.join('\n\n'))
  return { calls: answers.length, tokens: answers.reduce((sum, text) => sum + tokens(text.slice(text.indexOf('\n') + 1)), 0), state: await state() }
}

/** The hub's browser tile (the page itself, for the checks the agent does not make, and to leave it blank between pages). */
function hubTile(tessera) {
  const tile = tessera.hub.ctx.surfaces.list('browser')[0]
  if (tile === undefined) throw new Error('the hub has no browser tile')
  return tessera.hub.ctx.surfaces.surface(tile.id)
}

/** Tessera on one page: navigate (the first opens the tile), at least 5 snapshots, then one expansion of every fold line of the first. */
async function tesseraPage(tessera, url) {
  const { value: early, ms: navigateMs } = await timed(() => callText(tessera.client, 'browser_navigate', { url }))
  await sleep(SETTLE_MS)
  const { first, times } = await repeated(TIMED_SNAPSHOTS, () => callText(tessera.client, 'browser_snapshot', {}))
  const folds = foldLines(first)
  const expansions = []
  let expansionTokens = 0
  const errors = []
  for (const fold of folds) {
    const result = await tessera.client.callTool({ name: 'browser_snapshot', arguments: { target: `@${fold.ref}`, ...(fold.offset === undefined ? {} : { offset: fold.offset }) } })
    const text = textOf(result)
    if (result.isError) errors.push(`${fold.line} → ${text.slice(0, 160)}`)
    else {
      expansions.push(text)
      expansionTokens += tokens(text)
    }
  }
  await hubTile(tessera).page.goto('about:blank').catch(() => undefined)
  return { text: first, times, folds, expansions, expansionTokens, errors, navigateMs, early }
}

/** A fresh snapshot, no cache: a tile in this process captures the page and outlines it. */
async function freshPage(fresh, url) {
  await fresh.tile.navigate(url)
  await sleep(SETTLE_MS)
  const { first, times } = await repeated(TIMED_SNAPSHOTS, async () => fresh.outlinePage(await fresh.tile.snapshot()))
  await fresh.tile.page.goto('about:blank').catch(() => undefined)
  return { text: first, times }
}

async function devtoolsPage(cdt, url) {
  await callText(cdt.client, 'navigate_page', { type: 'url', url })
  await sleep(SETTLE_MS)
  const { first, times } = await repeated(TIMED_SNAPSHOTS, () => callText(cdt.client, 'take_snapshot', {}))
  await callText(cdt.client, 'navigate_page', { type: 'url', url: 'about:blank' })
  return { text: first, times }
}

async function startFresh() {
  if (!existsSync(BROWSER_DIST)) throw new Error('packages/surfaces/browser/dist is missing: npm run build')
  const { BrowserTile, sharedBrowserHost, outlinePage } = await import(pathToFileURL(BROWSER_DIST).href)
  const filesDir = mkdtempSync(join(tmpdir(), 'tessera-bench-fresh-'))
  const tile = await new BrowserTile({ id: 'bench-fresh', host: sharedBrowserHost, filesDir }).open()
  return {
    tile,
    outlinePage,
    async close() {
      await tile.close()
      rmSync(filesDir, { recursive: true, force: true })
    },
  }
}

/** Tessera's lines near where a missed element should be: lines that carry its name, else lines of its role. */
function nearby(miss, views) {
  const lines = views.flatMap((view) => tesseraLines(view).map((line) => line.body))
  const needle = JSON.stringify(miss.name).slice(1, -1).slice(0, 40).toLowerCase()
  const named = miss.name === '' ? [] : lines.filter((line) => line.toLowerCase().includes(needle))
  if (named.length > 0) return named.slice(0, 2).map((line) => `tessera has: ${line.slice(0, 200)}`)
  const roled = lines.filter((line) => new RegExp(`(^|[ :])${miss.role}( |$)`).test(line))
  if (roled.length > 0) return [`name not in any view; ${miss.role} lines in view: ${roled.slice(0, 2).map((line) => line.slice(0, 120)).join(' | ')}`]
  return ['neither its name nor its role in any view']
}

export async function benchBrowserSnapshot() {
  const started = performance.now()
  const { CORPUS, serveCorpus, missingPages } = await loadCorpus()
  const missing = new Set(missingPages().map((page) => page.name))
  // TESSERA_BENCH_PAGES=name,name: only those pages (to look at a few).
  const only = process.env.TESSERA_BENCH_PAGES?.split(',').filter(Boolean)
  const pages = CORPUS.filter((page) => !missing.has(page.name) && (only === undefined || only.includes(page.name)))
  const server = await serveCorpus()
  const rows = []
  let ok = true
  let pw
  let tessera
  let fresh
  let cdt
  let cdtReason
  try {
    pw = await startPlaywrightMcp()
    tessera = await startTesseraHub()
    fresh = await startFresh()
    try {
      cdt = await startChromeDevtoolsMcp()
      await callText(cdt.client, 'take_snapshot', {})
    } catch (error) {
      cdtReason = reason(error)
      await cdt?.close()
      cdt = undefined
    }
    rows.push(['peers', `Playwright MCP ${pw.version}; chrome-devtools-mcp ${cdt ? cdt.version : `not run — ${cdtReason}`}; all on ${CHROMIUM}, headless, 1280×800`])
    if (missing.size > 0) rows.push(['corpus pages missing on this machine (not measured)', [...missing].join(', ')])
    rows.push([
      'per page: tokens Playwright MCP / Tessera (ratio) · recall · snapshot p50 ms · chrome-devtools-mcp',
      `recall = Playwright MCP's actionable elements that Tessera shows (same role and name) in its snapshot or one expansion of a fold line; p50 ms = Playwright MCP \`browser_snapshot\` / Tessera \`browser_snapshot\` over MCP (may come from the hub's frame cache) / Tessera fresh (capture + outline in process; a page read in parts keeps its last DOM snapshot while it has not changed, so its repeated captures reuse it); goal ratio ≤ ${MAX_RATIO}, recall 100 %, Tessera no slower`,
    ])

    const totals = { pw: 0, tessera: 0, cdt: 0, targets: 0, matched: 0, overRatio: [], underRecall: [], misses: [], slowerMcp: [], slowerFresh: [], navigate: [], slowerNavigate: [], earlyPw: [], earlyTessera: [] }
    for (const page of pages) {
      const url = server.url(page)
      process.stderr.write(`  page ${page.name}…\n`)
      let p
      let t
      let f
      try {
        p = await playwrightPage(pw, url)
        t = await tesseraPage(tessera, url)
        f = await freshPage(fresh, url)
      } catch (error) {
        ok = false
        rows.push([`page \`${page.name}\``, `not measured — ${reason(error)}`])
        say(`failed: ${reason(error)}`)
        continue
      }
      let d
      if (cdt) {
        try {
          d = await devtoolsPage(cdt, url)
        } catch (error) {
          d = { error: reason(error) }
        }
      }
      dump(`${page.name}.playwright.txt`, p.text)
      dump(`${page.name}.tessera.txt`, [t.text, ...t.expansions].join('\n\n'))
      if (d?.text) dump(`${page.name}.devtools.txt`, d.text)
      const pwTokens = tokens(p.text)
      const tTokens = tokens(t.text)
      const ratio = tTokens / pwTokens
      const targets = playwrightTargets(parsePlaywright(p.text))
      const reach = reachability(targets, [t.text, ...t.expansions])
      // What one expansion did not reach: is it one `find` away? (Sampled on long pages: a call each.)
      const findable = reach.misses.filter((miss) => miss.name !== '')
      const sample = findable.filter((_, i) => i % Math.max(1, Math.ceil(findable.length / FIND_SAMPLE)) === 0)
      let byFind = 0
      // tesseraPage left the tile blank: back to the page for the look-ups.
      if (sample.length > 0) await callText(tessera.client, 'browser_navigate', { url, snapshot: 'none' })
      for (const miss of sample) {
        const found = await callText(tessera.client, 'browser_snapshot', { find: miss.name.slice(0, 80) })
        if (reachability([miss], [found]).matched === 1) byFind++
      }
      const pwP50 = percentile(p.times, 50)
      const tP50 = percentile(t.times, 50)
      const fP50 = percentile(f.times, 50)
      totals.pw += pwTokens
      totals.tessera += tTokens
      totals.targets += reach.total
      totals.matched += reach.matched
      if (ratio > MAX_RATIO) totals.overRatio.push(`${page.name} ${fmt(ratio, 2)}`)
      if (reach.matched < reach.total) totals.underRecall.push(`${page.name} ${pct(reach.matched, reach.total)}`)
      if (tP50 > pwP50) totals.slowerMcp.push(page.name)
      if (fP50 > pwP50) totals.slowerFresh.push(page.name)
      totals.navigate.push(`${page.name} ${fmt(p.navigateMs, 0)} / ${fmt(t.navigateMs, 0)}`)
      if (t.navigateMs > p.navigateMs) totals.slowerNavigate.push(page.name)
      // Read at once, was the page already what it is once settled? A page still building itself is shown half made.
      if (pageShape(p.early, 'playwright') !== pageShape(p.text, 'playwright')) {
        totals.earlyPw.push(page.name)
        dump(`${page.name}.playwright-early.txt`, p.early)
      }
      if (pageShape(t.early, 'tessera') !== pageShape(t.text, 'tessera')) {
        totals.earlyTessera.push(page.name)
        dump(`${page.name}.tessera-early.txt`, t.early)
      }
      let cdtCell = 'not run'
      if (d?.error) cdtCell = `failed — ${d.error}`
      else if (d) {
        const cdtTokens = tokens(d.text)
        totals.cdt += cdtTokens
        cdtCell = `${cdtTokens.toLocaleString('en')} tokens, p50 ${fmt(percentile(d.times, 50), 1)} ms`
      }
      const recallCell = `${pct(reach.matched, reach.total)} (${reach.matched}/${reach.total}${reach.withoutRef > 0 ? `, ${reach.withoutRef} shown without a ref` : ''}${reach.byRole > 0 ? `, ${reach.byRole} unnamed in Playwright MCP matched by role` : ''}${reach.caseOnly > 0 ? `, ${reach.caseOnly} named in another letter case (CSS text-transform)` : ''}${sample.length > 0 ? `; of the other misses, ${byFind} of ${sample.length}${sample.length < findable.length ? ' sampled' : ''} one \`find\` away` : ''}; ${t.folds.length} fold line${t.folds.length === 1 ? '' : 's'} expanded, ${reach.viewsNeeded} needed, ${t.expansionTokens.toLocaleString('en')} tokens${t.errors.length > 0 ? `, ${t.errors.length} failed` : ''})`
      rows.push([
        `page \`${page.name}\``,
        `${pwTokens.toLocaleString('en')} / ${tTokens.toLocaleString('en')} (**${fmt(ratio, 2)}**) · ${recallCell} · ${fmt(pwP50, 1)} / ${fmt(tP50, 1)} / ${fmt(fP50, 1)} · ${cdtCell}`,
      ])
      const frameTokens = tokens(t.text.split('\n').filter((line, i, all) => i === 0 || line.startsWith('--- page ') || line.startsWith('--- end ') || i > all.findIndex((l) => l.startsWith('--- end '))).join('\n'))
      say(`tokens ${pwTokens} / ${tTokens} (${fmt(ratio, 2)}; of Tessera's, ${frameTokens} are its header, fences and lines after them); recall ${reach.matched}/${reach.total}; p50 ${fmt(pwP50, 1)} / ${fmt(tP50, 1)} / ${fmt(fP50, 1)} ms`)
      for (const error of t.errors.slice(0, 3)) say(`expansion failed: ${error}`)
      const byKind = new Map()
      for (const miss of reach.misses) byKind.set(miss.role, (byKind.get(miss.role) ?? 0) + 1)
      if (reach.misses.length > 0) say(`misses by role: ${[...byKind].map(([role, n]) => `${role} ${n}`).join(', ')}`)
      if (reach.misses.length > 0) totals.misses.push(`${page.name}: ${[...byKind].map(([role, n]) => `${n} ${role}`).join(', ')}`)
      for (const miss of reach.misses.slice(0, MISSES_SHOWN)) {
        say(`miss: ${miss.line}${miss.combobox ? ` (option of combobox "${miss.combobox.name}")` : ''}`)
        for (const line of nearby(miss, [t.text, ...t.expansions])) say(`      ${line}`)
      }
    }
    ok &&= totals.overRatio.length === 0 && totals.underRecall.length === 0 && totals.slowerMcp.length === 0 && totals.slowerFresh.length === 0
    rows.push(
      ['all pages: tokens Playwright MCP / Tessera (ratio)', `${totals.pw.toLocaleString('en')} / ${totals.tessera.toLocaleString('en')} (${fmt(totals.tessera / totals.pw, 3)})${cdt ? `; chrome-devtools-mcp ${totals.cdt.toLocaleString('en')}` : ''}`],
      [`pages over ${MAX_RATIO} × Playwright MCP tokens`, totals.overRatio.length === 0 ? 'none' : totals.overRatio.join(', ')],
      ['all pages: recall', `${pct(totals.matched, totals.targets)} (${totals.matched}/${totals.targets}); under 100 %: ${totals.underRecall.length === 0 ? 'none' : totals.underRecall.join(', ')}`],
      ['misses (Playwright MCP elements Tessera does not show), by page and role', totals.misses.length === 0 ? 'none' : totals.misses.join('; ')],
      ['pages where Tessera\'s snapshot p50 is slower than Playwright MCP\'s: over MCP / fresh', `${totals.slowerMcp.length === 0 ? 'none' : totals.slowerMcp.join(', ')} / ${totals.slowerFresh.length === 0 ? 'none' : totals.slowerFresh.join(', ')}`],
      ['a new page until its snapshot is read, ms: Playwright MCP `browser_navigate` then `browser_snapshot` (its navigate answer links to a file instead) / Tessera `browser_navigate` (its answer is the page; its first also opens the tile)', totals.navigate.join(', ')],
      ['pages where Tessera showed a new page later', totals.slowerNavigate.length === 0 ? 'none' : totals.slowerNavigate.join(', ')],
      [
        `pages whose first answer was not yet the page as it stood ${SETTLE_MS} ms later (other elements, names, values or states): Playwright MCP / Tessera`,
        `${totals.earlyPw.length === 0 ? 'none' : totals.earlyPw.join(', ')} / ${totals.earlyTessera.length === 0 ? 'none' : totals.earlyTessera.join(', ')}`,
      ],
    )

    // Reading a huge page by scrolling, both ways.
    for (const page of pages.filter((p) => p.features.includes('large'))) {
      process.stderr.write(`  scrolling ${page.name}…\n`)
      const url = server.url(page)
      try {
        const p = await scrollTask(pw.client, 'playwright', url)
        await callText(pw.client, 'browser_navigate', { url: 'about:blank' })
        const t = await scrollTask(tessera.client, 'tessera', url)
        await hubTile(tessera).page.goto('about:blank').catch(() => undefined)
        const how = (r) => `${r.calls} calls, ${r.tokens.toLocaleString('en')} tokens, answer p50 ${fmt(percentile(r.times, 50), 0)} ms (${r.times.map((ms) => fmt(ms, 0)).join(', ')})`
        rows.push([
          `reading \`${page.name}\` by scrolling: ${SCROLL_PAGES} PageDowns, each until what came into view is read — Playwright MCP \`browser_press_key\` then \`browser_snapshot\` (its key answer links to a file) · Tessera \`browser_press_key\` (its answer is what changed) · ratio of tokens / of answer p50`,
          `${how(p)} · ${how(t)} · **${fmt(t.tokens / p.tokens, 3)}** / **${fmt(percentile(t.times, 50) / percentile(p.times, 50), 2)}**`,
        ])
      } catch (error) {
        ok = false
        rows.push([`reading \`${page.name}\` by scrolling`, `not measured — ${reason(error)}`])
      }
    }

    // A page's requests read one by one, both ways: a page that loads its script and fetches JSON.
    for (const page of pages.filter((p) => p.name === REQUESTS_PAGE)) {
      process.stderr.write(`  requests of ${page.name}…\n`)
      const url = server.url(page)
      try {
        const p = await requestsTask(pw.client, 'playwright', url)
        await callText(pw.client, 'browser_navigate', { url: 'about:blank' })
        const t = await requestsTask(tessera.client, 'tessera', url)
        await hubTile(tessera).page.goto('about:blank').catch(() => undefined)
        const how = (r) => `${r.requests} requests, ${r.calls} calls, ${r.tokens.toLocaleString('en')} tokens, ${r.bodies} response bod${r.bodies === 1 ? 'y' : 'ies'} said`
        rows.push([
          `reading \`${page.name}\`'s requests: \`browser_network_requests\` with static ones, then \`browser_network_request\` of each, no part — Playwright MCP · Tessera · ratio of tokens`,
          `${how(p)} · ${how(t)} · **${fmt(t.tokens / p.tokens, 2)}**`,
        ])
      } catch (error) {
        ok = false
        rows.push([`reading \`${page.name}\`'s requests`, `not measured — ${reason(error)}`])
      }
    }

    // Choices from a list the page draws, both ways.
    for (const page of pages.filter((p) => p.name === DROPDOWN_PAGE)) {
      process.stderr.write(`  dropdowns of ${page.name}…\n`)
      const url = server.url(page)
      const wanted = JSON.stringify(DROPDOWN_CHOICES.map(([, value]) => value))
      try {
        const p = await dropdownTask(pw.client, 'playwright', url, async () => /### Result\n([\s\S]*?)\n###/.exec(await callText(pw.client, 'browser_evaluate', { function: `() => ${DROPDOWN_STATE}` }))?.[1]?.replace(/\s+/g, ''))
        await callText(pw.client, 'browser_navigate', { url: 'about:blank' })
        const t = await dropdownTask(tessera.client, 'tessera', url, async () => JSON.stringify(await hubTile(tessera).page.evaluate(DROPDOWN_STATE)))
        await hubTile(tessera).page.goto('about:blank').catch(() => undefined)
        for (const [peer, r] of [['Playwright MCP', p], ['Tessera', t]]) {
          if (r.state !== wanted) {
            ok = false
            say(`${peer}: the dropdowns hold ${r.state}, not ${wanted}`)
          }
        }
        const how = (r) => `${r.calls} calls, ${r.tokens.toLocaleString('en')} tokens${r.state === wanted ? '' : `, ended holding ${r.state}`}`
        rows.push([
          `choosing ${DROPDOWN_CHOICES.map(([label, value]) => `"${value}" in "${label}"`).join(' and ')} on \`${page.name}\` (comboboxes the page draws), from a snapshot — Playwright MCP: \`browser_click\` the combobox, \`browser_snapshot\` (its click answer links to a file), \`browser_click\` the option · Tessera: \`browser_select_option\` · ratio of tokens`,
          `${how(p)} · ${how(t)} · **${fmt(t.tokens / p.tokens, 2)}**`,
        ])
      } catch (error) {
        ok = false
        rows.push([`choosing from \`${page.name}\`'s comboboxes`, `not measured — ${reason(error)}`])
      }
    }

    // Whole tasks on big pages, both ways: a long text file, a feed of bare cards, a highlighted source file.
    const bigPageTasks = [
      {
        serve: serveLongText,
        task: longTextTask,
        slug: 'long-text',
        label: 'a long text file',
        title: (served) => `a text file of ${served.lines.toLocaleString('en')} lines (TypeScript's lib.dom.d.ts, 1.8 MB): open it, find \`interface HTMLDialogElement\` (line 13,579) and read it — Playwright MCP: \`browser_navigate\` (its answer links to a file), \`browser_find\` (its match is the page's one text, whole) · Tessera: \`browser_navigate\` (the lines in view), \`browser_find\` (the match's line), \`browser_snapshot\` of its ref (16,000 characters from there) · ratio of tokens / of time`,
        done: (r) => r.read,
        missed: 'the declaration not read',
        digits: 3,
      },
      {
        serve: serveFeed,
        task: feedTask,
        slug: 'feed',
        label: 'a feed of bare cards',
        title: () => `a feed of ${FEED_CARDS.toLocaleString('en')} cards, each a bare \`div\` (generated): open it, find the last card's link and follow it — Playwright MCP: \`browser_navigate\` (its answer links to a file), \`browser_find\` (the match in its snapshot), \`browser_click\` (its answer links to a file) · Tessera: \`browser_navigate\` (the view, the rest folded), \`browser_find\`, \`browser_click\` (the page where the link went) · ratio of tokens / of time`,
        done: (r) => r.followed,
        missed: 'the link not followed',
        digits: 2,
      },
      {
        serve: serveSource,
        task: sourceTask,
        slug: 'source',
        label: 'a highlighted source file',
        title: () => `a source file of ${SOURCE_LINES.toLocaleString('en')} lines as rustdoc shows it (generated: one \`pre\`, each line a numbered link and a dozen highlighted tokens, some 60,000 nodes): open it, find line 3,900 and follow its number's link — Playwright MCP: \`browser_navigate\` (its answer links to a file), \`browser_find\` (the matches in its snapshot), \`browser_click\` (its answer links to a file) · Tessera: \`browser_navigate\` (the lines in view, the rest folded), \`browser_find\`, \`browser_click\` (what changed) · ratio of tokens / of time`,
        done: (r) => r.followed,
        missed: 'the link not followed',
        digits: 2,
      },
    ]
    for (const { serve, task, title, ...how } of bigPageTasks) {
      process.stderr.write(`  ${how.label}…\n`)
      const served = await serve()
      const run = await taskBothWays(pw, tessera, served, task, { ...how, title: title(served) })
      ok &&= run.ok
      rows.push(run.row)
    }

    // The TodoMVC task, both ways.
    const pwTools = (await pw.client.listTools()).tools
    const tTools = (await tessera.client.listTools()).tools
    const tBrowser = tTools.filter((tool) => tool.name.startsWith('browser_'))
    rows.push(
      ['`tools/list` read once (not in the task totals): Playwright MCP tools / tokens', `${pwTools.length} / ${tokens(JSON.stringify(pwTools)).toLocaleString('en')}`],
      ['`tools/list` read once: Tessera bench hub, all tools / tokens; its `browser_*` tools / tokens', `${tTools.length} / ${tokens(JSON.stringify(tTools)).toLocaleString('en')}; ${tBrowser.length} / ${tokens(JSON.stringify(tBrowser)).toLocaleString('en')}`],
    )
    for (const page of pages.filter((p) => p.features.includes('todomvc'))) {
      const url = server.url(page)
      process.stderr.write(`  task ${page.name}…\n`)
      const runs = {}
      for (const [peer, dialect, client, state] of [
        ['Playwright MCP', 'playwright', pw.client, async () => JSON.parse(/### Result\n([\s\S]*?)\n###/.exec(await callText(pw.client, 'browser_evaluate', { function: `() => ${TODO_STATE_SCRIPT}` }))?.[1] ?? 'null')],
        ['Tessera', 'tessera', tessera.client, async () => hubTile(tessera).page.evaluate(TODO_STATE_SCRIPT)],
      ]) {
        const agent = new Agent(peer, dialect, client)
        try {
          runs[dialect] = await todoTask(agent, url, state)
        } catch (error) {
          runs[dialect] = { ok: false, error: reason(error), calls: agent.calls, tokens: agent.tokens, log: agent.log }
        }
        const r = runs[dialect]
        dump(`task-${page.name}.${dialect}.txt`, agent.answers.map((a) => `### ${a.call}\n${a.text}`).join('\n\n'))
        say(`${peer}: ${r.ok ? 'done' : `FAILED${r.error ? ` — ${r.error}` : ` — end state ${JSON.stringify(r.state)}`}`}; ${r.calls} calls, ${r.tokens} tokens: ${r.log.join('; ')}`)
      }
      const p = runs.playwright
      const t = runs.tessera
      const ratio = t.tokens / p.tokens
      ok &&= p.ok && t.ok && ratio <= MAX_RATIO && t.calls <= p.calls
      const how = (r) => `${r.calls} calls (${r.snapshots ?? 0} snapshot${r.snapshots === 1 ? '' : 's'}${r.expansions ? `, ${r.expansions} expansions` : ''}${r.retries ? `, ${r.retries} retries` : ''}), ${r.tokens.toLocaleString('en')} tokens, ${Math.round(r.ms ?? 0).toLocaleString('en')} ms${r.ok ? '' : `, **not done**${r.error ? `: ${r.error}` : ''}`}`
      rows.push([`task \`${page.name}\`: Playwright MCP · Tessera (calls, tokens read, time waiting on answers) · ratio of tokens`, `${how(p)} · ${how(t)} · **${fmt(ratio, 2)}**`])
    }
  } catch (error) {
    // A peer or Chromium that cannot start: the rest of `npm run bench` still runs, and the table says why.
    ok = false
    rows.push(['not measured', reason(error)])
  } finally {
    await fresh?.close().catch(() => undefined)
    await cdt?.close()
    await pw?.close()
    await tessera?.close()
    await server.close()
  }
  rows.push(['run time of this benchmark (s)', fmt((performance.now() - started) / 1000, 0)])
  return {
    name: 'Browser snapshots and the TodoMVC task against Playwright MCP, on the real-page corpus',
    budget: `≤ ${MAX_RATIO} × Playwright MCP tokens on every page and every task, recall 100 %, no more calls, snapshot p50 no slower`,
    ok,
    rows,
  }
}
