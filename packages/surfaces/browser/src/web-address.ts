import { z } from 'zod'

/**
 * Schemes a browser tile opens: the web, a blank page, and a page written inline. A local
 * file is the file surface's to read, under its own folder and policy: opened in a browser
 * tile it would be read around them (`file:///etc/passwd`). Script and browser-internal
 * addresses (`javascript:`, `chrome:`, `view-source:`) are no pages to open. A pattern, so the
 * gateway checks it from the contract's JSON Schema before any risk is weighed or a person is
 * asked to approve what cannot run.
 */
const WEB_ADDRESS_START = /^(?:[hH][tT][tT][pP][sS]?:\/\/|[dD][aA][tT][aA]:|about:blank$)/
const WHAT_OPENS = 'a web address (https://…, http://…, about:blank or data:; local files are read through a file tile)'
const LONGEST_ADDRESS = 8192

/** What is wrong with an address a tile is asked to open, as the text of a typed error; nothing where it opens. */
export function webAddressProblem(url: string): string | undefined {
  if (WEB_ADDRESS_START.test(url) && (url === 'about:blank' || URL.canParse(url))) return undefined
  return `expected ${WHAT_OPENS}, found ${JSON.stringify(url.slice(0, 200))}`
}

/**
 * An address a tile may open (see WEB_ADDRESS_START); one that does not parse is refused as
 * well. The pattern reaches the JSON Schema as metadata, so zod says the one problem in words.
 */
export const WebAddress = z
  .string()
  .min(1)
  .max(LONGEST_ADDRESS)
  .superRefine((url, ctx) => {
    const problem = webAddressProblem(url)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
  })
  .meta({ description: WHAT_OPENS, pattern: WEB_ADDRESS_START.source })

/** A loopback host at the start of an address without a scheme (`localhost:3000` parses as the scheme `localhost:`). */
const LOOPBACK_START = /^(localhost|127\.[\d.]+|\[::1\])(:\d+)?([/?#]|$)/

/**
 * An address as an agent may write it, made whole the way Playwright MCP makes it:
 * `localhost:3000` gets `http://`, `example.org/docs` `https://`; one that parses stands. What
 * is still no web address comes back as it was, for WebAddress to refuse in the agent's words.
 */
export function withScheme(url: string): string {
  if (LOOPBACK_START.test(url)) return `http://${url}`
  if (URL.canParse(url)) return url
  return URL.canParse(`https://${url}`) ? `https://${url}` : url
}

/**
 * An address as the tile reports it (a frame's route, a tab, an answer): without the user name
 * and password an address may carry (`https://user:secret@host/`), which would otherwise be
 * in every header the agent reads, the console and the trace.
 */
export function shownAddress(url: string): string {
  if (!URL.canParse(url)) return url
  const parsed = new URL(url)
  if (parsed.username === '' && parsed.password === '') return url
  parsed.username = ''
  parsed.password = ''
  return parsed.href
}
