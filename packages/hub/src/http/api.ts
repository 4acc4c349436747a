import { reconstructSession, verifyStore } from '@tessera/gateway'
import { jsonSchemaOf } from '@tessera/kit'
import { ApprovalStatus, type Principal, type ReplayStep, type Role, TesseraError, type TraceEvent } from '@tessera/protocol'
import type { HttpBindings } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { formatLoginLink, type LoginLinks } from '../auth/login-link.js'
import { PrincipalRateLimiter, rateLimitProblem } from '../auth/principal-rate-limit.js'
import { authenticate, checkContentLength, checkHost, checkOrigin, problemResponse, readBodyLimited, readIncomingLimited, requireRole } from '../auth/request-guard.js'
import type { LiveTokens } from '../auth/live-tokens.js'
import type { HubContext } from '../startup/hub-context.js'
import type { McpHttpEndpoint } from '../mcp/mcp-http.js'
import { consoleAssets } from './console-assets.js'
import { CONSOLE_COOKIE, type ConsoleSessions } from './console-sessions.js'
import { errorResponse } from './error-response.js'
import type { HubMetrics } from './hub-metrics.js'

export interface ApiDeps {
  tokens: LiveTokens
  logins: LoginLinks
  mcp: McpHttpEndpoint
  allowedHosts: () => string[]
  allowedOrigins: () => string[]
  metrics: HubMetrics
  /** The console's sign-ins (shared with the WebSocket endpoints). */
  consoleSessions: ConsoleSessions
  /** Where the built console is; default packages/console/dist. */
  consoleRoot?: string
}

type Env = { Variables: { principal: Principal }; Bindings: Partial<HttpBindings> }

const READ: Role[] = ['viewer', 'agent', 'approver', 'admin']
const ACT: Role[] = ['agent', 'admin']
const APPROVE: Role[] = ['approver']

async function jsonBody(c: Context<Env>, maxBytes: number): Promise<unknown> {
  const incoming = c.env?.incoming
  const bytes = incoming === undefined ? await readBodyLimited(c.req.raw, maxBytes) : await readIncomingLimited(incoming, maxBytes)
  if (bytes.length === 0) return {}
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown
  } catch (error) {
    throw new TesseraError('invalid_request', `expected a JSON body: ${(error as Error).message}`, { expected: 'application/json', found: 'malformed JSON' })
  }
}

/** A body that must be a JSON object (an empty body counts as `{}`): `null` or `[]` is a 400, not a crash. */
async function objectBody(c: Context<Env>, maxBytes: number): Promise<Record<string, unknown>> {
  const body = await jsonBody(c, maxBytes)
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new TesseraError('invalid_request', `expected a JSON object as the body, found ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`, { expected: 'object', found: body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body })
  }
  return body as Record<string, unknown>
}

function need(c: Context<Env>, roles: Role[]): void {
  const refused = requireRole(c.get('principal'), roles)
  if (refused) throw new TesseraError(refused.error.code, refused.error.message, refused.error.details)
}

function intParam(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new TesseraError('invalid_request', `expected a non-negative integer, found "${value}"`, { expected: 'integer ≥ 0', found: value })
  return Math.min(n, max)
}

/**
 * The hub's HTTP API (Hono, web-standard Request/Response). Every route but /api/health
 * and the login link needs a token or a console session; Host and Origin are checked on
 * all of them against DNS rebinding, and bodies are size-limited before they are read.
 */
