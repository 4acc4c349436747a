import type { CodeOptions } from 'ajv'
import { RE2JS } from 're2js'

/**
 * How a contract's JSON Schema `pattern` runs: on RE2's linear-time engine where it can (a
 * schema may come from a page, as a WebMCP tool's, and a backtracking engine takes
 * exponential time on a pattern as plain as `^(a|aa)*b$`); a pattern RE2 cannot run (a
 * lookahead, a backreference: zod's email format has one) on JavaScript's own.
 */
export const linearRegExp: NonNullable<CodeOptions['regExp']> = Object.assign(
  (pattern: string, flags: string): { test(text: string): boolean; toString(): string } => {
    const native = new RegExp(pattern, flags)
    let compiled: RE2JS
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(native))
    } catch {
      return native
    }
    // Ajv keys its compiled patterns by this text.
    return { test: (text: string) => compiled.test(text), toString: () => native.toString() }
  },
  { code: 'linearRegExp' },
)
