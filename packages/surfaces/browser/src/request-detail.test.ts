import { describe, expect, it } from 'vitest'
import { redactedBody } from './request-detail.js'

describe('a request body as an agent reads it', () => {
  it('redacts the values of secret keys in JSON, however deep, and nothing else', () => {
    const body = JSON.stringify({ user: 'ada', password: 'hunter2', profile: { api_token: 'abc', cards: [{ cardNumber: '4111', label: 'work' }] } })
    expect(JSON.parse(redactedBody(body, 'application/json'))).toEqual({ user: 'ada', password: '[REDACTED]', profile: { api_token: '[REDACTED]', cards: [{ cardNumber: '[REDACTED]', label: 'work' }] } })
    // A JSON answer sent without its type is read as JSON all the same.
    expect(redactedBody('{"token":"t"}', 'text/plain')).toBe('{"token":"[REDACTED]"}')
  })

  it('redacts a form\'s secret fields pair by pair, as sent, and reads a malformed escape as it is', () => {
    expect(redactedBody('user=ada&pass%77ord=x%20y&note=hi+there', 'application/x-www-form-urlencoded')).toBe('user=ada&pass%77ord=[REDACTED]&note=hi+there')
    expect(redactedBody('%E0%A4%A=1&otp=123456', 'application/x-www-form-urlencoded; charset=UTF-8')).toBe('%E0%A4%A=1&otp=[REDACTED]')
  })

  it('redacts a multipart form\'s secret fields, not its others', () => {
    const body = ['--b', 'Content-Disposition: form-data; name="user"', '', 'ada', '--b', 'Content-Disposition: form-data; name="new-password"', '', 'hunter2', '--b--', ''].join('\r\n')
    const redacted = redactedBody(body, 'multipart/form-data; boundary=b')
    expect(redacted).toContain('name="user"\r\n\r\nada')
    expect(redacted).toContain('name="new-password"\r\n\r\n[REDACTED]')
    expect(redacted).not.toContain('hunter2')
  })

  it('leaves a body of another shape as it is', () => {
    expect(redactedBody('password is not a field here', 'text/plain')).toBe('password is not a field here')
    expect(redactedBody('{not json', 'application/json')).toBe('{not json')
  })
})
