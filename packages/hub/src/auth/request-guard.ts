import type { IncomingMessage } from 'node:http'
import { TesseraError, type ErrorCode, type Principal, type Role } from '@tessera/protocol'
import type { TokenAuthenticator } from './token-store.js'

/**
 * Pure request checks for the hub's HTTP, WebSocket-upgrade and MCP-over-HTTP endpoints,
 * over web-standard Headers/Request so any server (Hono, node:http) can use them. Each
 * check returns null when the request may proceed, or a problem to send as the response.
 */

export interface GuardProblem {
  status: number
  error: { code: ErrorCode; message: string; details: Record<string, unknown> }
  /** Response headers the problem needs (WWW-Authenticate, Retry-After). */
  headers?: Record<string, string>
}

/** readBodyLimited cannot return a problem, so it throws one: a TesseraError with a status. */
export class HttpProblemError extends TesseraError {
  readonly status: number
  readonly headers: Record<string, string> | undefined

  constructor(problem: GuardProblem) {
    super(problem.error.code, problem.error.message, problem.error.details)
    this.name = 'HttpProblemError'
    this.status = problem.status
    this.headers = problem.headers
  }

  get problem(): GuardProblem {
    const base = { status: this.status, error: { code: this.code, message: this.message, details: this.details ?? {} } }
    return this.headers === undefined ? base : { ...base, headers: this.headers }
  }
}

export function problem(
  status: number,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  headers?: Record<string, string>,
): GuardProblem {
  return headers === undefined ? { status, error: { code, message, details } } : { status, error: { code, message, details }, headers }
}

/** A JSON Response for a problem, in the shape every Tessera error uses on the wire. */
export function problemResponse(p: GuardProblem): Response {
  return new Response(JSON.stringify({ error: p.error }), {
    status: p.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...p.headers },
  })
}

// ---------------------------------------------------------------------------------------
// Tokens

/**
 * The presented token, from `Authorization: Bearer <t>` or `X-Tessera-Token: <t>`.
 *
 * Tokens in the query string are deliberately not accepted: URLs end up in access logs,
 * proxy logs, browser history and Referer headers sent to other sites, and a link carrying
 * a token can be pasted or phished. A header is sent only by code that already holds it.
 */
export function bearerToken(headers: Headers): string | null {
  const authorization = headers.get('authorization')
  if (authorization !== null) {
    const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization.trim())
    if (match?.[1] !== undefined) return match[1]
  }
  const custom = headers.get('x-tessera-token')?.trim()
  return custom === undefined || custom === '' ? null : custom
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; problem: GuardProblem }

/** Resolves the request's principal, or a 401 that says whether a token was missing or refused. */
export function authenticate(headers: Headers, store: TokenAuthenticator): AuthResult {
  const challenge = { 'www-authenticate': 'Bearer realm="tessera"' }
  const token = bearerToken(headers)
  if (token === null) {
    return {
      ok: false,
      problem: problem(
        401,
        'unauthorized',
        'a token is required: send "Authorization: Bearer <token>" (see `tessera token create`)',
        { expected: 'Authorization: Bearer <token> or X-Tessera-Token header', found: 'no token' },
        challenge,
      ),
    }
  }
  const principal = store.authenticate(token)
  if (principal === null) {
    // Unknown and revoked read the same, and the token is never echoed: the response must
    // not help anyone probe which secrets once existed, nor copy a secret into a log.
    return {
      ok: false,
      problem: problem(
        401,
        'unauthorized',
        'the token is unknown or has been revoked',
        { expected: 'a valid, unrevoked token', found: 'unknown or revoked token' },
        { 'www-authenticate': 'Bearer realm="tessera", error="invalid_token"' },
      ),
    }
  }
  return { ok: true, principal }
}

/**
 * Roles are flat, with no hierarchy: `admin` does not imply `approver`. A caller lists every
 * role that may pass; the principal needs any one of them.
 */
export function requireRole(principal: Principal, roles: Role[]): GuardProblem | null {
  if (principal.roles.some((r) => roles.includes(r))) return null
  return problem(403, 'forbidden', `principal "${principal.id}" lacks the role for this request`, {
    expected: roles,
    found: principal.roles,
  })
}

// ---------------------------------------------------------------------------------------
// DNS rebinding: Host and Origin

/**
 * Host values a loopback-bound hub answers to. Browsers omit the port for 80, so that one
 * case also gets the bare names.
 */
export function defaultAllowedHosts(port: number): string[] {
  const names = ['127.0.0.1', 'localhost', '[::1]']
  const hosts = names.map((n) => `${n}:${port}`)
  return port === 80 ? [...hosts, ...names] : hosts
}

