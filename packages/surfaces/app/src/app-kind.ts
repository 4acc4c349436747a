import { defineKind } from '@tessera/kit'
import { z } from 'zod'
import { AppSurface } from './app-surface.js'
import { loadAppModule } from './load-app-module.js'

export const AppConfig = z.strictObject({
  /** An installed package (`@tessera/example-claims-review`), or a path to a built module or package folder. */
  module: z.string().min(1),
  title: z.string().max(200).optional(),
})
export type AppConfig = z.infer<typeof AppConfig>

/**
 * Agent-native apps written with the ui package, hosted in process. Their actions are a
 * short list of business actions, so each gets its own MCP tool (`claims__approve-payout`).
 */
export const appKind = defineKind<AppConfig>({
  kind: 'app',
  title: 'Agent-native app',
  idPrefix: 'app',
  configSchema: AppConfig,
  contracts: [],
  perActionTools: true,
  guide: "An app tile's actions are tools too: <tile>__<action>.",
  async open(config, env) {
    const spec = config.module.startsWith('.') || config.module.startsWith('/') || config.module.startsWith('data:') ? env.resolvePath(config.module) : config.module
    const { app } = await loadAppModule(spec)
    return new AppSurface(app, { id: env.id })
  },
})
