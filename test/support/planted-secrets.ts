/**
 * One secret of each kind the hub finds by content, as a line of the file or output it would
 * sit in. `secret` is what must never reach the trace or (by default) the agent. The values
 * are made up, in the real formats.
 */
export interface PlantedSecret {
  kind: string
  line: string
  secret: string
}

const PEM_BODY = [
  'MIIEowIBAAKCAQEAxq3Jk9vQ2xXnR4pT7wY1bM9cL3sD6fH0jK5gN2aE8uIbZk8vQ2',
  'xXnR4pT7wY1bM9cL3sD6fH0jK5gN2aE8uIbZk8vQ2xXnR4pT7wY1bM9cL3sD6fH0jK5',
  'gN2aE8uIbZk8vQ2xXnR4pT7wY1bM9cL3sD6fH0jK5gN2aE8uIbZk8vQ2xXnR4pT7wY1',
]

export const PLANTED: readonly PlantedSecret[] = [
  { kind: 'stripe-key', line: 'STRIPE=sk_live_a1B2c3D4e5F6g7H8i9J0kLmN', secret: 'sk_live_a1B2c3D4e5F6g7H8i9J0kLmN' },
  { kind: 'aws-key', line: 'AWS_ACCESS_KEY_ID=AKIAQYLPMN5HHHFPZAM2', secret: 'AKIAQYLPMN5HHHFPZAM2' },
  { kind: 'aws-key', line: 'AWS_SECRET_ACCESS_KEY=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', secret: 'Zk8vQ2xXnR4pT7wY1bM9cL3sD6fH0jK5gN2aE8uI' },
  { kind: 'github-token', line: 'gh auth: ghp_Qw3rTy7uI9oP1aS2dF4gH6jK8lZ0xC5vB7nM', secret: 'ghp_Qw3rTy7uI9oP1aS2dF4gH6jK8lZ0xC5vB7nM' },
  { kind: 'slack-token', line: 'SLACK_BOT=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', secret: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx' },
  {
    kind: 'private-key',
    line: ['-----BEGIN RSA PRIVATE KEY-----', ...PEM_BODY, '-----END RSA PRIVATE KEY-----'].join('\n'),
    secret: PEM_BODY[1] as string,
  },
  {
    kind: 'jwt',
    line: 'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    secret: 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  },
  { kind: 'connection-string', line: 'DATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal:5432/app', secret: 'S3cr3tPassw0rd' },
  { kind: 'basic-auth', line: 'GET http://ada:pw@127.0.0.1:8765/api → 200', secret: ':pw@' },
  { kind: 'basic-auth', line: 'open https://admin:pa$$w0rd!@example.org/login', secret: 'pa$$w0rd!' },
  { kind: 'assigned-secret', line: 'SESSION_SECRET=q9Xv2LmN8rT4wZ7pK1sB', secret: 'q9Xv2LmN8rT4wZ7pK1sB' },
  { kind: 'assigned-secret', line: 'export API_TOKEN="Xr5tY8uI2oP4aS6dF9gH"', secret: 'Xr5tY8uI2oP4aS6dF9gH' },
  { kind: 'assigned-secret', line: '{"client_secret": "Hj3kL9mN2pQ8rS5tV1wX"}', secret: 'Hj3kL9mN2pQ8rS5tV1wX' },
  { kind: 'assigned-secret', line: '  password: Tr0ub4dor-and-3-more', secret: 'Tr0ub4dor-and-3-more' },
]

/** Lines that look a little like secrets and are not: they must come through unchanged. */
export const NOT_SECRETS: readonly string[] = [
  'PATH=/usr/local/bin:/usr/bin:/bin',
  'AUTHOR=Ada Lovelace-Byron',
  'commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f',
  'TOKEN_TTL_SECONDS=3600',
  'password: changeme',
  'API_KEY=${API_KEY}',
  'id: 7c9e6679-7425-40de-944b-e07fc1f90ae7',
  'DB_PASSWORD_FILE=/run/secrets/db',
  'git clone postgres://app:${PGPASSWORD}@db/app',
  'see http://example.org/docs/a:b@c and mailto:ada@example.org',
]
