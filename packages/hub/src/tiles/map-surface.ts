import type { ActionTarget, Frame, JsonValue, PerformContext, Surface } from '@tessera/protocol'
import { TesseraError } from '@tessera/protocol'
import type { SandboxOptions, TerminalManager } from '@tessera/surface-terminal'
import { agentAction, box, buildFrame, text } from '@tessera/ui'
import type { SurfaceManager } from './surface-manager.js'

const MAP_ACTIONS = [
  agentAction({
    id: 'create-terminal',
    kind: 'create',
    title: 'Open a terminal tile',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' }, cwd: { type: 'string' }, shell: { type: 'string' } },
      additionalProperties: false,
    },
  }),
  agentAction({ id: 'list-terminals', kind: 'list', title: 'List terminals', risk: 'read' }),
  agentAction({
    id: 'focus-terminal',
    kind: 'focus',
    title: 'Focus a terminal tile',
    risk: 'read',
    inputSchema: { type: 'object', properties: { terminal_id: { type: 'string' } }, required: ['terminal_id'], additionalProperties: false },
  }),
  agentAction({
    id: 'close-terminal',
    kind: 'close',
    title: 'Close a terminal tile',
    risk: 'write',
    inputSchema: { type: 'object', properties: { terminal_id: { type: 'string' } }, required: ['terminal_id'], additionalProperties: false },
  }),
]

function field(input: JsonValue | undefined, key: string): JsonValue | undefined {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? input[key] : undefined
}

export interface MapSurfaceOptions {
  terminals: TerminalManager
  surfaces: SurfaceManager
  /** Where new terminals start when no cwd is given. */
  defaultCwd: string
  sandbox: SandboxOptions | undefined
}

/**
 * The map itself as a surface: opening, focusing and closing terminal tiles are actions
 * like any other, so they pass the gateway and land in the trace. Its frame is the tiles.
 */
export class MapSurface implements Surface {
  readonly id = 'map'
  readonly kind = 'app' as const
  readonly title = 'Map'
  readonly #options: MapSurfaceOptions

  constructor(options: MapSurfaceOptions) {
    this.#options = options
  }

  /** The map's contracts, for the hub's own start-up actions. */
  actions(): readonly ActionTarget[] {
    return MAP_ACTIONS.map((contract, index) => ({ id: contract.id, contract, path: [0, index], nodeId: `map/toolbar/${contract.id}`, role: 'button', name: contract.title, bounds: { x: 0, y: 0, width: 1, height: 1 }, enabled: true }))
  }

  async snapshot(): Promise<Frame> {
    const tiles = this.#options.surfaces.list()
    const actions = new Map(MAP_ACTIONS.map((contract) => [contract.id, contract]))
    return buildFrame({
      surface: this.id,
      route: '/map',
      viewport: { width: 800, height: 80 + 32 * tiles.length },
      state: { tiles: tiles.map(({ id, kind, title, x, y, width, height, state, focused }) => ({ id, kind, title, x, y, width, height, state, focused })) as unknown as JsonValue[], terminals: this.#options.terminals.list() as unknown as JsonValue[] },
      tree: box({ key: 'map', role: 'application', name: 'Map', style: { width: 800, flexDirection: 'column' } }, [
        box({ key: 'toolbar', role: 'toolbar', style: { flexDirection: 'row', height: 40, gap: 8 } }, [
          ...[...actions.values()].map((contract) =>
            box({ key: contract.id, role: 'button', name: contract.title, style: { width: 180, height: 32 }, semantic: { agentAction: contract } }, [text({ key: 'label', text: contract.title })]),
          ),
        ]),
        box({ key: 'tiles', role: 'list', name: 'Tiles', style: { flexDirection: 'column' } }, tiles.map((tile) =>
          text({ key: tile.id, role: 'listitem', text: `${tile.title} (${tile.kind}) at ${tile.x},${tile.y}${tile.focused ? ' — focused' : ''}`, style: { height: 32 } }),
        )),
      ]),
    })
  }

  async perform(target: ActionTarget, input: JsonValue | undefined, _ctx: PerformContext): Promise<JsonValue | undefined> {
    const { terminals, surfaces } = this.#options
    switch (target.id) {
      case 'create-terminal': {
        const x = field(input, 'x')
        const y = field(input, 'y')
        const cwd = field(input, 'cwd')
        const shell = field(input, 'shell')
        const created = await terminals.create({
          ...(typeof x === 'number' ? { x } : {}),
          ...(typeof y === 'number' ? { y } : {}),
          cwd: typeof cwd === 'string' ? cwd : this.#options.defaultCwd,
          ...(typeof shell === 'string' ? { shell } : {}),
          ...(this.#options.sandbox ? { sandbox: this.#options.sandbox } : {}),
        })
        await surfaces.add(created.surface, { x: created.x, y: created.y, width: 1024, height: 640 })
        surfaces.focus(created.terminal_id)
        return { terminal_id: created.terminal_id, x: created.x, y: created.y }
      }
      case 'list-terminals':
        return terminals.list() as unknown as JsonValue
      case 'focus-terminal': {
        const id = String(field(input, 'terminal_id'))
        terminals.focus(id)
        surfaces.focus(id)
        return { success: true }
      }
      case 'close-terminal': {
        const id = String(field(input, 'terminal_id'))
        terminals.resolve(id)
        // The tile goes first so no agent acts on a terminal that is shutting down.
        await surfaces.remove(id)
        await terminals.close(id).catch(() => undefined)
        return { success: true }
      }
      default:
        throw new TesseraError('not_found', `the map has no action "${target.id}"`, { expected: MAP_ACTIONS.map((a) => a.id), found: target.id })
    }
  }

  async close(): Promise<void> {
    await this.#options.terminals.closeAll()
  }
}

