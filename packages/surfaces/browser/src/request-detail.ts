import type { Request } from 'playwright-core'
import { TesseraError, cutWhole } from '@tessera/protocol'
import { REDACTED, SECRET_NAME, secretHeader } from './secret-names.js'
import type { JournalRequest } from './page-journal.js'

/** The parts of one request an agent may ask for alone (Playwright MCP's `part`). */
export const DETAIL_PARTS = ['request-headers', 'request-body', 'response-headers', 'response-body'] as const
export type DetailPart = (typeof DETAIL_PARTS)[number]

/** Characters of a body said: an API's answer, not a bundle of script. */
export const BODY_CHARS = 16_000
/**
 * Read whole (no `part`), a body longer than this is said by its size, and its part reads it:
 * an API's short answer comes at once, a page's script or markup only when asked. Playwright
 * MCP leaves every body to its part; a page's HTML said whole was 1,233 tokens, against 250.
 */
export const INLINE_BODY_CHARS = 2_000
/**
 * Headers Chromium adds to every request of its own accord, the same on each: left out of a
 * request read whole (counted), listed by its `request-headers` part.
 */
const BROWSER_HEADER = /^(accept-encoding|accept-language|connection|host|user-agent|upgrade-insecure-requests|sec-ch-ua(-[a-z-]+)?|sec-fetch-[a-z-]+)$/i
/** Requests whose `Accept` the page's script may set; any other's (a navigation's, an image's) is the browser's own. */
const SCRIPTED = new Set(['fetch', 'xhr'])

function browserHeader(name: string, type: string): boolean {
  return BROWSER_HEADER.test(name) || (name.toLowerCase() === 'accept' && !SCRIPTED.has(type))
}

/** A body not said: its size, and its media type as the site named it. */
export interface BodyLeft {
  bytes: number
  type: string
  /** Why: it is not text, or it is longer than a request read whole says. */
  reason: 'not text' | 'long'
}

export interface RequestDetail extends JournalRequest {
  requestHeaders?: Record<string, string>
  /** Headers the browser sends with every request, left out of `requestHeaders` (read whole). */
  browserHeaders?: number
  requestBody?: string
  requestBodyLeft?: BodyLeft
  responseHeaders?: Record<string, string>
  responseBody?: string
  responseBodyLeft?: BodyLeft
  /** What is not said, and why, in the hub's words: a body cut, one the browser let go. */
  notes: string[]
}

/** Media types read as text; anything else (an image, a font, a zip) is said by its type and size. */
const TEXT_TYPE = /^text\/|[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql)\b/i

function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, secretHeader(name) ? REDACTED : value]))
}

/** A JSON value with every secret key's value redacted, however deep. */
function redactedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactedJson)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_NAME.test(key) ? REDACTED : redactedJson(inner)]))
}

/** A form field's name as the page wrote it (a malformed escape is read as it is). */
function formName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw
  }
}

/**
 * A body with the values of secret names redacted: a login form's password, a JSON answer's
 * token. The agent may have typed the password itself, but a person or their password manager
 * may have, and the trace keeps what the agent reads.
 */
