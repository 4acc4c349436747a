import { randomBytes } from 'node:crypto'

/**
 * The fence lines around words that came from a page (its outline, its console, what a script
 * returned): everything between them is quoted, never an instruction. Each fence draws a fresh
 * random nonce, so a page cannot print a closing line of its own; what goes between is
 * single-line JSON, so it cannot start a line either.
 */
export function pageFence(): { open: string; close: string } {
  const nonce = randomBytes(3).toString('hex')
  return { open: `--- page ${nonce} (untrusted) ---`, close: `--- end ${nonce} ---` }
}
