/**
 * Characters a page can put in its text that no person sees: the zero-width space, the word
 * joiner, the byte order mark and the soft hyphen (CKEditor fills an empty bold run with
 * seven U+200B), and the Unicode tag characters U+E0000–U+E007F, which spell out ASCII that
 * no screen shows — a known way to hide instructions for a model inside a page. And the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): drawn
 * as nothing, they reorder what a person sees, so a name that reads "Cancel" on screen can
 * say something else to a model; without them a person reviewing an action reads what the
 * agent read (right-to-left scripts lay out by themselves). The zero-width joiner and
 * non-joiner stay: emoji sequences and several scripts need them.
 */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/gu

/** `text` as a person reads it: what they cannot see is not passed on to an agent either. */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '')
}
