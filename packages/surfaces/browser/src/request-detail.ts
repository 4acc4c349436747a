import type { Request } from 'playwright-core'
import { TesseraError } from '@tessera/protocol'
import { REDACTED, SECRET_NAME, secretHeader } from './secret-names.js'
import type { JournalRequest } from './page-journal.js'

/** The parts of one request an agent may ask for alone (Playwright MCP's `part`). */
export const DETAIL_PARTS = ['request-headers', 'request-body', 'response-headers', 'response-body'] as const
export type DetailPart = (typeof DETAIL_PARTS)[number]

/** Characters of a body said: an API's answer, not a bundle of script. */
export const BODY_CHARS = 16_000

export interface RequestDetail extends JournalRequest {
  requestHeaders?: Record<string, string>
  requestBody?: string
  responseHeaders?: Record<string, string>
  responseBody?: string
  /** What is not said, and why: a body cut, a body that is not text, one the browser let go. */
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
  return body.slice(0, BODY_CHARS)
}

function headerOf(headers: Record<string, string>, name: string): string {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? ''
}

/**
 * One request as an agent debugging a page reads it: its headers and bodies (or the one
 * `part` asked for), secrets redacted, a body of text cut at BODY_CHARS and any other said by
 * its type and size.
 */
export async function detailOf(request: Request, entry: JournalRequest, part?: DetailPart): Promise<RequestDetail> {
  const notes: string[] = []
  const detail: RequestDetail = { ...entry, notes }
  const wants = (which: DetailPart): boolean => part === undefined || part === which
  const sent = await request.allHeaders()
  if (wants('request-headers')) detail.requestHeaders = redactedHeaders(sent)
  if (wants('request-body')) {
    const body = request.postData()
    if (body !== null) detail.requestBody = cut(redactedBody(body, headerOf(sent, 'content-type')), 'request body', notes)
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
  if (wants('response-body')) {
    const type = headerOf(received, 'content-type')
    let bytes: Buffer | undefined
    try {
      bytes = await response.body()
    } catch (error) {
      // A redirect has no body; one the page navigated away from is let go by the browser.
      notes.push(`its body is not held: ${(error as Error).message.split('\n')[0]}`)
    }
    if (bytes !== undefined && (TEXT_TYPE.test(type) || (type === '' && !bytes.subarray(0, 512).includes(0)))) detail.responseBody = cut(redactedBody(bytes.toString('utf8'), type), 'response body', notes)
    else if (bytes !== undefined) notes.push(`its body is ${bytes.length.toLocaleString('en')} bytes of ${type}, not text`)
  }
  return detail
}

/** The request `index` names, or a `not_found` that says which there are. */
export function requestNotFound(index: number, count: number): TesseraError {
  const there = count === 0 ? 'the page has made none since it loaded' : `browser_network_requests lists 1–${count} (static ones too with static: true)`
  return new TesseraError('not_found', `no request ${index} since the page loaded: ${there}`, { expected: count === 0 ? 'no request yet' : `1–${count}`, found: index })
}
