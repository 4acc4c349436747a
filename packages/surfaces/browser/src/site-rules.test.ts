import { describe, expect, it } from 'vitest'
import { checkOriginPatterns, originAllowed, siteRiskOf } from './site-rules.js'

describe('site rules and origin patterns', () => {
  it('raises anything on a matching host, wildcard or origin, to the highest rule', () => {
    const rules = [
      { match: 'bank.example', risk: 'external' as const },
      { match: '*.shop.example', risk: 'write' as const },
      { match: 'https://pay.shop.example', risk: 'destructive' as const },
    ]
    expect(siteRiskOf('https://bank.example/login', rules)).toBe('external')
    expect(siteRiskOf('https://www.bank.example/', rules)).toBeUndefined()
    expect(siteRiskOf('https://a.shop.example/cart', rules)).toBe('write')
    expect(siteRiskOf('https://pay.shop.example/checkout', rules)).toBe('destructive')
    expect(siteRiskOf('http://pay.shop.example/', rules)).toBe('write')
    expect(siteRiskOf('not a url', rules)).toBeUndefined()
  })

  it('matches origins with a port wildcard and default ports, and refuses a malformed pattern', () => {
    expect(originAllowed('http://127.0.0.1:4173', ['http://127.0.0.1:*'])).toBe(true)
    expect(originAllowed('https://127.0.0.1:4173', ['http://127.0.0.1:*'])).toBe(false)
    expect(originAllowed('https://docs.example.org', ['https://*.example.org'])).toBe(true)
    expect(originAllowed('https://example.org', ['https://example.org:443'])).toBe(true)
    expect(originAllowed('https://evil.example', ['https://*.example.org'])).toBe(false)
    expect(() => checkOriginPatterns(['https://example.org/path'])).toThrow(/expected an origin pattern/)
  })
})
