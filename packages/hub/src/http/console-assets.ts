import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { TesseraError } from '@tessera/protocol'
import type { MiddlewareHandler } from 'hono'
import { errorResponse } from './error-response.js'

/** Where `npm run build` leaves the console (packages/console/dist). */
export function consoleDist(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@tessera/console/package.json')), 'dist')
}

// The console's own script and styles only; what tiles show comes over the API, never as markup.
// Inline style attributes are how the map places tiles, so styles allow them; scripts never.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

/**
 * Serves the console: `/` (its page; the login link's code rides in the fragment) and its
 * built assets. They hold no data and no secret, so no principal is needed to fetch them;
 * everything the page shows comes from the API, which does need one.
 */
export function consoleAssets(root = consoleDist()): { page: MiddlewareHandler; assets: MiddlewareHandler } {
  const index = join(root, 'index.html')
  const missing = (): Response =>
    errorResponse(new TesseraError('not_found', `the console is not built (no ${index}); run \`npm run build\``, { expected: index, found: 'nothing' }))
  const page = serveStatic({ root, path: 'index.html' })
  const assets = serveStatic({ root })
  return {
    page: async (c, next) => {
      if (!existsSync(index)) return missing()
      c.header('content-security-policy', CSP)
      c.header('cache-control', 'no-store')
      return page(c, next)
    },
    assets: async (c, next) => {
      // Built file names carry a content hash: they never change, so they may be kept.
      c.header('cache-control', 'public, max-age=31536000, immutable')
      return assets(c, next)
    },
  }
}
