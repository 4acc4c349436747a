// A feed of 30,000 cards, as a page of endless scrolling holds after a long while: each card a
// bare `div` (no role, no id) of a title, a line of text and a link, all under bare `div`s.
// Generated here, on loopback. The agent opens it, finds the last card's link and follows it.
// Playwright MCP: `browser_navigate` (its answer links to a file), `browser_find` (a search of
// the page's snapshot), `browser_click`. Tessera: `browser_navigate` (its answer is the view),
// `browser_find`, `browser_click`.
import { serveBody } from './serve-body.js'
import { recordingCaller, tokens } from './peers.js'

export const FEED_CARDS = 30_000
const LAST = FEED_CARDS - 1
/** How long an answer may take before the task counts as not done (Playwright MCP's own limit on a snapshot is longer). */
const ANSWER_MS = 180_000

/** Serves the feed at `/feed` on a loopback port; `url` and `close`. */
export async function serveFeed() {
  const cards = Array.from({ length: FEED_CARDS }, (_, i) => `<div><span>Card ${i}</span><p>What card ${i} says</p><a href="#card-${i}">Open ${i}</a></div>`).join('')
  return serveBody('/feed', Buffer.from(`<!doctype html><html><head><title>Feed</title></head><body><h1>Feed</h1><div>${cards}</div></body></html>`), 'text/html; charset=utf-8')
}

/** One peer's run: calls, tokens read, time waiting on answers, whether the link was followed, and each answer. */
export async function feedTask(client, dialect, url) {
  const run = recordingCaller(client, { timeout: ANSWER_MS })
  const { call, answers } = run
  await call('browser_navigate', { url })
  const found = await call('browser_find', { text: `Open ${LAST}` })
  // Each names the link by its ref: Playwright MCP `[ref=e123]`, Tessera `@123`.
  const ref = dialect === 'tessera' ? /link "Open \d+" @(\w+)/.exec(found)?.[1] : /link "Open \d+" \[ref=(\w+)\]/.exec(found)?.[1]
  if (ref === undefined) throw new Error(`the find named no link to follow: ${found.slice(0, 300)}`)
  const clicked = await call('browser_click', { element: `Open ${LAST}`, target: ref })
  const followed = clicked.includes(`#card-${LAST}`)
  return { calls: answers.length, tokens: answers.reduce((sum, answer) => sum + tokens(answer.text), 0), ms: run.ms, followed, answers }
}
