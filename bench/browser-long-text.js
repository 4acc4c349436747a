// A long text file read both ways: TypeScript's lib.dom.d.ts (39,429 lines, 1.8 MB, from the
// npm registry, not written for this), served from loopback as a browser shows a text file.
// The agent opens it and looks up one declaration far into it, then reads it. Playwright MCP:
// `browser_navigate` (its answer links to a file), `browser_find` (its search of the page's
// snapshot). Tessera: `browser_navigate` (its answer is the window of lines in view),
// `browser_find`, and the found text's ref to read on from the match.
import { readFileSync } from 'node:fs'
import { serveBody } from './serve-body.js'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { recordingCaller, tokens } from './peers.js'

const require = createRequire(import.meta.url)
export const LONG_TEXT_FILE = join(dirname(require.resolve('typescript/package.json')), 'lib/lib.dom.d.ts')
/** What the agent looks up, and a line of its declaration the answer must hold for the task to count as done. */
const WANTED = 'interface HTMLDialogElement'
const PROOF = 'requestClose(returnValue?: string): void;'

/** Serves the file at `/lib.dom.d.ts` on a loopback port; `url` and `close`. */
export async function serveLongText() {
  const body = readFileSync(LONG_TEXT_FILE)
  return { ...(await serveBody('/lib.dom.d.ts', body, 'text/plain; charset=utf-8')), lines: body.toString('utf8').trimEnd().split('\n').length }
}

/** One peer's run: calls, tokens read, time waiting on answers, whether the declaration was read, and each answer. */
export async function longTextTask(client, dialect, url) {
  const run = recordingCaller(client)
  const { call, answers } = run
  await call('browser_navigate', { url })
  const found = await call('browser_find', { text: WANTED })
  if (dialect === 'tessera') {
    const ref = /@(t?\d+) \(line \d+ of \d+\)/.exec(found)?.[1]
    if (ref === undefined) throw new Error(`the find named no text to read on: ${found.slice(0, 300)}`)
    await call('browser_snapshot', { target: `@${ref}` })
  }
  const last = answers.at(-1)?.text ?? ''
  const read = last.includes(PROOF)
  return { calls: answers.length, tokens: answers.reduce((sum, answer) => sum + tokens(answer.text), 0), ms: run.ms, read, answers }
}
