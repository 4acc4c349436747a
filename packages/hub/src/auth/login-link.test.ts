import { describe, expect, it } from 'vitest'
import type { Principal } from '@tessera/protocol'
import { DEFAULT_LOGIN_TTL_MS, LoginLinks, formatLoginLink } from './login-link.js'

const admin: Principal = { id: 'admin', roles: ['admin', 'approver'] }

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start
  return { now: () => t, advance: (ms) => (t += ms) }
}

describe('LoginLinks', () => {
  it('issues lgn_ codes that redeem exactly once', () => {
    const links = new LoginLinks()
    const code = links.issue(admin)
    expect(code).toMatch(/^lgn_[A-Za-z0-9_-]{43}$/)
    expect(links.redeem(code)).toEqual(admin)
    expect(links.redeem(code)).toBeNull()
  })

  it('codes are distinct and bound to their own principal', () => {
    const links = new LoginLinks()
    const a = links.issue(admin)
    const b = links.issue({ id: 'viewer', roles: ['viewer'] })
    expect(a).not.toBe(b)
    expect(links.redeem(b)).toEqual({ id: 'viewer', roles: ['viewer'] })
    expect(links.redeem(a)).toEqual(admin)
  })

  it('expires after the TTL (default 10 minutes)', () => {
    const c = clock()
    const links = new LoginLinks({ now: c.now })
    const code = links.issue(admin)
    c.advance(DEFAULT_LOGIN_TTL_MS - 1)
    const other = links.issue(admin, 5)
    expect(links.redeem(code)).toEqual(admin)

    const late = links.issue(admin)
    c.advance(DEFAULT_LOGIN_TTL_MS)
    expect(links.redeem(late)).toBeNull()
    expect(links.redeem(other)).toBeNull()
    expect(links.size).toBe(0)
  })

  it('a custom TTL is honoured at its boundary', () => {
    const c = clock()
    const links = new LoginLinks({ now: c.now })
    const code = links.issue(admin, 1000)
    c.advance(1000)
    expect(links.redeem(code)).toBeNull()
  })

  it('refuses unknown, malformed and oversized codes', () => {
    const links = new LoginLinks()
    links.issue(admin)
    expect(links.redeem('lgn_nope')).toBeNull()
    expect(links.redeem('')).toBeNull()
    expect(links.redeem(`lgn_${'a'.repeat(10_000)}`)).toBeNull()
    expect(links.redeem('tsr_abc')).toBeNull()
  })

  it('does not let a caller mutate the issued principal afterwards', () => {
    const links = new LoginLinks()
    const principal: Principal = { id: 'admin', roles: ['admin'] }
    const code = links.issue(principal)
    principal.roles.push('agent')
    expect(links.redeem(code)).toEqual({ id: 'admin', roles: ['admin'] })
  })

  it('bounds the number of pending codes, dropping the oldest', () => {
    const links = new LoginLinks({ maxPending: 3 })
    const codes = Array.from({ length: 5 }, () => links.issue(admin))
    expect(links.size).toBe(3)
    expect(links.redeem(codes[0]!)).toBeNull()
    expect(links.redeem(codes[4]!)).toEqual(admin)
  })

  it('rejects a non-positive TTL', () => {
    expect(() => new LoginLinks().issue(admin, 0)).toThrow(RangeError)
    expect(() => new LoginLinks().issue(admin, Number.NaN)).toThrow(RangeError)
  })

  it('puts the code in the URL fragment, which browsers never send to the server', () => {
    const link = formatLoginLink('http://127.0.0.1:4319/', 'lgn_abc-_1')
    expect(link).toBe('http://127.0.0.1:4319/#code=lgn_abc-_1')
    expect(new URL(link).search).toBe('')
  })
})
