/**
 * What secretlint's recommended rules (secret-scan.ts) leave out and outputs here are full
 * of: Stripe keys, JWTs, and a random-looking value assigned to a secret-looking name in a
 * `.env` file, a shell `export`, JSON or YAML. Each rule names the kind its marker shows.
 */
export interface ContentRule {
  kind: string
  /** Global; the secret is the whole match, or the group named `secret` when there is one. */
  pattern: RegExp
  /** Says whether a match is really a secret (the assignment rule's entropy test). */
  accept?: (match: RegExpExecArray) => boolean
  /** A text without this substring cannot match: the pattern is not run on it at all. */
  requires?: string
}

/** Names that hold secrets in configuration, anywhere in the name (`STRIPE_SECRET_KEY`, `db.password`); "auth" but not "author". */
const SECRET_NAME = /(secret|token|passw|pwd|api[-_.]?key|access[-_.]?key|private[-_.]?key|signing[-_.]?key|credential|auth(?![a-z])|dsn|conn(ection)?[-_.]?str)/i

/** Values that stand for a secret rather than being one. */
const PLACEHOLDER = /^(\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|x+|changeme|change[-_]me|your[-_].*|example.*|dummy|redacted.*|\[REDACTED[^\]]*\]|null|none|true|false|\d+)$/i

/** Bits per character of a value's own alphabet: random keys score about 4 and up, words and ids well under 3. */
export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>()
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const p = count / value.length
    bits -= p * Math.log2(p)
  }
  return bits
}

/** Values that point at a secret instead of holding one: a path, a URL without credentials. */
const REFERENCE = /^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/[^@]*$)/i

/** A value a person would not type as a word: long enough and mixed enough to be a generated secret or a real password. */
function looksGenerated(value: string): boolean {
  return value.length >= 10 && !PLACEHOLDER.test(value) && !REFERENCE.test(value) && shannonEntropy(value) >= 3.2
}

function assignedSecret(match: RegExpExecArray): boolean {
  const name = match.groups?.name ?? ''
  const value = match.groups?.secret ?? ''
  return SECRET_NAME.test(name) && looksGenerated(value)
}

const PRIVATE_KEY_BEGIN = '-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----'
const PRIVATE_KEY_END = '-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----'

/** What stands in a URL for a password rather than being one: `${PASSWORD}`, `{{password}}`, `<password>`, `%PASSWORD%`, stars, a marker. */
const URL_PASSWORD_PLACEHOLDER = /^(?:\$\{?[A-Za-z_]\w*\}?|\{\{?[^{}]*\}\}?|<[^<>]*>|%[A-Za-z_]+%|\*+|\[REDACTED[^\]]*\])$/

export const CONTENT_RULES: readonly ContentRule[] = [
  // A URL's password (`http://ada:s3cret@127.0.0.1:8765/`), however short and whatever its
  // host: only the password, so the address still says where it leads. (secretlint's rule,
  // left out, wants four letters or digits and a dotted host, and takes the host with it.)
  {
    kind: 'basic-auth',
    pattern: /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s/?#@:"'<>]{1,256}:(?<secret>[^\s/?#@"'<>]{1,256})@/gi,
    accept: (match) => !URL_PASSWORD_PLACEHOLDER.test(match.groups?.secret ?? ''),
    requires: '@',
  },
  // A private key block cut off by the edge of a screen or a read: from its BEGIN line to
  // the end of the text, or from the first line of key material above its END line.
  // (secretlint finds whole blocks only.)
  { kind: 'private-key', pattern: new RegExp(`${PRIVATE_KEY_BEGIN}[\\s\\S]*?(?:${PRIVATE_KEY_END}|$(?![\\s\\S]))`, 'g'), requires: 'PRIVATE KEY' },
  { kind: 'private-key', pattern: new RegExp(`^(?:[ \\t]*[A-Za-z0-9+/=]{16,}[ \\t]*\\n)+${PRIVATE_KEY_END}`, 'gm'), requires: '-----END' },
  // Stripe secret and restricted keys, and webhook signing secrets.
  { kind: 'stripe-key', pattern: /\b(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{16,247}\b/g },
  { kind: 'stripe-key', pattern: /\bwhsec_[0-9A-Za-z+/=]{24,}\b/g },
  // A JSON Web Token: base64url header and payload (both JSON objects, so `eyJ`), then a signature.
  { kind: 'jwt', pattern: /\beyJ[0-9A-Za-z_-]{8,}\.eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{8,}/g },
  // NAME=value and `export NAME=value` (.env, shell); the value quoted or bare.
  {
    kind: 'assigned-secret',
    pattern: /^[ \t]*(?:export[ \t]+)?(?<name>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*(?<q>["']?)(?<secret>[^\s"'#]{10,})\k<q>/gm,
    accept: assignedSecret,
  },
  // "name": "value" (JSON).
  { kind: 'assigned-secret', pattern: /"(?<name>[^"\\\n]{1,100})"[ \t]*:[ \t]*"(?<secret>[^"\\\s]{10,})"/g, accept: assignedSecret },
  // name: value (YAML), the value quoted or bare.
  {
    kind: 'assigned-secret',
    pattern: /^[ \t]*(?:- )?(?<name>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:[ \t]+(?<q>["']?)(?<secret>[^\s"'#]{10,})\k<q>[ \t]*$/gm,
    accept: assignedSecret,
  },
]
