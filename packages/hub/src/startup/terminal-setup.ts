import { existsSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { type SandboxOptions, sandboxAvailable } from '@tessera/surface-terminal'
import { TesseraError } from '@tessera/protocol'
import type { HubConfig } from '../config/hub-config.js'

/**
 * What the hub gives every terminal: it starts in the demo folder inside the data folder
 * and, when bubblewrap is there (or required by configuration), runs sandboxed with only
 * that folder and the configured roots writable. An agent opening a terminal can choose
 * its cwd, never these.
 */
export function terminalDefaults(config: HubConfig): Record<string, unknown> {
  const defaultCwd = resolve(config.dataDir, 'demo-files')
  if (!existsSync(defaultCwd)) mkdirSync(defaultCwd, { recursive: true })
  const wanted = config.terminals.sandbox
  const available = sandboxAvailable()
  if (wanted === true && !available) {
    throw new TesseraError('invalid_request', 'terminals.sandbox is true but bubblewrap (bwrap) is not installed', { expected: '/usr/bin/bwrap', found: 'missing' })
  }
  const sandbox: SandboxOptions | undefined =
    wanted === false || !available
      ? undefined
      : {
          writableRoots: [defaultCwd, ...config.terminals.writableRoots.map((root) => resolve(root))],
          network: config.terminals.network,
          // The data folder holds the tokens: a sandboxed shell must not read the admin
          // token and approve its own actions. The demo folder inside it is bound back.
          hiddenPaths: [resolve(config.dataDir)],
        }
  return { cwd: defaultCwd, ...(sandbox ? { sandbox } : {}) }
}
