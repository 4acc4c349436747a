import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { FacadeTool } from '@tessera/kit'
import { type ActionContract, type Frame, type Risk, TesseraError, resolvedTargets } from '@tessera/protocol'
import type { KindRegistry } from '../tiles/kind-registry.js'
import { MAP_TOOLS } from '../tiles/map-tools.js'
import { GENERIC_TOOLS } from './generic-tools.js'
import { toolNameFor } from './tool-names.js'
import type { ToolScope } from './tool-scope.js'

/** A per-action tool: one business action of one tile of a kind that asks for them. */
export interface ActionTool {
  surface: string
  /** The kind of the tile (a session's ToolScope keeps or leaves tools by kind). */
  kind: string
  action: string
  tool: Tool
}

/**
 * MCP's hints, only where they differ from the spec's defaults (not read-only, destructive,
 * open world): every tool list a client fetches carries them.
 */
function annotations(risk: Risk, title?: string): Tool['annotations'] {
  const hints: Tool['annotations'] = title === undefined ? {} : { title }
  if (risk === 'read') return { ...hints, readOnlyHint: true, openWorldHint: false }
  if (risk === 'write') return { ...hints, destructiveHint: false, openWorldHint: false }
  if (risk === 'destructive') return { ...hints, openWorldHint: false }
  // External: reaches outside (open world, the default), without destroying anything here.
  return { ...hints, destructiveHint: false }
}

function actionTool(surface: string, kind: string, contract: ActionContract, risk: Risk, enabled: boolean): ActionTool {
  const conditions = [
    contract.preconditions.length ? `Requires: ${contract.preconditions.join('; ')}.` : '',
    contract.postconditions.length ? `Ensures: ${contract.postconditions.join('; ')}.` : '',
  ].filter(Boolean)
  const approval = contract.requiresConfirmation || risk === 'destructive' || risk === 'external' ? ' Needs a human approval.' : ''
  const disabled = enabled ? '' : ' Currently disabled.'
  return {
    surface,
    kind,
    action: contract.id,
    tool: {
      name: toolNameFor(surface, contract.id),
      title: `${contract.title} (${surface})`,
      description: `${contract.title} — ${risk} action "${contract.id}" on surface "${surface}".${approval}${disabled} ${conditions.join(' ')}`.trim(),
      inputSchema: (contract.inputSchema ?? { type: 'object', properties: {} }) as Tool['inputSchema'],
      ...(contract.outputSchema !== undefined && contract.outputSchema.type === 'object' ? { outputSchema: contract.outputSchema as Tool['outputSchema'] } : {}),
      annotations: annotations(risk, contract.title),
    },
  }
}

/**
 * The hub's tool list, the same for every session: the generic tools, the façade tools the
 * kind modules declare, and per-action tools only for kinds that ask for them (an app's
 * business actions). It grows with kinds, never with tiles of a ref-driven kind or their UI.
 */
export class ToolCatalog {
  readonly #facades = new Map<string, FacadeTool>()
  readonly #perAction: ReadonlySet<string>
  readonly #excluded: ReadonlySet<string>
  /** Each façade and map tool's kind; the generic tools belong to none. */
  readonly #kindOf = new Map<string, string>()
  /** What a setting may name: a kind, or any tool the hub defines. */
  readonly #known: ReadonlySet<string>
  /** Each kind's guide for agents, in the registry's order, with the tools that reach the kind. */
  readonly #guides: ReadonlyArray<{ kind: string; guide: string; tools: readonly string[] }>

