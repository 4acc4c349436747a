import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { FacadeTool } from '@tessera/kit'
import { type ActionContract, type Frame, type Risk, TesseraError, resolvedTargets } from '@tessera/protocol'
import type { KindRegistry } from '../tiles/kind-registry.js'
import { GENERIC_TOOLS } from './generic-tools.js'
import { toolNameFor } from './tool-names.js'

/** A per-action tool: one business action of one tile of a kind that asks for them. */
export interface ActionTool {
  surface: string
  action: string
  tool: Tool
}

function annotations(risk: Risk, title?: string): Tool['annotations'] {
  return { ...(title === undefined ? {} : { title }), readOnlyHint: risk === 'read', destructiveHint: risk === 'destructive', openWorldHint: risk === 'external', idempotentHint: risk === 'read' }
}

function actionTool(surface: string, contract: ActionContract, risk: Risk, enabled: boolean): ActionTool {
  const conditions = [
    contract.preconditions.length ? `Requires: ${contract.preconditions.join('; ')}.` : '',
    contract.postconditions.length ? `Ensures: ${contract.postconditions.join('; ')}.` : '',
  ].filter(Boolean)
  const approval = contract.requiresConfirmation || risk === 'destructive' || risk === 'external' ? ' Needs a human approval.' : ''
  const disabled = enabled ? '' : ' Currently disabled.'
  return {
    surface,
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

  constructor(kinds: KindRegistry) {
    const generic = new Set(GENERIC_TOOLS.map((tool) => tool.name))
    for (const kind of kinds.list()) {
      for (const facade of kind.facadeTools ?? []) {
        if (generic.has(facade.name) || this.#facades.has(facade.name)) {
          throw new TesseraError('conflict', `the tool "${facade.name}" of kind "${kind.kind}" is already defined`, { found: facade.name })
        }
        this.#facades.set(facade.name, facade)
      }
    }
    this.#perAction = new Set(kinds.list().filter((kind) => kind.perActionTools === true).map((kind) => kind.kind))
  }

  facade(name: string): FacadeTool | undefined {
    return this.#facades.get(name)
  }

  /** Whether tiles of this kind get a tool per action. */
  perAction(kind: string): boolean {
    return this.#perAction.has(kind)
  }

  staticTools(): Tool[] {
    const facades = [...this.#facades.values()].map((facade) => ({
      name: facade.name,
      description: facade.description,
      inputSchema: facade.inputSchema as Tool['inputSchema'],
      annotations: annotations(facade.risk),
    }))
    return [...GENERIC_TOOLS, ...facades]
  }

  /** The per-action tools of frames whose tiles asked for them; each contract once per surface. */
  actionTools(frames: readonly Frame[]): ActionTool[] {
    const tools: ActionTool[] = []
    for (const frame of frames) {
      const seen = new Set<string>()
      for (const resolved of resolvedTargets(frame)) {
        if (seen.has(resolved.contract.id)) continue
        seen.add(resolved.contract.id)
        const enabled = frame.targets.some((target) => target.contract === resolved.contract.id && target.enabled)
        tools.push(actionTool(frame.surface, resolved.contract, resolved.risk, enabled))
      }
    }
    return tools
  }
}
