import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { Role, TesseraError, type Principal } from '@tessera/protocol'
import { LOCAL_TOKEN_FILES } from './local-token.js'
import { HUB_ACTOR } from './hub-actor.js'

/**
 * Bearer tokens for the hub, persisted under `<dataDir>/tokens.json`.
 *
 * Only a SHA-256 of each secret is stored: a copied tokens file (backup, bug report) grants
 * nothing. Secrets carry 256 random bits, so an unsalted fast hash is enough — there is no
 * password-style dictionary to defend against.
 *
 * A token belongs to a principal and carries roles. Any role combination is allowed,
 * including agent + approver: separation of duties is enforced where it matters, in the
 * gateway, which requires an approval to come from a principal with the approver role
 * *other than* the requester. The initial agent token gets only `agent`, so it can never
 * approve anything.
 */

export const TOKENS_FILE = 'tokens.json'
export { LOCAL_TOKEN_FILES, type LocalTokenName, localTokenPath, readLocalToken } from './local-token.js'

const SECRET_PREFIX = 'tsr_'
// A real secret is 4 + 43 characters; anything far longer is not ours and is not worth hashing.
const MAX_SECRET_LENGTH = 256
const PRINCIPAL_NAME = /^[a-z0-9._-]{1,64}$/
const FILE_MODE = 0o600
const DIR_MODE = 0o700

export const TokenRecord = z.looseObject({
  id: z.string().regex(/^tok_[0-9a-f]{8}$/),
  principal: z.string().regex(PRINCIPAL_NAME),
  roles: z.array(Role).min(1),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
})
export type TokenRecord = z.infer<typeof TokenRecord>

// Loose so that fields written by a newer hub survive a rewrite by this one.
const TokensFile = z.looseObject({
  version: z.literal(1),
  tokens: z.array(TokenRecord),
})
type TokensFile = z.infer<typeof TokensFile>

export interface CreateTokenOptions {
  role: Role | Role[]
  /** Defaults to the first role's name, e.g. `approver`. */
  principal?: string
}

export interface CreatedToken {
  /** The raw secret: shown once, never stored. */
  token: string
  record: TokenRecord
}

export interface InitialTokens {
  created: boolean
  admin?: string
  agent?: string
}

export interface TokenStoreOptions {
  /** Clock for createdAt/revokedAt; injectable for tests. */
  now?: () => Date
}

/** Anything that can turn a presented secret into a principal (see request-guard.ts). */
export interface TokenAuthenticator {
  authenticate(secret: string): Principal | null
}

export class TokenStore implements TokenAuthenticator {
  private file: TokensFile
  // Decoded once so authenticate() does no hex parsing on the hot path.
  private hashes: Buffer[]
  // Persisting is serialised so two concurrent mutations cannot rename older data last.
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(
    readonly dataDir: string,
    file: TokensFile,
    private readonly now: () => Date,
  ) {
    this.file = file
    this.hashes = file.tokens.map((t) => Buffer.from(t.hash, 'hex'))
  }

  get path(): string {
    return join(this.dataDir, TOKENS_FILE)
  }

  static async open(dataDir: string, options: TokenStoreOptions = {}): Promise<TokenStore> {
    const file = await readTokensFile(join(dataDir, TOKENS_FILE))
    return new TokenStore(dataDir, file ?? { version: 1, tokens: [] }, options.now ?? (() => new Date()))
  }

  async create(options: CreateTokenOptions): Promise<CreatedToken> {
    // Drafted inside the queue so concurrent creates each build on the other's result.
    return this.serialise(async () => {
      const draft = this.draft(options, this.file.tokens)
      await this.write([...this.file.tokens, draft.record])
      return { token: draft.token, record: copyRecord(draft.record) }
    })
  }

  list(): TokenRecord[] {
    return this.file.tokens.map(copyRecord)
  }