export function defaultAllowedOrigins(port: number): string[] {
  return defaultAllowedHosts(port).map((h) => `http://${h}`)
}

/**
 * DNS rebinding: a page on evil.example re-points its own name at 127.0.0.1 and then talks
 * to the hub as "same origin". The browser still sends `Host: evil.example:PORT`, so an
 * exact allow-list of the names the hub really serves defeats it. Case-insensitive because
 * host names are.
 */
export function checkHost(headers: Headers, allowedHosts: string[]): GuardProblem | null {
  const host = headers.get('host')?.trim().toLowerCase() ?? null
  if (host !== null && allowedHosts.some((h) => h.toLowerCase() === host)) return null
  return problem(403, 'forbidden', host === null ? 'the request has no Host header' : `host "${host}" is not served here`, {
    expected: allowedHosts,
    found: host,
  })
}

/**
 * Browsers send Origin on cross-origin and state-changing requests, so a present Origin
 * must be one of ours. An absent Origin means a non-browser client (CLI, MCP client,
 * curl), which the token already authenticates. `Origin: null` comes from sandboxed
 * iframes, file: pages and some redirects — an attacker can produce it at will, so it is
 * refused rather than treated as absent.
 */
export function checkOrigin(headers: Headers, allowedOrigins: string[]): GuardProblem | null {
  const origin = headers.get('origin')
  if (origin === null) return null
  const normalised = origin.trim().toLowerCase()
  if (normalised !== 'null' && allowedOrigins.some((o) => o.toLowerCase() === normalised)) return null
  return problem(403, 'forbidden', `origin "${origin.slice(0, 200)}" is not allowed`, {
    expected: allowedOrigins,
    found: origin.slice(0, 200),
  })
}

// ---------------------------------------------------------------------------------------
// Body size

/** Refuses early, before reading, when the declared length is already too large. */
export function checkContentLength(headers: Headers, maxBytes: number): GuardProblem | null {
  const declared = headers.get('content-length')
  if (declared === null) return null
  if (!/^\s*\d+\s*$/.test(declared)) {
    return problem(400, 'invalid_request', 'Content-Length is not a number of bytes', {
      expected: 'a non-negative integer',
      found: declared.slice(0, 40),
    })
  }
  const length = Number(declared)
  if (length <= maxBytes) return null
  return tooLarge(maxBytes, length)
}

/**
 * Reads a request body, aborting as soon as it passes maxBytes. Content-Length is a claim,
 * and chunked bodies have none, so the count of bytes actually received is what binds.
 * Throws HttpProblemError (413 or 400).
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = checkContentLength(request.headers, maxBytes)
  if (declared !== null) throw new HttpProblemError(declared)
  if (request.body === null) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      // Cancelling tells the source to stop sending; the rest is never buffered.
      await reader.cancel().catch(() => undefined)
      throw new HttpProblemError(tooLarge(maxBytes, `more than ${maxBytes}`))
    }
    chunks.push(value)
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0]
  const body = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}

/**
 * The same limit read straight from Node's request stream: the hub's own server hands its
 * handlers the IncomingMessage, and a web ReadableStream wrapped around it costs more per
 * request than the small JSON bodies of MCP calls take to arrive. Content-Length was
 * checked with the headers already (checkContentLength), before any byte is read.
 */
export function readIncomingLimited(incoming: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  if (incoming.readableEnded) return Promise.resolve(new Uint8Array(0))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let total = 0
    const stop = (): void => {
      incoming.off('data', onData)
      incoming.off('end', onEnd)
      incoming.off('error', onError)
    }
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength
      if (total <= maxBytes) {
        chunks.push(chunk)
        return
      }
      // Stop reading, never destroy: the 413 must still reach the client; Node's server
      // closes the connection if the rest of the body is not drained.
      stop()
      incoming.pause()
      reject(new HttpProblemError(tooLarge(maxBytes, `more than ${maxBytes}`)))
    }
    const onEnd = (): void => {
      stop()
      resolve(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, total))
    }
    const onError = (error: Error): void => {
      stop()
      reject(error)
    }
    incoming.on('data', onData)
    incoming.on('end', onEnd)
    incoming.on('error', onError)
  })
}

function tooLarge(maxBytes: number, found: number | string): GuardProblem {
  return problem(413, 'invalid_request', `the request body is larger than ${maxBytes} bytes`, {
    expected: `at most ${maxBytes} bytes`,
    found: `${found} bytes`,
  })
}
