import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TesseraError } from '@tessera/protocol'
import { TokenStore, readLocalToken, localTokenPath } from './token-store.js'

let dir: string
beforeEach(() => {
  // A subdirectory that does not exist yet: the store must create it.
  dir = join(mkdtempSync(join(tmpdir(), 'tessera-tokens-')), '.tessera')
})
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }))

const mode = (path: string): number => statSync(path).mode & 0o777

async function rejection(promise: Promise<unknown>): Promise<TesseraError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof TesseraError) return error
    throw error
  }
  throw new Error('expected a rejection')
}

describe('TokenStore', () => {
  it('creates tokens with tsr_ secrets, tok_ ids and a 0600 tokens.json that never holds the secret', async () => {
    const store = await TokenStore.open(dir)
    const { token, record } = await store.create({ role: 'viewer', principal: 'alice' })
    expect(token).toMatch(/^tsr_[A-Za-z0-9_-]{43}$/)
    expect(record).toMatchObject({ principal: 'alice', roles: ['viewer'] })
    expect(record.id).toMatch(/^tok_[0-9a-f]{8}$/)
    expect(record.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(record).not.toHaveProperty('token')

    const file = join(dir, 'tokens.json')
    expect(mode(file)).toBe(0o600)
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(token)
    expect(text).not.toContain(token.slice(4))
    // No temp files left behind by the atomic write.
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  it('keeps 0600 even when the process umask is permissive', async () => {
    const previous = process.umask(0)
    try {
      const store = await TokenStore.open(dir)
      await store.ensureInitial()
      for (const name of ['tokens.json', 'agent.token', 'admin.token']) expect(mode(join(dir, name))).toBe(0o600)
    } finally {
      process.umask(previous)
    }
  })

  it('defaults the principal to the first role and dedupes roles', async () => {
    const store = await TokenStore.open(dir)
    const { record } = await store.create({ role: ['approver', 'viewer', 'approver'] })
    expect(record.principal).toBe('approver')
    expect(record.roles).toEqual(['approver', 'viewer'])
  })

  it('allows agent + approver in one token when asked (separation is the gateway’s job)', async () => {
    const store = await TokenStore.open(dir)
    const { token } = await store.create({ role: ['agent', 'approver'], principal: 'ci-bot' })
    expect(store.authenticate(token)).toEqual({ id: 'ci-bot', roles: ['agent', 'approver'] })
  })

  it('refuses bad principal names and unknown roles', async () => {
    const store = await TokenStore.open(dir)
    for (const principal of ['', 'Alice', 'a b', 'x'.repeat(65), '../etc']) {
      const error = await rejection(store.create({ role: 'viewer', principal }))
      expect(error.code).toBe('invalid_input')
    }
    const error = await rejection(store.create({ role: 'root' as never }))
    expect(error.code).toBe('invalid_input')
    expect(error.details).toMatchObject({ expected: ['agent', 'approver', 'admin', 'viewer'] })
    expect(store.list()).toEqual([])
    expect(existsSync(join(dir, 'tokens.json'))).toBe(false)
  })

  it('authenticates good tokens, refuses bad ones, and survives a reopen', async () => {
    const store = await TokenStore.open(dir)
    const { token } = await store.create({ role: 'approver', principal: 'bob' })
    expect(store.authenticate(token)).toEqual({ id: 'bob', roles: ['approver'] })
    expect(store.authenticate(token + 'x')).toBeNull()
    expect(store.authenticate(`tsr_${'A'.repeat(43)}`)).toBeNull()
    expect(store.authenticate('')).toBeNull()

    const reopened = await TokenStore.open(dir)
    expect(reopened.authenticate(token)).toEqual({ id: 'bob', roles: ['approver'] })
  })

  it('compares in constant time without throwing on secrets of any length', async () => {
    const store = await TokenStore.open(dir)
    await store.create({ role: 'viewer', principal: 'v' })
    for (const secret of ['tsr_', 'tsr_a', `tsr_${'b'.repeat(200)}`, `tsr_${'c'.repeat(10_000)}`, 'x', 'ü'.repeat(50), 'tsr_\u0000']) {
      expect(() => store.authenticate(secret)).not.toThrow()
      expect(store.authenticate(secret)).toBeNull()
    }
  })

  it('revokes by id and by principal; revoked tokens fail, also after reopening', async () => {
    const now = new Date('2030-01-01T00:00:00Z')
    const store = await TokenStore.open(dir, { now: () => now })
    const a = await store.create({ role: 'viewer', principal: 'carol' })
    const b = await store.create({ role: 'viewer', principal: 'dave' })

    const revokedA = await store.revoke(a.record.id)
    expect(revokedA.revokedAt).toBe('2030-01-01T00:00:00.000Z')
    expect(store.authenticate(a.token)).toBeNull()

    const revokedB = await store.revoke('dave')
    expect(revokedB.id).toBe(b.record.id)
    expect(store.authenticate(b.token)).toBeNull()

    // Revoking again is idempotent by id and keeps the first time.
    expect((await store.revoke(a.record.id)).revokedAt).toBe(revokedA.revokedAt)

    const reopened = await TokenStore.open(dir)
    expect(reopened.authenticate(a.token)).toBeNull()
    expect(reopened.list().map((r) => r.revokedAt !== undefined)).toEqual([true, true])
  })

  it('revoke of something absent is not_found; of an ambiguous principal a conflict', async () => {
    const store = await TokenStore.open(dir)
    expect((await rejection(store.revoke('tok_00000000'))).code).toBe('not_found')
    expect((await rejection(store.revoke('nobody'))).code).toBe('not_found')
    await store.create({ role: 'viewer', principal: 'erin' })
    await store.create({ role: 'viewer', principal: 'erin' })
    const conflict = await rejection(store.revoke('erin'))
    expect(conflict.code).toBe('conflict')
    expect(conflict.message).toContain('2 active tokens')
  })

  it('list() returns copies without secrets', async () => {
    const store = await TokenStore.open(dir)
    const { token } = await store.create({ role: 'viewer', principal: 'frank' })
    const listed = store.list()
    expect(JSON.stringify(listed)).not.toContain(token)
    listed[0]!.roles.push('admin')
    expect(store.list()[0]!.roles).toEqual(['viewer'])
  })

  it('concurrent creates are all kept', async () => {
    const store = await TokenStore.open(dir)
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => store.create({ role: 'viewer', principal: `p${i}` })))
    const reopened = await TokenStore.open(dir)
    expect(reopened.list()).toHaveLength(10)
    for (const { token } of created) expect(reopened.authenticate(token)).not.toBeNull()
  })

  describe('ensureInitial', () => {
    it('creates an admin and an agent token on first start, with 0600 raw token files', async () => {
      const store = await TokenStore.open(dir)
      const initial = await store.ensureInitial()
      expect(initial.created).toBe(true)
      expect(initial.admin).toMatch(/^tsr_/)
      expect(initial.agent).toMatch(/^tsr_/)

      expect(store.authenticate(initial.admin!)).toEqual({ id: 'admin', roles: ['admin', 'approver'] })
      expect(store.authenticate(initial.agent!)).toEqual({ id: 'agent', roles: ['agent'] })

      for (const name of ['tokens.json', 'agent.token', 'admin.token']) expect(mode(join(dir, name))).toBe(0o600)
      expect(mode(dir)).toBe(0o700)
      expect(await readLocalToken(dir, 'agent')).toBe(initial.agent)
      expect(await readLocalToken(dir, 'admin')).toBe(initial.admin)

      const tokensJson = readFileSync(join(dir, 'tokens.json'), 'utf8')
      expect(tokensJson).not.toContain(initial.admin)
      expect(tokensJson).not.toContain(initial.agent)
    })

    it('the agent token can never approve', async () => {
      const store = await TokenStore.open(dir)
      const { agent } = await store.ensureInitial()
      const principal = store.authenticate(agent!)
      expect(principal?.roles).not.toContain('approver')
      expect(principal?.roles).not.toContain('admin')
    })

    it('is idempotent: a second call, or a later start, creates nothing', async () => {
      const store = await TokenStore.open(dir)
      const first = await store.ensureInitial()
      const agentFile = readFileSync(localTokenPath(dir, 'agent'), 'utf8')
      expect(await store.ensureInitial()).toEqual({ created: false })
      const reopened = await TokenStore.open(dir)
      expect(await reopened.ensureInitial()).toEqual({ created: false })
      expect(reopened.list()).toHaveLength(2)
      expect(readFileSync(localTokenPath(dir, 'agent'), 'utf8')).toBe(agentFile)
      expect(reopened.authenticate(first.agent!)).not.toBeNull()
    })

    it('concurrent first calls create exactly one pair', async () => {
      const store = await TokenStore.open(dir)
      const results = await Promise.all([store.ensureInitial(), store.ensureInitial()])
      expect(results.filter((r) => r.created)).toHaveLength(1)
      expect(store.list()).toHaveLength(2)
    })

    it('revoking an initial token removes its raw file', async () => {
      const store = await TokenStore.open(dir)
      await store.ensureInitial()
      await store.revoke('agent')
      expect(existsSync(localTokenPath(dir, 'agent'))).toBe(false)
      expect(await readLocalToken(dir, 'agent')).toBeNull()
      expect(existsSync(localTokenPath(dir, 'admin'))).toBe(true)
    })
  })

  describe('a corrupt tokens file', () => {
    it('is a store_error naming the file, and is left untouched', async () => {
      const store = await TokenStore.open(dir)
      await store.create({ role: 'viewer', principal: 'g' })
      const file = join(dir, 'tokens.json')
      writeFileSync(file, '{"version":1,"tokens":[', { mode: 0o600 })
      const error = await rejection(TokenStore.open(dir))
      expect(error.code).toBe('store_error')
      expect(error.message).toContain(file)
      expect(error.details).toMatchObject({ file })
      expect(readFileSync(file, 'utf8')).toBe('{"version":1,"tokens":[')
    })

    it('with the wrong shape is a store_error too', async () => {
      mkdirSync(dir, { recursive: true })
      const file = join(dir, 'tokens.json')
      writeFileSync(file, JSON.stringify({ version: 1, tokens: [{ id: 'tok_1', principal: 'x', roles: ['root'] }] }))
      const error = await rejection(TokenStore.open(dir))
      expect(error.code).toBe('store_error')
      expect(error.message).toContain(file)
      expect(String(error.details?.found)).toMatch(/tokens\.0/)
    })

    it('ensureInitial never resets it', async () => {
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'tokens.json'), 'not json')
      await expect(TokenStore.open(dir).then((s) => s.ensureInitial())).rejects.toMatchObject({ code: 'store_error' })
      expect(existsSync(localTokenPath(dir, 'admin'))).toBe(false)
    })
  })

  it('preserves unknown fields written by a newer hub', async () => {
    const store = await TokenStore.open(dir)
    await store.create({ role: 'viewer', principal: 'h' })
    const file = join(dir, 'tokens.json')
    const json = JSON.parse(readFileSync(file, 'utf8')) as { tokens: Record<string, unknown>[]; [k: string]: unknown }
    json.future = { x: 1 }
    json.tokens[0]!.note = 'kept'
    writeFileSync(file, JSON.stringify(json))
    const reopened = await TokenStore.open(dir)
    await reopened.create({ role: 'viewer', principal: 'i' })
    const after = JSON.parse(readFileSync(file, 'utf8')) as typeof json
    expect(after.future).toEqual({ x: 1 })
    expect(after.tokens[0]!.note).toBe('kept')
  })

  it('tightens a tokens file that was left group/world readable', async () => {
    const store = await TokenStore.open(dir)
    await store.create({ role: 'viewer', principal: 'j' })
    const file = join(dir, 'tokens.json')
    chmodSync(file, 0o644)
    await TokenStore.open(dir)
    expect(mode(file)).toBe(0o600)
  })
})
