import { expand } from 'brace-expansion'

/** A word of a simple command as the classifier reads it. */
export interface Word {
  text: string
  glob: boolean
}

/** More words than this from one command, and it is not worth guessing what runs. */
const MAX_WORDS = 256

/** `$IFS` (or `${IFS}`, which the parser hands over as `$IFS`) splits a word where it stands, as bash's default IFS does. */
const IFS = /\$IFS/g

/**
 * The words bash would run after the expansions that can turn one word into several: brace
 * expansion (`{rm,-rf,./x}` is `rm -rf ./x`, `r{m,}` is `rm r`) and splitting on an unquoted
 * `$IFS`. Quoting is gone by the time words reach the classifier, so a quoted `'{a,b}'` is
 * expanded too: that can only make a command look riskier than it is, never safer. Null when
 * the expansion is too large to judge.
 */
export function expandWords(words: readonly Word[]): Word[] | null {
  const out: Word[] = []
  for (const word of words) {
    const pieces = word.text.includes('$IFS') ? word.text.split(IFS).filter((piece) => piece.length > 0) : [word.text]
    for (const piece of pieces) {
      const expanded = piece.includes('{') ? expand(piece, { max: MAX_WORDS + 1 }) : [piece]
      for (const text of expanded) out.push({ text, glob: word.glob })
      if (out.length > MAX_WORDS) return null
    }
  }
  return out
}
