import { describe, expect, it } from 'vitest'
import type { Principal } from '@tessera/protocol'
import {
  HttpProblemError,
  authenticate,
  bearerToken,
  checkContentLength,
  checkHost,
  checkOrigin,
  defaultAllowedHosts,
  defaultAllowedOrigins,
  problemResponse,
  readBodyLimited,
  requireRole,
} from './request-guard.js'
import type { TokenAuthenticator } from './token-store.js'

const PORT = 4319
const hosts = defaultAllowedHosts(PORT)
const origins = defaultAllowedOrigins(PORT)
const h = (init: Record<string, string>): Headers => new Headers(init)

describe('bearerToken', () => {
  it('reads Authorization: Bearer and X-Tessera-Token', () => {
    expect(bearerToken(h({ authorization: 'Bearer tsr_abc' }))).toBe('tsr_abc')
    expect(bearerToken(h({ authorization: 'bearer   tsr_abc ' }))).toBe('tsr_abc')
    expect(bearerToken(h({ 'x-tessera-token': 'tsr_def' }))).toBe('tsr_def')
    expect(bearerToken(h({ authorization: 'Bearer tsr_a', 'x-tessera-token': 'tsr_b' }))).toBe('tsr_a')
  })

  it('ignores other schemes, empty values and query strings', () => {
    expect(bearerToken(h({ authorization: 'Basic dXNlcjpwYXNz' }))).toBeNull()
    expect(bearerToken(h({ authorization: 'Bearer' }))).toBeNull()
    expect(bearerToken(h({ authorization: 'Bearer a b' }))).toBeNull()
    expect(bearerToken(h({ 'x-tessera-token': '  ' }))).toBeNull()
    expect(bearerToken(new Request('http://127.0.0.1:4319/mcp?token=tsr_abc').headers)).toBeNull()
  })
})

describe('authenticate', () => {
  const store: TokenAuthenticator = {
    authenticate: (secret) => (secret === 'tsr_good' ? { id: 'agent', roles: ['agent'] } : null),
  }

  it('returns the principal for a known token', () => {
    expect(authenticate(h({ authorization: 'Bearer tsr_good' }), store)).toEqual({
      ok: true,
      principal: { id: 'agent', roles: ['agent'] },
    })
  })

  it('says a token is missing', () => {
    const result = authenticate(h({}), store)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problem.status).toBe(401)
    expect(result.problem.error.code).toBe('unauthorized')
    expect(result.problem.error.message).toMatch(/token is required/)
    expect(result.problem.headers?.['www-authenticate']).toMatch(/^Bearer/)
  })

  it('says a token is unknown or revoked, without echoing it', () => {
    const secret = 'tsr_secret-that-must-not-leak'
    const result = authenticate(h({ authorization: `Bearer ${secret}` }), store)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problem.status).toBe(401)
    expect(result.problem.error.message).toMatch(/unknown or has been revoked/)
    expect(JSON.stringify(result.problem)).not.toContain(secret)
  })
})

describe('requireRole', () => {
  const agent: Principal = { id: 'agent', roles: ['agent'] }
  const admin: Principal = { id: 'admin', roles: ['admin', 'approver'] }

  it('passes when any listed role is held', () => {
    expect(requireRole(admin, ['approver'])).toBeNull()
    expect(requireRole(agent, ['agent', 'admin'])).toBeNull()
  })

  it('the agent token cannot approve: 403 with expected and found', () => {
    expect(requireRole(agent, ['approver'])).toEqual({
      status: 403,
      error: {
        code: 'forbidden',
        message: 'principal "agent" lacks the role for this request',
        details: { expected: ['approver'], found: ['agent'] },
      },
    })
  })

  it('admin does not imply approver', () => {
    expect(requireRole({ id: 'ops', roles: ['admin'] }, ['approver'])?.status).toBe(403)
  })
})