export function redactedBody(body: string, contentType: string): string {
  if (/json/i.test(contentType) || /^\s*[[{]/.test(body)) {
    try {
      return JSON.stringify(redactedJson(JSON.parse(body)))
    } catch {
      // Not JSON after all: the other shapes below, or as it is.
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType)) {
    // Pair by pair, as sent: only a secret's value changes.
    return body
      .split('&')
      .map((pair) => {
        const name = pair.split('=')[0] ?? ''
        return SECRET_NAME.test(formName(name)) ? `${name}=${REDACTED}` : pair
      })
      .join('&')
  }
  if (/multipart\/form-data/i.test(contentType)) {
    return body.replace(/(name="([^"]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([^\r\n]*)/g, (whole, head: string, name: string) => (SECRET_NAME.test(name) ? `${head}${REDACTED}` : whole))
  }
  return body
}

function cut(body: string, what: string, notes: string[]): string {
  if (body.length <= BODY_CHARS) return body
  notes.push(`the ${what} is cut to its first ${BODY_CHARS.toLocaleString('en')} characters of ${body.length.toLocaleString('en')}`)
  return cutWhole(body, BODY_CHARS)
}

function headerOf(headers: Record<string, string>, name: string): string {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? ''
}

/**
 * One request as an agent debugging a page reads it: its headers and bodies (or the one
 * `part` asked for), secrets redacted, a body of text cut at BODY_CHARS and any other said by
 * its type and size. Read whole, it leaves out the browser's own headers and any body longer
 * than INLINE_BODY_CHARS, saying what it left to which part.
 */
export async function detailOf(request: Request, entry: JournalRequest, part?: DetailPart): Promise<RequestDetail> {
  const notes: string[] = []
  const detail: RequestDetail = { ...entry, notes }
  const wants = (which: DetailPart): boolean => part === undefined || part === which
  // Read whole, a long body is left to its part.
  const inline = (body: string): boolean => part !== undefined || body.length <= INLINE_BODY_CHARS
  const sent = await request.allHeaders()
  if (wants('request-headers')) {
    const own = part === undefined ? Object.fromEntries(Object.entries(sent).filter(([name]) => !browserHeader(name, entry.type))) : sent
    detail.requestHeaders = redactedHeaders(own)
    const left = Object.keys(sent).length - Object.keys(own).length
    if (left > 0) detail.browserHeaders = left
  }
  if (wants('request-body')) {
    const body = request.postData()
    const type = headerOf(sent, 'content-type')
    if (body !== null && inline(body)) detail.requestBody = cut(redactedBody(body, type), 'request body', notes)
    else if (body !== null) detail.requestBodyLeft = { bytes: Buffer.byteLength(body), type, reason: 'long' }
    else if (part !== undefined) notes.push('the request sent no body')
  }
  if (!wants('response-headers') && !wants('response-body')) return detail
  const response = await request.response().catch(() => null)
  if (response === null) {
    notes.push(entry.failure !== undefined ? `no answer came: ${entry.failure}` : 'no answer has come yet')
    return detail
  }
  const received = await response.allHeaders()
  if (wants('response-headers')) detail.responseHeaders = redactedHeaders(received)
  // A download's body went to its file, not to the page: the browser holds none of it.
  if (wants('response-body') && entry.download !== undefined) notes.push(`its body is the file ${JSON.stringify(entry.download)}`)
  else if (wants('response-body')) {
    const type = headerOf(received, 'content-type')
    let bytes: Buffer | undefined
    try {
      bytes = await response.body()
    } catch (error) {
      // A redirect has no body; one the page navigated away from is let go by the browser.
      notes.push(`its body is not held: ${(error as Error).message.split('\n')[0]}`)
    }
    if (bytes === undefined) return detail
    const said = TEXT_TYPE.test(type) || (type === '' && !bytes.subarray(0, 512).includes(0)) ? bytes.toString('utf8') : undefined
    if (said === undefined) detail.responseBodyLeft = { bytes: bytes.length, type, reason: 'not text' }
    else if (!inline(said)) detail.responseBodyLeft = { bytes: bytes.length, type, reason: 'long' }
    else detail.responseBody = cut(redactedBody(said, type), 'response body', notes)
  }
  return detail
}

/** The request `index` names, or a `not_found` that says which there are. */
export function requestNotFound(index: number, count: number): TesseraError {
  const there = count === 0 ? 'the page has made none since it loaded' : `browser_network_requests lists 1–${count} (static ones too with static: true)`
  return new TesseraError('not_found', `no request ${index} since the page loaded: ${there}`, { expected: count === 0 ? 'no request yet' : `1–${count}`, found: index })
}