  /** `exclude`: kinds whose tools are left out, or tools by name (config `tools.exclude`). */
  constructor(kinds: KindRegistry, exclude: readonly string[] = []) {
    const generic = new Set(GENERIC_TOOLS.map((tool) => tool.name))
    for (const tool of MAP_TOOLS) this.#kindOf.set(tool.name, 'map')
    for (const kind of kinds.list()) {
      for (const facade of kind.facadeTools ?? []) {
        if (generic.has(facade.name) || this.#kindOf.has(facade.name)) {
          throw new TesseraError('conflict', `the tool "${facade.name}" of kind "${kind.kind}" is already defined`, { found: facade.name })
        }
        this.#kindOf.set(facade.name, kind.kind)
      }
    }
    this.#known = new Set([...generic, ...kinds.list().map((kind) => kind.kind), 'map', ...this.#kindOf.keys()])
    this.check(exclude, 'tools.exclude')
    this.#excluded = new Set(exclude)
    for (const tool of MAP_TOOLS) if (!this.#excluded.has('map') && !this.#excluded.has(tool.name)) this.#facades.set(tool.name, tool)
    for (const kind of kinds.list()) {
      if (this.#excluded.has(kind.kind)) continue
      for (const facade of kind.facadeTools ?? []) if (!this.#excluded.has(facade.name)) this.#facades.set(facade.name, facade)
    }
    this.#perAction = new Set(kinds.list().filter((kind) => kind.perActionTools === true && !this.#excluded.has(kind.kind)).map((kind) => kind.kind))
    this.#guides = kinds.list().flatMap((kind) => {
      if (kind.guide === undefined || this.#excluded.has(kind.kind)) return []
      const tools = (kind.facadeTools ?? []).map((facade) => facade.name).filter((name) => this.#facades.has(name))
      // A kind whose every tool is left out has nothing its guide could speak of.
      return tools.length > 0 || this.#perAction.has(kind.kind) ? [{ kind: kind.kind, guide: kind.guide, tools }] : []
    })
  }

  /** The guides of the kinds a session reaches, for its server instructions. */
  guides(scope: ToolScope): string[] {
    return this.#guides.filter((entry) => scope.reaches(entry.kind, entry.tools)).map((entry) => entry.guide)
  }

  /** Throws `invalid_request` naming `setting` unless every entry is a kind or a tool of this hub. */
  check(entries: readonly string[], setting: string): void {
    for (const entry of entries) {
      // An app tile's action tools (`claims__approve-payout`) exist only once it is open.
      if (!this.#known.has(entry) && !entry.includes('__')) {
        throw new TesseraError('invalid_request', `${setting}: expected a kind or a tool name, found "${entry}"`, { expected: [...this.#known].sort(), found: entry })
      }
    }
  }

  /** The kind a façade or map tool belongs to; undefined for a generic tool (or one this catalog does not define). */
  kindOf(name: string): string | undefined {
    return this.#kindOf.get(name)
  }

  facade(name: string): FacadeTool | undefined {
    return this.#facades.get(name)
  }

  /** Whether tiles of this kind get a tool per action. */
  perAction(kind: string): boolean {
    return this.#perAction.has(kind)
  }

  /** Left out by config `tools.exclude`: not listed, not callable. */
  excluded(name: string): boolean {
    return this.#excluded.has(name)
  }

  staticTools(): Tool[] {
    const facades: Tool[] = [...this.#facades.values()].map((facade) => ({
      name: facade.name,
      description: facade.description,
      inputSchema: facade.inputSchema as Tool['inputSchema'],
      ...(facade.outputSchema === undefined ? {} : { outputSchema: facade.outputSchema as Tool['outputSchema'] }),
      annotations: annotations(facade.risk),
    }))
    return [...GENERIC_TOOLS.filter((tool) => !this.#excluded.has(tool.name)), ...facades]
  }

  /** The per-action tools of the frames of tiles that asked for them; each contract once per surface. */
  actionTools(tiles: ReadonlyArray<{ kind: string; frame: Frame }>): ActionTool[] {
    const tools: ActionTool[] = []
    for (const { kind, frame } of tiles) {
      const seen = new Set<string>()
      for (const resolved of resolvedTargets(frame)) {
        if (seen.has(resolved.contract.id)) continue
        seen.add(resolved.contract.id)
        if (this.#excluded.has(toolNameFor(frame.surface, resolved.contract.id))) continue
        const enabled = frame.targets.some((target) => target.contract === resolved.contract.id && target.enabled)
        tools.push(actionTool(frame.surface, kind, resolved.contract, resolved.risk, enabled))
      }
    }
    return tools
  }
}
