/**
 * Names that say what they hold is a secret, whatever else they say: a field's `name` or
 * `id`, a form's or a JSON body's key. Their values are never passed on to an agent.
 */
export const SECRET_NAME = /pass(word|wd|code|phrase)?|secret|token|otp|one.?time|cvc|cvv|csc|card.?(number|num|no)|iban|ssn|social.?security|pin(code)?$/i

/** Headers that carry who the browser is to a site: its cookies, its credentials, a key. */
const SECRET_HEADER = /^(cookie|set-cookie|authorization|proxy-authorization)$|api.?key|auth.?token|session|csrf|xsrf/i

export const REDACTED = '[REDACTED]'

/** Whether a header's value is a secret. */
export function secretHeader(name: string): boolean {
  return SECRET_HEADER.test(name) || SECRET_NAME.test(name)
}
