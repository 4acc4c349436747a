import { redactContent, redactSecrets, scanSecrets } from '@tessera/gateway'
import { describe, expect, it } from 'vitest'
import { NOT_SECRETS, PLANTED } from '../support/planted-secrets.js'

describe('secrets found by content', () => {
  it.each(PLANTED.map((p) => [p.kind, p] as const))('replaces a %s with its typed marker', (kind, planted) => {
    const redacted = redactSecrets(`before\n${planted.line}\nafter`)
    expect(redacted).toContain(`[REDACTED:${kind}]`)
    expect(redacted).not.toContain(planted.secret)
    expect(redacted.startsWith('before\n')).toBe(true)
    expect(redacted.endsWith('\nafter')).toBe(true)
  })

  it('leaves alone what only looks a little like a secret', () => {
    for (const line of NOT_SECRETS) expect(redactSecrets(`${line}\n`)).toBe(`${line}\n`)
  })

  it('is idempotent: a marker is not a secret', () => {
    const once = redactSecrets(PLANTED.map((p) => p.line).join('\n'))
    expect(redactSecrets(once)).toBe(once)
  })

  it('cannot be switched off by a secretlint comment in the text', () => {
    const text = `// secretlint-disable\n${PLANTED[0]?.line}\n// secretlint-enable`
    expect(redactSecrets(text)).not.toContain(PLANTED[0]?.secret)
  })

  it('finds a private key cut off by the edge of a screen, at either end', () => {
    const pem = (PLANTED.find((p) => p.kind === 'private-key')?.line ?? '').split('\n')
    const top = pem.slice(0, 3).join('\n')
    const bottom = pem.slice(2).join('\n')
    for (const cut of [top, bottom]) {
      expect(scanSecrets(`$ cat key\n${cut}`).map((f) => f.kind)).toContain('private-key')
      expect(redactSecrets(`$ cat key\n${cut}`)).not.toContain(pem[2])
    }
  })

  it('scans the strings of a value as lines of one text, and keeps the same value when there is nothing', () => {
    const clean = { screen: ['$ ls', 'a b c'], title: 'shell' }
    expect(redactContent(clean)).toBe(clean)
    const pem = (PLANTED.find((p) => p.kind === 'private-key')?.line ?? '').split('\n')
    const screen = { lines: ['$ cat id_rsa', ...pem, '$ '], cwd: '/home' }
    const redacted = redactContent(screen)
    expect(redacted.lines).toHaveLength(screen.lines.length)
    expect(redacted.lines[0]).toBe('$ cat id_rsa')
    expect(redacted.lines[1]).toBe('[REDACTED:private-key]')
    expect(redacted.lines.slice(2, -1).every((line) => line === '')).toBe(true)
    expect(redacted.lines.at(-1)).toBe('$ ')
    expect(JSON.stringify(redacted)).not.toContain(pem[2])
  })
})