  /**
   * Revokes a token by id, or the single active token of a principal. A principal holding
   * several active tokens is a conflict: revoking all of them silently could lock out a
   * client the caller did not mean to touch.
   */
  async revoke(idOrPrincipal: string): Promise<TokenRecord> {
    const run = async (): Promise<TokenRecord> => {
      const tokens = this.file.tokens
      let index = tokens.findIndex((t) => t.id === idOrPrincipal)
      if (index === -1) {
        const active = tokens.flatMap((t, i) => (t.principal === idOrPrincipal && t.revokedAt === undefined ? [i] : []))
        if (active.length > 1) {
          throw new TesseraError(
            'conflict',
            `principal "${idOrPrincipal}" holds ${active.length} active tokens; revoke one by id`,
            { expected: 'a token id or a principal with one active token', found: active.map((i) => tokens[i]?.id) },
          )
        }
        index = active[0] ?? -1
      }
      const existing = tokens[index]
      if (existing === undefined) {
        throw new TesseraError('not_found', `no token with id or active principal "${idOrPrincipal}"`, {
          expected: 'a token id (tok_…) or a principal name',
          found: idOrPrincipal,
          known: tokens.map((t) => t.id),
        })
      }
      // Revoking twice keeps the first revocation time: the record says when access ended.
      if (existing.revokedAt !== undefined) return copyRecord(existing)
      const revoked: TokenRecord = { ...existing, revokedAt: this.now().toISOString() }
      const next = tokens.slice()
      next[index] = revoked
      await this.write(next)
      await this.removeLocalCopies(revoked.hash)
      return copyRecord(revoked)
    }
    return this.serialise(run)
  }

  /**
   * Constant-time over the stored hashes: every record is compared (no early exit), and
   * the comparison is between fixed-length digests, so neither the secret's length nor
   * which record matched shows in the timing.
   */
  authenticate(secret: string): Principal | null {
    if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX) || secret.length > MAX_SECRET_LENGTH) return null
    const digest = sha256(secret)
    const tokens = this.file.tokens
    const hashes = this.hashes
    let match: TokenRecord | undefined = undefined
    for (let i = 0; i < tokens.length; i++) {
      const record = tokens[i]
      const stored = hashes[i]
      if (record === undefined || stored === undefined) continue
      // Evaluated for every record; the revocation test only decides whether a match counts.
      const equal = timingSafeEqual(stored, digest)
      if (equal && record.revokedAt === undefined) match = record
    }
    return match === undefined ? null : { id: match.principal, roles: [...match.roles] }
  }

  /**
   * First start: no tokens file yet. Creates an admin token (admin + approver) and an agent
   * token (agent only), and leaves their raw secrets in `admin.token` / `agent.token` so
   * local clients can read them without copying secrets through a terminal.
   *
   * The secret files are written before tokens.json, which is the commit point: a crash in
   * between leaves no tokens file, so the next start simply creates a fresh pair.
   */
  async ensureInitial(): Promise<InitialTokens> {
    return this.serialise(async () => {
      if (await exists(this.path)) return { created: false }
      const admin = this.draft({ role: ['admin', 'approver'], principal: 'admin' }, this.file.tokens)
      const agent = this.draft({ role: ['agent'], principal: 'agent' }, [...this.file.tokens, admin.record])
      await ensureDir(this.dataDir)
      await writeFileAtomic(join(this.dataDir, LOCAL_TOKEN_FILES.admin), `${admin.token}\n`)
      await writeFileAtomic(join(this.dataDir, LOCAL_TOKEN_FILES.agent), `${agent.token}\n`)
      await this.write([...this.file.tokens, admin.record, agent.record])
      return { created: true, admin: admin.token, agent: agent.token }
    })
  }

  private draft(options: CreateTokenOptions, existing: TokenRecord[]): CreatedToken {
    const roles = parseRoles(options.role)
    const principal = options.principal ?? roles[0]!
    if (!PRINCIPAL_NAME.test(principal)) {
      throw new TesseraError('invalid_input', `principal name "${principal.slice(0, 80)}" is not allowed`, {
        expected: '1–64 characters of a-z, 0-9, ".", "_", "-"',
        found: principal.slice(0, 80),
      })
    }
    if (principal === HUB_ACTOR) throw new TesseraError('invalid_input', `principal name "${HUB_ACTOR}" is reserved for the hub itself`, { expected: 'another name', found: principal })
    const token = SECRET_PREFIX + randomBytes(32).toString('base64url')
    const record: TokenRecord = {
      id: uniqueId(existing),
      principal,
      roles,
      createdAt: this.now().toISOString(),
      hash: sha256(token).toString('hex'),
    }
    return { token, record }
  }

  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task)
    this.queue = result.catch(() => undefined)
    return result
  }

  /** Memory changes only once the file is safely replaced, so a failed write changes nothing. */
  private async write(tokens: TokenRecord[]): Promise<void> {
    const next: TokensFile = { ...this.file, version: 1, tokens }
    await ensureDir(this.dataDir)
    await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`)
    this.file = next
    this.hashes = tokens.map((t) => Buffer.from(t.hash, 'hex'))
  }

  /** A revoked initial secret left on disk would only mislead the clients that read it. */
  private async removeLocalCopies(hash: string): Promise<void> {
    for (const name of Object.values(LOCAL_TOKEN_FILES)) {
      const path = join(this.dataDir, name)
      const content = await fs.readFile(path, 'utf8').catch(() => null)
      if (content !== null && sha256(content.trim()).toString('hex') === hash) await fs.rm(path, { force: true })
    }
  }
}

async function readTokensFile(path: string): Promise<TokensFile | null> {
  let text: string
  try {
    text = await fs.readFile(path, 'utf8')
  } catch (error) {
    if (isNotFound(error)) return null
    throw new TesseraError('store_error', `cannot read tokens file ${path}: ${(error as Error).message}`, { file: path })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    // Never reset a corrupt file: that would silently invalidate every issued token, or
    // worse, mint a fresh admin token nobody asked for.
    throw new TesseraError('store_error', `tokens file ${path} is not valid JSON; fix it or move it away`, {
      file: path,
      expected: 'JSON',
      found: (error as Error).message,
    })
  }
  const parsed = TokensFile.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new TesseraError('store_error', `tokens file ${path} does not have the expected shape; fix it or move it away`, {
      file: path,
      expected: '{ version: 1, tokens: [{ id, principal, roles, createdAt, revokedAt?, hash }] }',
      found: issue === undefined ? 'invalid' : `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    })
  }
  // Someone may have copied the file with looser permissions; it holds no secrets, but the
  // principal list is still nobody else's business.
  const stat = await fs.stat(path)
  if ((stat.mode & 0o077) !== 0) await fs.chmod(path, FILE_MODE).catch(() => undefined)
  return parsed.data
}

