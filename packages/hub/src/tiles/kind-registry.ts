import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SurfaceKindModule } from '@tessera/kit'
import { TesseraError } from '@tessera/protocol'
import { appKind } from '@tessera/surface-app'
import { browserKind } from '@tessera/surface-browser'
import { desktopKind } from '@tessera/surface-desktop'
import { filesKind } from '@tessera/surface-files'
import { terminalKind } from '@tessera/surface-terminal'

/** The kinds every hub knows; configuration adds more (`kindModules`) without a hub edit. */
export const BUILT_IN_KINDS: readonly SurfaceKindModule<never>[] = [appKind, filesKind, terminalKind, browserKind, desktopKind] as unknown as SurfaceKindModule<never>[]

function isKindModule(value: unknown): value is SurfaceKindModule {
  if (value === null || typeof value !== 'object') return false
  const candidate = value as Partial<SurfaceKindModule>
  return typeof candidate.kind === 'string' && typeof candidate.open === 'function' && typeof candidate.idPrefix === 'string' && candidate.configSchema !== undefined
}

/**
 * Loads a kind module named in configuration: a package name, or a path to a built ES
 * module (relative to `baseDir`), exporting the module as `default` or `kind`.
 */
export async function loadKindModule(spec: string, baseDir: string): Promise<SurfaceKindModule> {
  const isPath = spec.startsWith('.') || isAbsolute(spec)
  let mod: { default?: unknown; kind?: unknown }
  try {
    mod = (await import(isPath ? pathToFileURL(resolve(baseDir, spec)).href : spec)) as typeof mod
  } catch (error) {
    throw new TesseraError('not_found', `cannot load the kind module "${spec}": ${(error as Error).message}`, { expected: 'an installed package or a path to a built ES module', found: spec })
  }
  const found = isKindModule(mod.default) ? mod.default : isKindModule(mod.kind) ? mod.kind : null
  if (found === null) {
    throw new TesseraError('invalid_request', `"${spec}" exports no surface kind module`, { expected: 'a default (or `kind`) export made with defineKind({ kind, idPrefix, configSchema, contracts, open })', found: Object.keys(mod) })
  }
  return found
}

/** Kind name → module; a name registered twice is a configuration error. */
export class KindRegistry {
  readonly #kinds = new Map<string, SurfaceKindModule>()

  constructor(modules: readonly SurfaceKindModule<never>[] = BUILT_IN_KINDS) {
    for (const module of modules) this.add(module as unknown as SurfaceKindModule)
  }

  add(module: SurfaceKindModule): void {
    if (this.#kinds.has(module.kind)) throw new TesseraError('conflict', `two kind modules are named "${module.kind}"`, { found: module.kind })
    this.#kinds.set(module.kind, module)
  }

  get(kind: string): SurfaceKindModule {
    const module = this.#kinds.get(kind)
    if (module === undefined) throw new TesseraError('not_found', `no surface kind "${kind}"`, { expected: [...this.#kinds.keys()], found: kind })
    return module
  }

  list(): SurfaceKindModule[] {
    return [...this.#kinds.values()]
  }
}
