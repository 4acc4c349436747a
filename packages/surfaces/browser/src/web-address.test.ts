import { describe, expect, it } from 'vitest'
import { WebAddress, shownAddress, webAddressProblem, withScheme } from './web-address.js'

describe('web addresses a browser tile opens', () => {
  it('opens the web, a blank page and a page written inline; no local file, script or browser page', () => {
    for (const url of ['https://example.org/a?b#c', 'HTTP://127.0.0.1:8080/', 'about:blank', 'data:text/html,<p>hi</p>']) expect(webAddressProblem(url), url).toBeUndefined()
    for (const url of ['file:///etc/passwd', 'FILE:///etc/passwd', 'javascript:alert(1)', 'view-source:https://example.org', 'chrome://version', 'about:config', 'https://not a host', '//example.org', '']) {
      expect(webAddressProblem(url), url).toMatch(/^expected a web address \(https:\/\/…, http:\/\/…, about:blank or data:; local files are read through a file tile\), found /)
    }
    expect(WebAddress.safeParse('file:///etc/passwd').error?.issues.map((issue) => issue.message)).toEqual(['expected a web address (https://…, http://…, about:blank or data:; local files are read through a file tile), found "file:///etc/passwd"'])
  })

  it('carries the pattern to the JSON Schema the gateway checks, which agrees with the check in words', () => {
    const pattern = new RegExp((WebAddress.meta() as { pattern: string }).pattern)
    for (const url of ['https://example.org', 'about:blank', 'data:,x']) expect(pattern.test(url), url).toBe(true)
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'about:config', 'chrome://version']) expect(pattern.test(url), url).toBe(false)
  })

  it('makes an address without its scheme whole, as Playwright MCP does', () => {
    expect(withScheme('localhost:3000/app')).toBe('http://localhost:3000/app')
    expect(withScheme('127.0.0.1:8080')).toBe('http://127.0.0.1:8080')
    expect(withScheme('example.org/docs')).toBe('https://example.org/docs')
    expect(withScheme('https://example.org')).toBe('https://example.org')
    expect(withScheme('file:///etc/passwd')).toBe('file:///etc/passwd')
    expect(withScheme('not a url')).toBe('not a url')
  })

  it('reports an address without the user name and password it may carry', () => {
    expect(shownAddress('https://alice:s3cret@example.org:8443/a?b#c')).toBe('https://example.org:8443/a?b#c')
    expect(shownAddress('http://alice@127.0.0.1/')).toBe('http://127.0.0.1/')
    for (const url of ['https://example.org/', 'about:blank', 'data:text/html,<p>a@b</p>', 'not a url']) expect(shownAddress(url)).toBe(url)
  })
})
