import { TesseraError } from '@tessera/protocol'
import type { CDPSession } from 'playwright-core'

/** How long a call waits on a page before it asks whether the page still answers at all. */
const CHECK_AFTER_MS = 5_000
/**
 * How long the page then has to answer the simplest question. A renderer busy with honest work
 * answers after it (the DOM snapshot of a 200,000-line text took 9 s); one whose script never
 * yields (`while (true) {}`) never does, and every call on it would wait for ever.
 */
const ANSWER_MS = 10_000
/** A bound on the whole wait, answering or not: the gateway gave up on the call long before. */
const MAX_WAIT_MS = 10 * 60_000
/** Before a navigation: a page that does not answer this soon is replaced rather than asked to go. */
export const QUICK_ANSWER_MS = 2_000

/** What `work` gives, or `otherwise` (also where it fails) once `ms` passed without it: a page that stopped answering never answers. */
export async function answeredWithin<T>(work: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const silence = new Promise<T>((done) => {
    timer = setTimeout(() => done(otherwise), ms)
  })
  try {
    return await Promise.race([work.catch(() => otherwise), silence])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Whether the page's renderer answers a trivial question within `ms` (a question that fails,
 * as a navigation replaces the document, is an answer too). The session is awaited within the
 * same time: a new one asks the renderer to enable its domains, which a stuck one never does.
 */
export function answersWithin(session: CDPSession | Promise<CDPSession>, ms: number): Promise<boolean> {
  const asked = Promise.resolve(session)
    .then((ready) => ready.send('Runtime.evaluate', { expression: '0', returnByValue: true }))
    .then(
      () => true,
      () => true,
    )
  return answeredWithin(asked, ms, false)
}

/** A page whose renderer stopped answering: the tile shows it as such, and a navigation replaces it. */
export class PageStuck extends TesseraError {}

export function stuckPage(url: string): PageStuck {
  return new PageStuck(
    'timed_out',
    `the page stopped answering for ${(CHECK_AFTER_MS + ANSWER_MS) / 1000} s: its thread is busy (a script that never yields, or work too big); browser_navigate elsewhere opens a new tab in its place, or browser_close closes the tile`,
    { expected: 'a page that answers', found: url },
  )
}

/**
 * `work` on a page, as long as the page answers: it is asked whether it still does after
 * CHECK_AFTER_MS, and again every CHECK_AFTER_MS; one that stays silent for ANSWER_MS ends the
 * wait with `stuckPage`. `answers` also says yes while the page is rightly blocked (a dialog
 * is open).
 */
export async function whileAnswering<T>(work: Promise<T>, answers: () => Promise<boolean>, url: () => string): Promise<T> {
  work.catch(() => undefined)
  for (let waited = 0; waited < MAX_WAIT_MS; waited += CHECK_AFTER_MS) {
    let timer: NodeJS.Timeout | undefined
    const later = new Promise<false>((done) => {
      timer = setTimeout(() => done(false), CHECK_AFTER_MS)
    })
    const done = await Promise.race([work.then(() => true, () => true), later])
    clearTimeout(timer)
    if (done) return work
    if (!(await answers())) throw stuckPage(url())
  }
  return work
}

/** The same, where the page's main session is the one to ask. */
export function askingSession(session: () => Promise<CDPSession>, blocked: () => boolean): () => Promise<boolean> {
  return async () => blocked() || answersWithin(session(), ANSWER_MS)
}
