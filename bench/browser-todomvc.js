// The TodoMVC task as an agent does it, one script for both peers: add three todos (type +
// submit), complete the first, filter Active, clear completed. The agent acts on refs it
// read in answers; when the ref it needs is in nothing it has read, it asks for the page
// (browser_snapshot), and on Tessera, when the page's outline folds it away, it expands the
// folds one by one. Every call and every token it reads is counted.
import { foldLines, parsePlaywright, parseTessera, tesseraLines } from './browser-outlines.js'
import { textOf, tokens } from './peers.js'

export const TODOS = ['Buy milk', 'Walk the dog', 'Write the report']
/** How many folds the agent expands, at most, looking for one element. */
const MAX_EXPANSIONS = 12

/** Playwright MCP's snapshot as tokens in document order: an element, then the text it holds inline. */
function playwrightTokens(text) {
  const out = []
  for (const node of parsePlaywright(text)) {
    if (node.role !== 'text') out.push({ kind: 'element', role: node.role, name: node.name, ref: node.ref })
    if (node.text) out.push({ kind: 'text', text: node.text })
  }
  return out
}

/** How each peer's answers read and how its refs are passed back. */
export const DIALECTS = {
  playwright: { tokensOf: playwrightTokens, target: (ref) => ref, folds: () => [] },
  tessera: { tokensOf: parseTessera, target: (ref) => `@${ref}`, folds: foldLines },
}

// Finders: the element an agent is looking for, among the tokens of one answer.
export const find = {
  newTodo: (tokens) => tokens.find((t) => t.kind === 'element' && t.ref && t.role === 'textbox' && t.name === 'What needs to be done?'),
  link: (name) => (tokens) => tokens.find((t) => t.kind === 'element' && t.ref && t.role === 'link' && t.name === name),
  clearCompleted: (tokens) => tokens.find((t) => t.kind === 'element' && t.ref && t.role === 'button' && /^Clear completed/.test(t.name)),
  /** The checkbox of the todo that says `label`: on its own line, or the nearest checkbox just before the text. */
  toggleOf: (label) => (tokens) => {
    for (let at = 0; at < tokens.length; at++) {
      const t = tokens[at]
      if (!((t.kind === 'text' && t.text === label) || (t.kind === 'element' && t.name === label))) continue
      for (let j = at; j >= Math.max(0, at - 3); j--) {
        const before = tokens[j]
        if (before.kind === 'element' && before.role === 'checkbox' && before.ref) return before
      }
    }
    return undefined
  },
}

/** An agent on one peer: every call, and every token of every answer it reads, counted. */
export class Agent {
  calls = 0
  tokens = 0
  snapshots = 0
  expansions = 0
  retries = 0
  /** Time spent waiting on the peer's answers (ms). */
  ms = 0
  /** What it has read that names elements, oldest first. */
  views = []
  /** Tessera refs a later delta removed. */
  gone = new Set()
  log = []
  /** Every answer, with the call that got it. */
  answers = []

  constructor(peer, dialect, client) {
    this.peer = peer
    this.dialect = DIALECTS[dialect]
    this.kind = dialect
    this.client = client
  }

  async call(name, args) {
    const started = performance.now()
    const result = await this.client.callTool({ name, arguments: args })
    this.ms += performance.now() - started
    const text = textOf(result)
    this.calls += 1
    this.tokens += tokens(text)
    this.log.push(`${name} ${JSON.stringify(args)}${result.isError ? ' → error' : ''}`)
    this.answers.push({ call: this.log[this.log.length - 1], text })
    this.read(text)
    return { text, isError: result.isError === true }
  }

  read(text) {
    if (this.kind === 'tessera') {
      const lines = tesseraLines(text)
      const added = new Set(lines.filter((l) => l.mark === '+' || l.mark === '~').flatMap((l) => [...l.body.matchAll(/@([n1-9][0-9a-z.]*)/g)].map((m) => m[1])))
      for (const line of lines) if (line.mark === '-') for (const m of line.body.matchAll(/@([n1-9][0-9a-z.]*)/g)) if (!added.has(m[1])) this.gone.add(m[1])
      for (const ref of added) this.gone.delete(ref)
    }
    this.views.push(text)
  }

  /** The element a finder names in what the agent has read, newest answer first. */
  lookup(finder, views = this.views) {
    for (let i = views.length - 1; i >= 0; i--) {
      const hit = finder(this.dialect.tokensOf(views[i]))
      if (hit && !this.gone.has(hit.ref)) return hit
    }
    return undefined
  }

  /** The element, asking for the page (and on Tessera expanding its folds) only when nothing read so far names it. */
  async need(finder, what) {
    const known = this.lookup(finder)
    if (known) return known
    const snapshot = await this.call('browser_snapshot', {})
    this.snapshots += 1
    const seen = this.lookup(finder, [snapshot.text])
    if (seen) return seen
    for (const fold of this.dialect.folds(snapshot.text).slice(0, MAX_EXPANSIONS)) {
      const expanded = await this.call('browser_snapshot', { target: `@${fold.ref}`, ...(fold.offset === undefined ? {} : { offset: fold.offset }) })
      this.expansions += 1
      const hit = this.lookup(finder, [expanded.text])
      if (hit) return hit
    }
    throw new Error(`${this.peer}: no ${what} in the page as read:\n${snapshot.text.slice(0, 3000)}`)
  }

  /** Acts on an element; a ref gone stale (the page re-rendered it) costs a new look and a second try. */
  async act(tool, args, finder, what) {
    const element = await this.need(finder, what)
    const first = await this.call(tool, { element: what, target: this.dialect.target(element.ref), ...args })
    if (!first.isError) return first
    this.retries += 1
    this.gone.add(element.ref)
    this.views = []
    const again = await this.need(finder, what)
    const second = await this.call(tool, { element: what, target: this.dialect.target(again.ref), ...args })
    if (second.isError) throw new Error(`${this.peer}: ${tool} on ${what} failed twice: ${second.text.slice(0, 500)}`)
    return second
  }
}

/** The task on one TodoMVC app; `pageState()` reads the page's list and route (not counted: the benchmark checks, the agent does not). */
export async function todoTask(agent, url, pageState) {
  await agent.call('browser_navigate', { url })
  for (const todo of TODOS) await agent.act('browser_type', { text: todo, submit: true }, find.newTodo, 'new todo field')
  await agent.act('browser_click', {}, find.toggleOf(TODOS[0]), `checkbox of "${TODOS[0]}"`)
  await agent.act('browser_click', {}, find.link('Active'), 'Active filter')
  await agent.act('browser_click', {}, find.clearCompleted, 'Clear completed')
  const state = await pageState()
  const expected = TODOS.slice(1)
  const ok = JSON.stringify(state.todos) === JSON.stringify(expected) && /#\/active$/.test(state.url) && state.completed === 0 && !state.clearShown
  return { ok, state, calls: agent.calls, tokens: agent.tokens, ms: agent.ms, snapshots: agent.snapshots, expansions: agent.expansions, retries: agent.retries, log: agent.log }
}

/** Run in the page: the todos it shows, its route, and what still says a todo is completed. */
export const TODO_STATE_SCRIPT = `(() => {
  const visible = (el) => el !== null && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
  const items = [...document.querySelectorAll('#todo-list > li, .todo-list > li')]
  const todos = items.filter(visible).map((li) => (li.querySelector('label')?.textContent ?? li.textContent).trim())
  const completed = items.filter((li) => li.classList.contains('completed')).length
  const clear = document.querySelector('#clear-completed, .clear-completed')
  return { todos, url: location.href, completed, clearShown: visible(clear) }
})()`
