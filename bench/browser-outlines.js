// Reading the pages the peers answer with, as an agent would: Playwright MCP's YAML
// snapshot, Tessera's outline (and its deltas), into elements in document order, so that
// the benchmark can find an element by role and name, see which elements of one are
// reachable in the other, and find the fold lines of an outline.

/** Roles an agent acts on: an element with one of them and a ref is something to reach. */
export const ACTIONABLE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem',
])

/** Where Tessera cuts a name or a text (page-outline.ts quotes at most this many characters, the last an ellipsis). */
const TEXT_CHARS = 160

/** A name as both peers should say it: whitespace runs as one space, cut as Tessera cuts it. */
export function normalName(name) {
  // An icon font's glyph (Unicode's private use areas) is a picture, which Tessera leaves out of names: compared without it on both sides.
  const one = (name ?? '').replace(/[\ue000-\uf8ff\u{f0000}-\u{ffffd}\u{100000}-\u{10fffd}]/gu, ' ').replace(/\s+/g, ' ').trim()
  return one.length > TEXT_CHARS ? `${one.slice(0, TEXT_CHARS - 1)}…` : one
}

/** A double-quoted string starting at `text[start]`: its value and the index after it. */
function quoted(text, start) {
  let i = start + 1
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  const raw = text.slice(start, i + 1)
  let value
  try {
    value = JSON.parse(raw)
  } catch {
    value = raw.slice(1, -1).replace(/\\"/g, '"')
  }
  return { value, end: i + 1 }
}

// ── Playwright MCP ────────────────────────────────────────────────────────────────

/** The YAML of a Playwright MCP answer (the fenced block after "### Snapshot"), or '' when it has none. */
export function playwrightYaml(text) {
  const match = /```yaml\n([\s\S]*?)```/.exec(text)
  return match ? match[1] : ''
}

/**
 * Playwright MCP's snapshot as nodes in document order: `{ role, name, ref, attrs, text,
 * depth, parent, line }`. A line is `- role "name" [attr] [ref=e1]: text`, a key YAML may
 * quote as a whole; `- text: …` is a text node; `- /url: …` lines are properties, skipped.
 */
export function parsePlaywright(text) {
  const nodes = []
  const stack = []
  for (const line of playwrightYaml(text).split('\n')) {
    const match = /^(\s*)- (.*)$/.exec(line)
    if (!match) continue
    const depth = match[1].length / 2
    let body = match[2]
    if (body.startsWith('/')) continue
    if (body.startsWith("'")) {
      // A YAML single-quoted key: '' is a quote.
      let i = 1
      let key = ''
      while (i < body.length) {
        if (body[i] === "'") {
          if (body[i + 1] === "'") {
            key += "'"
            i += 2
            continue
          }
          break
        }
        key += body[i++]
      }
      body = key + body.slice(i + 1)
    }
    const role = /^[A-Za-z][\w-]*/.exec(body)?.[0]
    if (role === undefined) continue
    let i = role.length
    while (body[i] === ' ') i++
    let name = ''
    if (body[i] === '"') {
      const q = quoted(body, i)
      name = q.value
      i = q.end
    }
    const attrs = {}
    for (;;) {
      while (body[i] === ' ') i++
      if (body[i] !== '[') break
      const close = body.indexOf(']', i)
      if (close < 0) break
      const [key, value] = body.slice(i + 1, close).split('=')
      attrs[key] = value ?? true
      i = close + 1
    }
    let inline = ''
    if (body[i] === ':') inline = body.slice(i + 1).trim()
    if (inline.startsWith('"') && inline.endsWith('"')) inline = quoted(inline, 0).value
    while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop()
    const node = { role, name: role === 'text' ? '' : name, ref: attrs.ref, attrs, text: role === 'text' ? inline || name : inline, depth, parent: stack[stack.length - 1], line: line.trim() }
    nodes.push(node)
    stack.push(node)
  }
  return nodes
}

/** The elements of a Playwright MCP snapshot an agent could act on (an actionable role and a ref). */
export function playwrightTargets(nodes) {
  return nodes
    .filter((node) => ACTIONABLE_ROLES.has(node.role) && node.ref !== undefined)
    .map((node) => {
      let up = node.parent
      while (up !== undefined && up.role !== 'combobox') up = up.parent
      return { role: node.role, name: normalName(node.name), ref: node.ref, line: node.line, ...(node.role === 'option' && up !== undefined ? { combobox: { role: up.role, name: normalName(up.name) } } : {}) }
    })
}

// ── Tessera ───────────────────────────────────────────────────────────────────────

/** The lines of an outline (or a delta) between its fences, with their mark (`+`, `-`, `~` or none) and depth. */
export function tesseraLines(text) {
  const lines = text.split('\n')
  const open = lines.findIndex((line) => /^--- (page|changes) [0-9a-f]{6} /.test(line))
  const close = lines.findIndex((line) => line.startsWith('--- end '))
  if (open < 0 || close < 0) return []
  return lines.slice(open + 1, close).map((raw) => {
    const mark = /^[+~-] /.test(raw) ? raw[0] : ''
    const body = mark === '' ? raw : raw.slice(2)
    const depth = (body.length - body.trimStart().length) / 2
    return { mark, depth, body: body.trim() }
  })
}

/**
 * The elements, texts and values of one outline line, in order: `role "name": "value" @ref
 * (states) !risk`, a quoted text, or a packed line `role "name" @ref: child child …`. Fold
 * lines (`… n lines …`, `… n more rows …`) hold none.
 */
export function tesseraTokens(body) {
  const out = []
  if (body.startsWith('…') || body.startsWith('page tool ')) return out
  let last
  let pending
  let i = 0
  while (i < body.length) {
    const c = body[i]
    if (c === ' ' || c === ':') {
      i++
    } else if (c === '"') {
      const q = quoted(body, i)
      // A string right after a role word is its name; else a text (or a value, which says no more).
      if (last !== undefined && last.fresh) {
        last.name = normalName(q.value)
        last.fresh = false
      } else {
        const token = { kind: 'text', text: normalName(q.value) }
        out.push(token)
        // Before the element's @ref it is the element's value (`textbox "Name": "typed" @ref`), not a text of the page.
        if (last !== undefined && last.ref === undefined) pending = token
      }
      i = q.end
    } else if (c === '@') {
      const ref = /^@([n1-9][0-9a-z.]*)/.exec(body.slice(i))
      if (ref && last !== undefined) last.ref = ref[1]
      if (ref && pending !== undefined) {
        pending.kind = 'value'
        pending.of = last
      }
      pending = undefined
      i += ref ? ref[0].length : 1
      if (last) last.fresh = false
    } else if (c === '(') {
      const close = body.indexOf(')', i)
      if (last) last.states = body.slice(i + 1, close < 0 ? body.length : close).split(', ')
      i = close < 0 ? body.length : close + 1
      if (last) last.fresh = false
    } else if ((c === '.' || c === '#') && last !== undefined && last.fresh && /^[#.][A-Za-z_-][\w-]*/.test(body.slice(i))) {
      // An unnamed element's selector hint (`button .ui-spinner-up @10`): the markup's name, no element of its own.
      i += (/^[#.][A-Za-z_-][\w-]*/.exec(body.slice(i)) ?? [''])[0].length
      last.fresh = false
    } else if (c === '!') {
      const word = /^![a-z]+/.exec(body.slice(i))
      i += word ? word[0].length : 1
      if (last) last.fresh = false
    } else {
      const word = /^[A-Za-z][\w-]*/.exec(body.slice(i))
      if (!word) {
        i++
        continue
      }
      last = { kind: 'element', role: word[0], name: '', ref: undefined, fresh: true }
      pending = undefined
      out.push(last)
      i += word[0].length
    }
    // Only what directly follows a role word (a space between) can be its name.
    if (last !== undefined && last.fresh && body[i] === ':') last.fresh = false
  }
  for (const token of out) {
    delete token.fresh
    if (token.kind === 'value') delete token.of
  }
  return out
}

/** Every element and text of an outline or delta, in order; a delta's removed lines are left out. */
export function parseTessera(text) {
  const out = []
  for (const line of tesseraLines(text)) {
    if (line.mark === '-') continue
    for (const token of tesseraTokens(line.body)) out.push({ ...token, depth: line.depth, line: line.body })
  }
  return out
}

/**
 * The fold lines of an outline, one per expansion they name: a fold says how to expand what it
 * folds (`expand "@ref" offset n`), a repeated run every offset to page through it by
 * (`offset 4, 253, 502`).
 */
export function foldLines(text) {
  const folds = []
  for (const line of tesseraLines(text)) {
    if (!line.body.startsWith('…')) continue
    // One fold, or folds of a part each said as one line: `offset 5 to 9, a part each` or `offset 249, 498, a part each`.
    const match = /expand "@([n1-9][0-9a-z.]*)"(?: offset ([\d, ]+?|\d+ to \d+)(?:, a part each)?)?$/.exec(line.body)
    if (!match) continue
    const range = match[2] === undefined ? null : /^(\d+) to (\d+)$/.exec(match[2])
    const offsets = match[2] === undefined ? [undefined] : range !== null ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i) : match[2].split(', ').map(Number)
    for (const offset of offsets) folds.push({ ref: match[1], offset, line: line.body })
  }
  return folds
}

/**
 * What a snapshot shows of a page, without what names it for one answer only: refs, the
 * fence's nonce, focus and the pointer cursor. Two snapshots with the same shape showed the
 * same page; the benchmark compares an answer read at once with the page settled.
 */
export function pageShape(text, dialect) {
  if (dialect === 'playwright') return playwrightYaml(text).replace(/ \[(?:ref=[^\]]*|active|cursor=pointer)\]/g, '')
  return tesseraLines(text)
    .map((line) => `${'  '.repeat(line.depth)}${line.body}`.replace(/ @[a-z0-9][0-9a-z.]*/g, '').replace(/ \(focused\)|, focused|focused, /g, ''))
    .join('\n')
}

// ── Reachability ──────────────────────────────────────────────────────────────────

const keyOf = (role, name) => `${role} ${JSON.stringify(name)}`

/**
 * Which of Playwright MCP's actionable elements Tessera's views show, by role and name
 * (each element of a view counted once: by its @ref when it has one). Views are the default
 * snapshot first, then expansions; a native select's options count when their combobox does.
 * An element Playwright MCP leaves unnamed matches any element of its role left over (`byRole`).
 * Answers the matched count, the misses, and how many views past the first any match needed.
 */
export function reachability(targets, views) {
  // key → [{ view, ref }], each Tessera element once.
  const seen = new Map()
  const refsSeen = new Set()
  views.forEach((view, index) => {
    const perView = new Map()
    for (const token of parseTessera(view)) {
      if (token.kind !== 'element') continue
      const key = keyOf(token.role, token.name)
      if (token.ref !== undefined) {
        if (refsSeen.has(token.ref)) continue
        refsSeen.add(token.ref)
        const list = seen.get(key) ?? []
        list.push({ view: index, ref: token.ref })
        seen.set(key, list)
      } else perView.set(key, (perView.get(key) ?? 0) + 1)
    }
    // Elements without a ref: as many as the view that shows most of them.
    for (const [key, count] of perView) {
      const list = seen.get(key) ?? []
      const unref = list.filter((e) => e.ref === undefined).length
      for (let k = unref; k < count; k++) list.push({ view: index, ref: undefined })
      seen.set(key, list)
    }
  })
  const used = new Map()
  const take = (role, name) => {
    const key = keyOf(role, name)
    const list = seen.get(key) ?? []
    const n = used.get(key) ?? 0
    if (n >= list.length) return undefined
    used.set(key, n + 1)
    return list[n]
  }
  let matched = 0
  let withoutRef = 0
  const viewsNeeded = new Set()
  const misses = []
  // Elements first, then options (which may lean on their combobox).
  const comboboxFound = new Map()
  for (const target of targets.filter((t) => t.combobox === undefined)) {
    const hit = take(target.role, target.name)
    if (target.role === 'combobox') comboboxFound.set(keyOf('combobox', target.name), (comboboxFound.get(keyOf('combobox', target.name)) ?? 0) + (hit ? 1 : 0))
    if (hit) {
      matched++
      if (hit.ref === undefined) withoutRef++
      if (hit.view > 0) viewsNeeded.add(hit.view)
    } else misses.push(target)
  }
  for (const target of targets.filter((t) => t.combobox !== undefined)) {
    const hit = take(target.role, target.name)
    if (hit || (comboboxFound.get(keyOf(target.combobox.role, target.combobox.name)) ?? 0) > 0) {
      matched++
      if (hit?.view > 0) viewsNeeded.add(hit.view)
    } else misses.push(target)
  }
  // The same element under the same role, its name in another letter case: Chromium's accessibility
  // tree applies CSS text-transform to the name, Playwright MCP reads the DOM text. Reached, and counted apart.
  let caseOnly = 0
  for (const miss of [...misses]) {
    for (const [key, list] of seen) {
      if (!key.startsWith(`${miss.role} "`) || key.toLowerCase() !== keyOf(miss.role, miss.name).toLowerCase()) continue
      if ((used.get(key) ?? 0) >= list.length) continue
      const hit = list[used.get(key) ?? 0]
      used.set(key, (used.get(key) ?? 0) + 1)
      misses.splice(misses.indexOf(miss), 1)
      matched++
      caseOnly++
      if (hit.ref === undefined) withoutRef++
      if (hit.view > 0) viewsNeeded.add(hit.view)
      break
    }
  }
  // An element Playwright MCP names with nothing: any element of its role Tessera shows and nothing else matched is as good a match as there is.
  let byRole = 0
  for (const miss of [...misses]) {
    if (miss.name !== '' || miss.combobox !== undefined) continue
    for (const [key, list] of seen) {
      if (!key.startsWith(`${miss.role} "`) || (used.get(key) ?? 0) >= list.length) continue
      const hit = list[used.get(key) ?? 0]
      used.set(key, (used.get(key) ?? 0) + 1)
      misses.splice(misses.indexOf(miss), 1)
      matched++
      byRole++
      if (hit.ref === undefined) withoutRef++
      if (hit.view > 0) viewsNeeded.add(hit.view)
      break
    }
  }
  return { total: targets.length, matched, withoutRef, byRole, misses, caseOnly, viewsNeeded: viewsNeeded.size }
}
