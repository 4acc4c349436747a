import { type JsonValue, TesseraError, cutWhole } from '@tessera/protocol'
import type { CDPSession } from 'playwright-core'
import { callOn } from './element-ops.js'
import type { ElementPlace } from './page-tree.js'

/** Characters of a script's answer given back: a page's whole markup is said by its start. */
export const RESULT_CHARS = 16_000

/**
 * An agent's script as Playwright MCP's `browser_evaluate` takes it: a function (`() => …`,
 * or `(element) => …` given an element), called and awaited, or any expression, awaited.
 * Run through the DevTools protocol, so a page's Content Security Policy, which rules the
 * page's own scripts, does not stop it: a person approved it as written.
 */
function wrapped(source: string, withElement: boolean): string {
  return `async function () { const value = (${source}\n); return typeof value === 'function' ? await value(${withElement ? 'this' : ''}) : await value }`
}

function threw(description: string | undefined, text: string): TesseraError {
  const first = (description ?? text).split('\n')[0] ?? text
  const code = first.startsWith('SyntaxError') ? 'invalid_input' : 'conflict'
  return new TesseraError(code, `the script ${code === 'invalid_input' ? 'does not parse' : 'threw'}: ${first}`, { found: first })
}

/** Its answer as JSON, cut to RESULT_CHARS (then a string of its start, saying so). */
function bounded(value: JsonValue | undefined): { result?: JsonValue; cut?: number } {
  if (value === undefined) return {}
  const json = JSON.stringify(value)
  if (json.length <= RESULT_CHARS) return { result: value }
  return { result: `${cutWhole(json, RESULT_CHARS)}…`, cut: json.length }
}

/** Runs the script in the page's top document. */
export async function runPageScript(session: CDPSession, source: string): Promise<{ result?: JsonValue; cut?: number }> {
  const answer = await session.send('Runtime.evaluate', { expression: `(${wrapped(source, false)})()`, awaitPromise: true, returnByValue: true, userGesture: true }).catch((error: unknown) => {
    // The answer ran, and is no data: a window, a node, a cycle. Said as that, not as the hub's own failure.
    const message = error instanceof Error ? error.message : String(error)
    if (/Object reference chain is too long|Object couldn't be returned by value/.test(message)) {
      throw new TesseraError('invalid_input', 'the script ran, and its answer cannot be given back as JSON (a window, an element or a cycle): return plain data, such as () => document.title', { expected: 'an answer of plain data', found: message.replace(/^.*Protocol error \([^)]*\): /, '') })
    }
    throw error
  })
  if (answer.exceptionDetails !== undefined) throw threw(answer.exceptionDetails.exception?.description, answer.exceptionDetails.text)
  return bounded(answer.result.value as JsonValue | undefined)
}

/** Runs the script on an element, in its own document (an iframe's too), the element its argument. */
export async function runElementScript(place: ElementPlace, source: string): Promise<{ result?: JsonValue; cut?: number }> {
  try {
    return bounded(await callOn<JsonValue | undefined>(place, wrapped(source, true)))
  } catch (error) {
    const message = error instanceof TesseraError ? error.message.replace(/^the page refused: /, '') : String(error)
    if (error instanceof TesseraError && error.code === 'not_found') throw error
    throw threw(message, message)
  }
}
