// A source file of 4,000 lines as API documentation tools show it (rustdoc's source view): one
// `pre` whose every line is a numbered link and a dozen highlighted tokens, each a `span` or a
// text of its own — some 60,000 nodes under one element. Generated here, on loopback. The agent
// opens it, finds one function's line by its number and follows the link of that number.
// Playwright MCP: `browser_navigate` (its answer links to a file), `browser_find` (a search of
// the page's snapshot), `browser_click`. Tessera: `browser_navigate` (its answer is the view),
// `browser_find`, `browser_click`.
import { serveBody } from './serve-body.js'
import { recordingCaller, tokens } from './peers.js'

export const SOURCE_LINES = 4_000
const WANTED = 3_900
/** How long an answer may take before the task counts as not done. */
const ANSWER_MS = 180_000

function line(n) {
  return `<a href="#${n}" id="${n}">${n}</a><span class="kw">pub fn</span> <span class="fn">item_${n}</span>(<span class="self">&amp;self</span>, <span class="ident">count</span>: <span class="prim">u32</span>) -&gt; <span class="prim">u32</span> { <span class="ident">count</span> + <span class="number">${n}</span> } <span class="comment">// line ${n}</span>\n`
}

/** Serves the file at `/source` on a loopback port; `url` and `close`. */
export async function serveSource() {
  const lines = Array.from({ length: SOURCE_LINES }, (_, i) => line(i + 1)).join('')
  return serveBody('/source', Buffer.from(`<!doctype html><html><head><title>lib.rs - source</title><style>a { margin-right: 1em }</style></head><body><h1>lib.rs</h1><pre class="rust"><code>${lines}</code></pre></body></html>`), 'text/html; charset=utf-8')
}

/** One peer's run: calls, tokens read, time waiting on answers, whether the line's link was followed, and each answer. */
export async function sourceTask(client, dialect, url) {
  const run = recordingCaller(client, { timeout: ANSWER_MS })
  const { call, answers } = run
  await call('browser_navigate', { url })
  // The function's line and the link of its number, both saying the number; each names the link by its ref: Playwright MCP `[ref=e123]`, Tessera `@123`.
  const found = await call('browser_find', { text: `${WANTED}` })
  const ref = dialect === 'tessera' ? new RegExp(`link "${WANTED}" @(\\w+)`).exec(found)?.[1] : new RegExp(`link "${WANTED}" \\[ref=(\\w+)\\]`).exec(found)?.[1]
  if (ref === undefined) throw new Error(`the find named no link of line ${WANTED}: ${found.slice(0, 300)}`)
  const clicked = await call('browser_click', { element: `line ${WANTED}`, target: ref })
  const followed = clicked.includes(`#${WANTED}`)
  return { calls: answers.length, tokens: answers.reduce((sum, answer) => sum + tokens(answer.text), 0), ms: run.ms, followed, answers }
}