export function createApi(ctx: HubContext, deps: ApiDeps): Hono<Env> {
  const app = new Hono<Env>()
  const sessions = deps.consoleSessions
  const consoleApp = consoleAssets(deps.consoleRoot)
  const perMinute = ctx.config.limits.requestsPerMinute
  const limiter = new PrincipalRateLimiter({ burst: Math.max(10, Math.ceil(perMinute / 4)), perSecond: perMinute / 60 })
  const maxBytes = ctx.config.limits.bodyBytes

  // Every request is counted by the route it matched, whatever came of it.
  app.use('*', async (c, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      deps.metrics.observeHttp(c.req.method, c.req.routePath === '/*' ? 'unmatched' : c.req.routePath, c.res.status, (performance.now() - started) / 1000)
    }
  })

  app.onError((error) => errorResponse(error))
  app.notFound((c) => errorResponse(new TesseraError('not_found', `no route ${c.req.method} ${c.req.path}`, { found: c.req.path })))

  // Host and Origin first: a rebinding page must learn nothing, not even a 401.
  app.use('*', async (c, next) => {
    const refused = checkHost(c.req.raw.headers, deps.allowedHosts()) ?? checkOrigin(c.req.raw.headers, deps.allowedOrigins()) ?? checkContentLength(c.req.raw.headers, maxBytes)
    if (refused) return problemResponse(refused.status === 413 ? { ...refused, headers: { ...refused.headers, connection: 'close' } } : refused)
    await next()
  })

  // The console's page and assets: no data in them, so no principal needed (see console-assets.ts).
  app.get('/', consoleApp.page)
  app.get('/assets/*', consoleApp.assets)

  app.get('/api/health', (c) => c.json({ ok: true, surfaces: ctx.surfaces.list().length, mcpSessions: deps.mcp.sessionCount }))

  // Ready to serve: the trace store answers. A tile in error does not make the hub unready
  // (the others work); it is named, so a probe's log says what is wrong.
  app.get('/api/ready', async (c) => {
    const tilesInError = ctx.surfaces.list().filter((tile) => tile.state === 'error').map((tile) => tile.id)
    try {
      await ctx.store.head('tessera-readiness-probe')
    } catch (error) {
      return c.json({ ready: false, store: `failed: ${error instanceof Error ? error.message : String(error)}`, tilesInError }, 503)
    }
    return c.json({ ready: true, store: 'ok', tilesInError })
  })

  // The login link carries its code in the URL fragment (never sent to servers or logs);
  // the page posts it here once, and gets an HttpOnly session cookie in exchange.
  app.post('/api/login', async (c) => {
    const body = (await objectBody(c, 4096)) as { code?: unknown }
    const principal = deps.logins.redeem(typeof body.code === 'string' ? body.code : '')
    if (principal === null) return errorResponse(new TesseraError('unauthorized', 'this login link is unknown, used or expired; print a new one with `tessera login`'))
    setCookie(c, CONSOLE_COOKIE, sessions.open(principal), { httpOnly: true, sameSite: 'Strict', path: '/' })
    return c.json({ principal })
  })

  // Everything below needs a principal: a bearer token, or the console's session cookie.
  app.use('*', async (c, next) => {
    const cookiePrincipal = sessions.principal(getCookie(c, CONSOLE_COOKIE))
    let principal = cookiePrincipal
    if (principal === null) {
      await deps.tokens.refresh()
      const result = authenticate(c.req.raw.headers, deps.tokens)
      if (!result.ok) return problemResponse(result.problem)
      principal = result.principal
    }
    const taken = limiter.take(principal.id)
    if (!taken.ok) return problemResponse(rateLimitProblem(principal.id, taken.retryAfterMs))
    c.set('principal', principal)
    await next()
  })

  // Who is signed in: the console shows only what the role allows (the hub enforces it anyway).
  app.get('/api/me', (c) => c.json({ principal: c.get('principal') }))

  app.post('/api/login-links', (c) => {
    need(c, ['admin'])
    const principal = c.get('principal')
    const code = deps.logins.issue(principal)
    return c.json({ url: formatLoginLink(new URL(c.req.url).origin, code) })
  })

  app.get('/metrics', async (c) => {
    need(c, READ)
    return c.body(await deps.metrics.registry.metrics(), 200, { 'content-type': deps.metrics.registry.contentType })
  })

  app.get('/api/tiles', (c) => {
    need(c, READ)
    return c.json({ tiles: ctx.surfaces.list() })
  })

  /** What each kind lets a person or an agent choose when opening a tile (the launcher's form). */
  app.get('/api/kinds', (c) => {
    need(c, READ)
    // A kind whose configuration only a person's config file can give (a file root's folders, an app's module) opens from a preset.
    return c.json({
      kinds: ctx.surfaces.kinds.list().map((kind) => ({
        kind: kind.kind,
        open: kind.openSchema === undefined ? null : jsonSchemaOf(kind.openSchema, 'input'),
        presetOnly: kind.openSchema === undefined && !kind.configSchema.safeParse({}).success,
      })),
    })
  })

  app.post('/api/tiles/:id/focus', (c) => {
    need(c, ACT)
    return c.json({ tile: ctx.surfaces.focus(c.req.param('id')) })
  })

  app.get('/api/surfaces/:id/frame', async (c) => {
    need(c, READ)
    const frame = await ctx.gateway.frames.current(c.req.param('id'))
    return c.json({ frame })
  })

  /** A recent frame of a tile by id (what an approval was requested on), while the hub still holds it. */
  app.get('/api/surfaces/:id/frames/:frameId', (c) => {
    need(c, READ)
    const frame = ctx.gateway.frames.recall(c.req.param('id'), c.req.param('frameId'))
    if (frame === undefined) throw new TesseraError('not_found', `frame ${c.req.param('frameId').slice(0, 16)} of "${c.req.param('id')}" is no longer held; the trace has it (replay)`, { found: c.req.param('frameId').slice(0, 64) })
    return c.json({ frame })
  })

  // Pixels are a read: whoever may read a tile's frame may see it.
  app.get('/api/surfaces/:id/capture', async (c) => {
    need(c, READ)
    const surface = ctx.surfaces.surface(c.req.param('id'))
    if (surface.capture === undefined) throw new TesseraError('not_found', `tile "${surface.id}" has no pixels`, { found: surface.id })
    return c.body(Buffer.from(await surface.capture()), 200, { 'content-type': 'image/png', 'cache-control': 'no-store' })
  })

  /** Live pixels as an MJPEG stream (`<img src>` plays it); the surface stops encoding when the last viewer goes. */
  app.get('/api/surfaces/:id/screencast', (c) => {
    need(c, READ)
    const surface = ctx.surfaces.surface(c.req.param('id'))
    const screencast = surface.screencast?.bind(surface)
    if (screencast === undefined) throw new TesseraError('not_found', `tile "${surface.id}" has no live pixels`, { found: surface.id })
    const boundary = 'tessera-frame'
    let stop = (): void => undefined
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        stop = screencast((jpeg) => {
          try {
            controller.enqueue(Buffer.concat([Buffer.from(`--${boundary}\r\ncontent-type: image/jpeg\r\ncontent-length: ${jpeg.byteLength}\r\n\r\n`), jpeg, Buffer.from('\r\n')]))
          } catch {
            stop()
          }
        })
      },
      cancel() {
        stop()
      },
    })
    return new Response(stream, { headers: { 'content-type': `multipart/x-mixed-replace; boundary=${boundary}`, 'cache-control': 'no-store' } })
  })

  app.post('/api/actions', async (c) => {
    need(c, ACT)
    const body = await jsonBody(c, maxBytes)
    return c.json({ result: await ctx.gateway.request(body, c.get('principal')) })
  })

  app.get('/api/approvals', async (c) => {
    need(c, READ)
    const raw = c.req.query('status')
    if (raw !== undefined && !ApprovalStatus.safeParse(raw).success) {
      throw new TesseraError('invalid_request', `unknown approval status "${raw.slice(0, 64)}"`, { expected: ApprovalStatus.options, found: raw.slice(0, 64) })
    }
    const status = raw === undefined ? undefined : ApprovalStatus.parse(raw)
    return c.json({ approvals: await ctx.gateway.approvals.list(status ? { status } : {}) })
  })

  app.get('/api/approvals/:id', async (c) => {
    need(c, READ)
    return c.json({ approval: await ctx.gateway.approvals.get(c.req.param('id')) })
  })

  app.post('/api/approvals/:id/approve', async (c) => {
    need(c, APPROVE)
    const body = await objectBody(c, maxBytes)
    const expected: { frameId?: string; action?: string; inputHash?: string; note?: string } = {}
    for (const key of ['frameId', 'action', 'inputHash', 'note'] as const) if (typeof body[key] === 'string') expected[key] = body[key]
    return c.json(await ctx.gateway.approve(c.req.param('id'), c.get('principal'), expected))
  })

  app.post('/api/approvals/:id/deny', async (c) => {
    need(c, APPROVE)
    const body = await objectBody(c, maxBytes)
    return c.json({ approval: await ctx.gateway.deny(c.req.param('id'), c.get('principal'), typeof body.note === 'string' ? body.note : undefined) })
  })

  app.get('/api/sessions', async (c) => {
    need(c, READ)
    return c.json({ sessions: await ctx.store.sessions() })
  })

  app.get('/api/trace/:session', async (c) => {
    need(c, READ)
    const session = c.req.param('session')
    const limit = intParam(c.req.query('limit'), 200, 1000)
    const head = await ctx.store.head(session)
    if (head === null) throw new TesseraError('not_found', `no trace session "${session}"`, { found: session })
    const fromSeq = c.req.query('fromSeq') === undefined ? Math.max(0, head.seq - limit + 1) : intParam(c.req.query('fromSeq'), 0, Number.MAX_SAFE_INTEGER)
    const events: TraceEvent[] = []
    for await (const event of ctx.store.read(session, { fromSeq, limit })) events.push(event)
    return c.json({ session, head, events })
  })

  app.get('/api/trace/:session/verify', async (c) => {
    need(c, READ)
    const session = c.req.param('session')
    // An unknown session is not_found (verifyStore says so), never "intact".
    return c.json({ results: await verifyStore(ctx.store, session) })
  })

  /** A session rebuilt from its trace alone, step by step: what the replay viewer walks through. */
  app.get('/api/replay/:session', async (c) => {
    need(c, READ)
    const session = c.req.param('session')
    const limit = intParam(c.req.query('limit'), 200, 1000)
    if ((await ctx.store.head(session)) === null) throw new TesseraError('not_found', `no trace session "${session}"`, { found: session })
    // Streamed from the store, only the last `limit` steps held: a session of a million events costs no more.
    const steps: ReplayStep[] = []
    let truncated = false
    for await (const step of reconstructSession(ctx.store, session)) {
      steps.push(step)
      if (steps.length > limit) {
        steps.shift()
        truncated = true
      }
    }
    return c.json({ session, steps, truncated })
  })

  app.all('/mcp', async (c) => {
    need(c, READ)
    let body: unknown
    if (c.req.method === 'POST') {
      try {
        body = await jsonBody(c, maxBytes)
      } catch (error) {
        if (error instanceof TesseraError && error.code === 'invalid_request') {
          return c.json({ jsonrpc: '2.0', error: { code: -32700, message: `parse error: ${error.message}` }, id: null }, 400)
        }
        throw error
      }
    }
    return deps.mcp.handle(c.req.raw, c.get('principal'), body)
  })

  return app
}
