import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ScriptStep } from '@tessera/gateway'
import { TesseraError } from '@tessera/protocol'
import type { AgentApp } from '@tessera/ui'

export interface LoadedAppModule {
  path: string
  app: AgentApp
  script: readonly ScriptStep[] | undefined
}

function entryOf(path: string): string {
  if (!statSync(path).isDirectory()) return path
  const manifest = join(path, 'package.json')
  if (!existsSync(manifest)) throw new TesseraError('not_found', `expected a package.json in ${path}`, { found: path })
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string; exports?: { '.'?: { default?: string } | string } }
  const exported = pkg.exports?.['.']
  const entry = typeof exported === 'string' ? exported : (exported?.default ?? pkg.main ?? 'index.js')
  return join(path, entry)
}

function isAgentApp(value: unknown): value is AgentApp {
  if (value === null || typeof value !== 'object') return false
  const candidate = value as Partial<AgentApp>
  return typeof candidate.id === 'string' && typeof candidate.render === 'function' && typeof candidate.initialState === 'function' && typeof candidate.handlers === 'object'
}

/**
 * Loads an app module: an installed package by name, a built ES module or a package
 * folder, whose default export (or `app`) is an AgentApp; a named `conformance` export may
 * carry the scripted session to check.
 */
export async function loadAppModule(spec: string): Promise<LoadedAppModule> {
  if (isPackageName(spec)) return fromModule(spec, spec, (await import(spec)) as ModuleExports)
  const path = resolve(spec)
  if (!existsSync(path)) throw new TesseraError('not_found', `no app module at ${path}`, { expected: 'a path to an ES module or package folder', found: spec })
  const entry = entryOf(path)
  if (!existsSync(entry)) throw new TesseraError('not_found', `the module entry ${entry} does not exist (was it built?)`, { found: entry })
  return fromModule(spec, entry, (await import(pathToFileURL(entry).href)) as ModuleExports)
}

type ModuleExports = { default?: unknown; app?: unknown; conformance?: { script?: ScriptStep[] } }

/** `@scope/name` or `name`: resolved by Node from the installed packages, not as a path. */
function isPackageName(spec: string): boolean {
  return /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(spec) && !existsSync(resolve(spec))
}

function fromModule(spec: string, entry: string, mod: ModuleExports): LoadedAppModule {
  const app = isAgentApp(mod.default) ? mod.default : isAgentApp(mod.app) ? mod.app : null
  if (app === null) {
    throw new TesseraError('invalid_request', `${spec} does not export an agent app`, {
      expected: 'a default export (or `app`) made with defineApp({ id, title, initialState, route, render, handlers })',
      found: Object.keys(mod),
    })
  }
  return { path: entry, app, script: mod.conformance?.script }
}