/**
 * Temp file in the same directory (rename is only atomic within one filesystem), created
 * with 0600 from the first byte so the content is never readable by others, chmod'ed again
 * because a pre-existing temp name or an odd umask must not widen it, fsync'ed so the rename
 * never exposes an empty file after a crash.
 */
async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  const handle = await fs.open(temp, 'wx', FILE_MODE)
  try {
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await fs.chmod(temp, FILE_MODE)
    await fs.rename(temp, path)
    await fs.chmod(path, FILE_MODE)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw new TesseraError('store_error', `cannot write ${path}: ${(error as Error).message}`, { file: path })
  }
}

async function ensureDir(dir: string): Promise<void> {
  // 0700 only applies when we create it; an existing directory is the operator's choice.
  await fs.mkdir(dir, { recursive: true, mode: DIR_MODE })
}

function parseRoles(role: Role | Role[]): Role[] {
  const list = Array.isArray(role) ? role : [role]
  const parsed = z.array(Role).min(1).safeParse(list)
  if (!parsed.success) {
    throw new TesseraError('invalid_input', 'a token needs at least one known role', {
      expected: Role.options,
      found: list,
    })
  }
  return [...new Set(parsed.data)]
}

function uniqueId(existing: TokenRecord[]): string {
  const taken = new Set(existing.map((t) => t.id))
  for (;;) {
    const id = `tok_${randomBytes(4).toString('hex')}`
    if (!taken.has(id)) return id
  }
}

function copyRecord(record: TokenRecord): TokenRecord {
  return { ...record, roles: [...record.roles] }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.stat(path)
    return true
  } catch (error) {
    if (isNotFound(error)) return false
    throw error
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT'
}
