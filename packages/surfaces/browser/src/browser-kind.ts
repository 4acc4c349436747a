import { defineKind, outlinePage } from '@tessera/kit'
import { z } from 'zod'
import { BROWSER_ACTIONS } from './browser-actions.js'
import { sharedBrowserHost } from './browser-host.js'
import { BrowserTile } from './browser-tile.js'
import { BROWSER_TOOLS } from './browser-tools.js'
import { SiteRule, checkOriginPatterns } from './site-rules.js'
import { WebAddress } from './web-address.js'

export const BrowserConfig = z.strictObject({
  title: z.string().max(200).optional(),
  /** The page opened first; its origin is the tile's own. */
  url: WebAddress.optional(),
  /** More origins the tile moves within without asking a person (`http://127.0.0.1:*`, `https://*.example.org`). */
  origins: z.array(z.string().min(1).max(300)).max(100).optional(),
  /** Per-site floors: `{match: "bank.example", risk: "external"}` makes anything done there need a person. */
  sites: z.array(SiteRule).max(200).optional(),
  viewport: z.strictObject({ width: z.number().int().min(200).max(7680), height: z.number().int().min(200).max(4320) }).optional(),
  /** A named persistent profile (`data:browser-profiles/<name>`): cookies and storage kept between runs. Without it the tile is private and forgets everything. */
  /**
   * An Electron app (any Chromium-based one) instead of a web page: `command` starts it with a
   * DevTools port, `endpoint` attaches to one running (loopback only). Configuration only: an
   * agent can never start a program this way.
   */
  app: z
    .strictObject({ command: z.array(z.string().min(1).max(4096)).min(1).max(64).optional(), endpoint: z.string().min(1).max(300).optional() })
    .refine((app) => (app.command === undefined) !== (app.endpoint === undefined), 'expected exactly one of command or endpoint')
    .optional(),
  profile: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a profile name of letters, digits, - and _').optional(),
})
export type BrowserConfig = z.infer<typeof BrowserConfig>

/** The browser kind: a Chromium context per tile, a page as a semantic frame, Playwright-MCP-compatible tools. */
export const browserKind = defineKind<BrowserConfig>({
  kind: 'browser',
  title: 'Browser',
  idPrefix: 'browser',
  configSchema: BrowserConfig,
  // An agent picks where to start and which profile; origins and site rules only a person configures.
  openSchema: z.strictObject({ url: WebAddress.optional(), title: z.string().max(200).optional(), profile: BrowserConfig.shape.profile }),
  contracts: BROWSER_ACTIONS.contracts,
  facadeTools: BROWSER_TOOLS,
  guide: 'browser_*: tile argument tile; answers are what changed on the page (snapshot: delta, full or none); element is the element in words, for a person who may approve.',
  outline: (frame, options) => outlinePage(frame, options),
  async open(config, env) {
    checkOriginPatterns(config.origins ?? [])
    const tile = new BrowserTile({
      id: env.id,
      host: sharedBrowserHost,
      filesDir: env.resolvePath(`data:browser-files/${env.id}`),
      ...(config.title === undefined ? {} : { title: config.title }),
      ...(config.url === undefined ? {} : { url: config.url }),
      ...(config.origins === undefined ? {} : { origins: config.origins }),
      ...(config.sites === undefined ? {} : { sites: config.sites }),
      ...(config.viewport === undefined ? {} : { viewport: config.viewport }),
      ...(config.app === undefined ? {} : { app: config.app }),
      ...(config.profile === undefined ? {} : { profileDir: env.resolvePath(`data:browser-profiles/${config.profile}`) }),
      ...(env.openBeside === undefined ? {} : { openBeside: env.openBeside as (make: (id: string) => Promise<BrowserTile>) => Promise<string> }),
    })
    return tile.open()
  },
})
