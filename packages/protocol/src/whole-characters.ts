/**
 * A UTF-16 string can hold half of a character: a high or low surrogate without its other
 * half. JSON carries one as an escape (`\ud83d`), and a strict reader refuses it — a model's
 * API answered such a tool result with "invalid high surrogate", and the conversation that
 * held it could not go on. A half comes from cutting a text between the halves of an emoji,
 * or from a page that writes one on purpose.
 */

/** `text` with every half a character replaced by U+FFFD, as a decoder writes bytes it cannot read. */
export function wellFormed(text: string): string {
  return text.toWellFormed()
}

/** At most `max` UTF-16 units of `text`, one fewer where the cut would split a character in two. */
export function cutWhole(text: string, max: number): string {
  if (text.length <= max) return text
  const end = max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max
  return text.slice(0, Math.max(0, end))
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
