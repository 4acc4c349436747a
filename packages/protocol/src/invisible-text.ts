/**
 * Characters a page can put in its text that no person sees: the zero-width space, the word
 * joiner, the byte order mark and the soft hyphen (CKEditor fills an empty bold run with
 * seven U+200B), and the Unicode tag characters U+E0000–U+E007F, which spell out ASCII that
 * no screen shows — a known way to hide instructions for a model inside a page. The
 * zero-width joiner and non-joiner stay: emoji sequences and several scripts need them.
 */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff\u{e0000}-\u{e007f}]/gu

/** `text` as a person reads it: what they cannot see is not passed on to an agent either. */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '')
}
