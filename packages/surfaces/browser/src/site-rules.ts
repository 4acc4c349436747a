import { Risk, TesseraError, maxRisk } from '@tessera/protocol'
import { z } from 'zod'

/** A person's rule for a site: anything done on a page whose host matches is at least `risk`. */
export const SiteRule = z.strictObject({
  /** A host (`bank.example`), a wildcard host (`*.bank.example`) or an origin (`https://bank.example:8443`). */
  match: z.string().min(1).max(253),
  risk: Risk,
})
export type SiteRule = z.infer<typeof SiteRule>

function hostMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase()
  if (p.startsWith('*.')) return host === p.slice(2) || host.endsWith(p.slice(1))
  return host === p
}

/** Whether a pattern (origin with optional `*` port or host wildcard, or a bare host) covers a URL. */
function covers(pattern: string, url: URL): boolean {
  if (!pattern.includes('://')) return hostMatches(pattern, url.hostname)
  const match = /^(https?):\/\/([^/:]+)(?::(\d+|\*))?\/?$/.exec(pattern)
  if (match === null) throw new TesseraError('invalid_request', `expected an origin pattern like https://host, http://127.0.0.1:* or https://*.example.org, found "${pattern}"`, { found: pattern })
  const [, scheme, host = '', port] = match
  if (`${scheme}:` !== url.protocol || !hostMatches(host, url.hostname)) return false
  if (port === '*') return true
  const actual = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port
  return (port ?? (scheme === 'https' ? '443' : '80')) === actual
}

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** Whether an origin is one the tile may move within without a person. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  const url = parse(origin)
  return url !== null && allowed.some((pattern) => covers(pattern, url))
}

/** The highest risk the site rules give a URL, or undefined when none covers it. */
export function siteRiskOf(url: string, rules: readonly SiteRule[] | undefined): Risk | undefined {
  const parsed = parse(url)
  if (parsed === null || rules === undefined) return undefined
  let risk: Risk | undefined
  for (const rule of rules) if (covers(rule.match, parsed)) risk = risk === undefined ? rule.risk : maxRisk(risk, rule.risk)
  return risk
}

/** Checks origin patterns when the configuration is read, not when an agent first navigates. */
export function checkOriginPatterns(patterns: readonly string[]): void {
  const probe = new URL('http://127.0.0.1/')
  for (const pattern of patterns) covers(pattern, probe)
}
