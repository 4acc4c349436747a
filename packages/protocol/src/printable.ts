/**
 * Characters a terminal or a text view acts on instead of showing: C0 and C1 controls (ESC
 * starts the sequences that clear a screen, hide text, move the cursor or write the
 * clipboard; U+009B is a one-character CSI), DEL, the line and paragraph separators, and
 * the bidirectional overrides and isolates that make text read in another order than it runs.
 */
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** In JSON text C0 can only be layout (strings have it escaped already), so only the rest. */
const ACTIVE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

function hex(char: string, digits: number): string {
  return (char.codePointAt(0) ?? 0).toString(16).padStart(digits, '0')
}

/**
 * Text that came from an agent, a program or a page, made safe to show a person: every
 * active character is written out as its escape (`\x1b`, `\u202e`), so an attempt is
 * visible instead of obeyed, and nothing else changes. Zod-free, so the CLI can load it
 * without the schemas. The one function for CLI output, approval texts and logs.
 */
export function printable(text: string): string {
  return text.replace(ACTIVE, (char) => (char.length === 1 && char.charCodeAt(0) <= 0xff ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`))
}

/**
 * JSON of `value` for a terminal: JSON.stringify escapes C0 already; the other active
 * characters are written as JSON's own `\uXXXX` escapes, so the line still parses to the
 * very same value.
 */
export function printableJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(ACTIVE_IN_JSON, (char) => `\\u${hex(char, 4)}`)
}