describe('checkHost (DNS rebinding)', () => {
  it('accepts the loopback names on our port, IPv6 included, case-insensitively', () => {
    expect(hosts).toEqual(['127.0.0.1:4319', 'localhost:4319', '[::1]:4319'])
    for (const host of ['127.0.0.1:4319', 'localhost:4319', 'LocalHost:4319', '[::1]:4319']) {
      expect(checkHost(h({ host }), hosts)).toBeNull()
    }
  })

  it('refuses a rebound name on our port, other ports and a missing Host', () => {
    const rebound = checkHost(h({ host: `evil.example:${PORT}` }), hosts)
    expect(rebound?.status).toBe(403)
    expect(rebound?.error.code).toBe('forbidden')
    expect(rebound?.error.details).toEqual({ expected: hosts, found: 'evil.example:4319' })
    expect(checkHost(h({ host: '127.0.0.1:80' }), hosts)?.status).toBe(403)
    expect(checkHost(h({ host: '127.0.0.1' }), hosts)?.status).toBe(403)
    expect(checkHost(h({ host: 'localhost.:4319' }), hosts)?.status).toBe(403)
    expect(checkHost(h({ host: '[::ffff:127.0.0.1]:4319' }), hosts)?.status).toBe(403)
    expect(checkHost(h({}), hosts)?.error.details).toEqual({ expected: hosts, found: null })
  })

  it('port 80 also allows the bare names browsers send', () => {
    expect(checkHost(h({ host: 'localhost' }), defaultAllowedHosts(80))).toBeNull()
  })

  it('honours an explicit allow-list (hub bound elsewhere)', () => {
    expect(checkHost(h({ host: 'tessera.lan:8080' }), ['tessera.lan:8080'])).toBeNull()
    expect(checkHost(h({ host: 'localhost:8080' }), ['tessera.lan:8080'])?.status).toBe(403)
  })
})

describe('checkOrigin', () => {
  it('allows our own origins, IPv6 loopback included, and no Origin at all', () => {
    expect(origins).toEqual(['http://127.0.0.1:4319', 'http://localhost:4319', 'http://[::1]:4319'])
    for (const origin of origins) expect(checkOrigin(h({ origin }), origins)).toBeNull()
    expect(checkOrigin(h({}), origins)).toBeNull()
  })

  it('refuses a foreign origin, Origin: null, and near misses', () => {
    const evil = checkOrigin(h({ origin: 'http://evil.example' }), origins)
    expect(evil).toMatchObject({ status: 403, error: { code: 'forbidden', details: { expected: origins, found: 'http://evil.example' } } })
    expect(checkOrigin(h({ origin: 'null' }), origins)?.status).toBe(403)
    expect(checkOrigin(h({ origin: `http://evil.example:${PORT}` }), origins)?.status).toBe(403)
    expect(checkOrigin(h({ origin: 'https://127.0.0.1:4319' }), origins)?.status).toBe(403)
    expect(checkOrigin(h({ origin: 'http://127.0.0.1:4320' }), origins)?.status).toBe(403)
    expect(checkOrigin(h({ origin: 'http://localhost:4319.evil.example' }), origins)?.status).toBe(403)
  })

  it('a null Origin is refused even when someone put "null" in the list', () => {
    expect(checkOrigin(h({ origin: 'null' }), [...origins, 'null'])?.status).toBe(403)
  })
})

describe('body size', () => {
  it('checkContentLength refuses a declared length over the limit', () => {
    expect(checkContentLength(h({ 'content-length': '100' }), 100)).toBeNull()
    expect(checkContentLength(h({}), 100)).toBeNull()
    const big = checkContentLength(h({ 'content-length': '101' }), 100)
    expect(big).toMatchObject({ status: 413, error: { code: 'invalid_request' } })
    expect(checkContentLength(h({ 'content-length': 'abc' }), 100)?.status).toBe(400)
  })

  it('readBodyLimited reads a body within the limit', async () => {
    const body = await readBodyLimited(new Request('http://x/', { method: 'POST', body: 'hello' }), 5)
    expect(new TextDecoder().decode(body)).toBe('hello')
    expect(await readBodyLimited(new Request('http://x/'), 5)).toEqual(new Uint8Array(0))
  })

  it('readBodyLimited refuses early on a declared Content-Length', async () => {
    const request = new Request('http://x/', {
      method: 'POST',
      body: 'x'.repeat(10),
      headers: { 'content-length': '10' },
    })
    await expect(readBodyLimited(request, 5)).rejects.toMatchObject({ status: 413, code: 'invalid_request' })
  })

  it('readBodyLimited aborts a stream without Content-Length once past the limit', async () => {
    let pulled = 0
    let cancelled = false
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(1024))
      },
      cancel() {
        cancelled = true
      },
    })
    const request = new Request('http://x/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit)
    expect(request.headers.get('content-length')).toBeNull()
    const error = await readBodyLimited(request, 4096).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(HttpProblemError)
    const problem = (error as HttpProblemError).problem
    expect(problem.status).toBe(413)
    expect(problem.error.details).toMatchObject({ expected: 'at most 4096 bytes' })
    expect(cancelled).toBe(true)
    // It stopped right after crossing the limit instead of draining an endless stream.
    expect(pulled).toBeLessThan(10)
  })

  it('problemResponse carries status, headers and the error body', async () => {
    const result = authenticate(h({}), { authenticate: () => null })
    if (result.ok) throw new Error('expected a problem')
    const response = problemResponse(result.problem)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toMatch(/Bearer/)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized')
  })
})
