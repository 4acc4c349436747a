/**
 * An estimate of how many tokens a text costs a model, for comparing snapshot formats in
 * benchmarks — not any model's tokenizer, and not to be used for billing or hard limits.
 * BPE tokenizers spend about one token per four characters of English and code; scripts
 * outside ASCII split into more pieces, so they weigh more:
 *
 * - ASCII: 1/4 token per character,
 * - other characters below U+0800 (accented Latin, Greek, Cyrillic, Hebrew, Arabic): 1/2,
 * - the rest of the Basic Multilingual Plane (CJK, Thai, symbols such as '…'): 1,
 * - characters beyond it (most emoji): 2.
 *
 * Deterministic: the same text always gives the same number. Rounded up.
 */
export function estimateTokens(text: string): number {
  let quarters = 0
  for (const char of text) {
    const code = char.codePointAt(0) as number
    quarters += code < 0x80 ? 1 : code < 0x800 ? 2 : code <= 0xffff ? 4 : 8
  }
  return Math.ceil(quarters / 4)
}
