/**
 * Field names that hold secrets in practice. Matching on names is a safety net, not the
 * boundary: apps mark fields sensitive explicitly and surfaces redact password inputs.
 */
const SECRET_NAME =
  /(pass(word|wd|phrase)?|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth(orization)?|session[-_]?id|cookie|ssn|cvv|cvc|pin|card[-_]?number|iban)$/i

export function looksSecret(fieldName: string): boolean {
  return SECRET_NAME.test(fieldName.replace(/[^a-z0-9_-]/gi, ''))
}

export const REDACTED = '[REDACTED]'
