import { type FacadeTool, actionFacade } from '@tessera/kit'
import { TesseraError } from '@tessera/protocol'
import { MAP_ACTIONS } from './map-surface.js'

const navigate = MAP_ACTIONS.contracts.find((contract) => contract.id === 'navigate')
if (navigate === undefined) throw new TesseraError('internal', 'the map has no navigate action', { expected: 'navigate' })

/**
 * The map's own tools, beside the kinds' façades. `navigate_map` moves the view every person
 * watching shares; like any tool it is a request through the gateway (the map's `navigate`
 * action), so it is traced and policy applies.
 */
export const MAP_TOOLS: FacadeTool[] = [
  actionFacade({
    name: 'navigate_map',
    kind: 'map',
    tile: 'map',
    contract: navigate,
    description: 'Move the map view people watch: map point {x, y} to the centre; zoom 1 = tiles at their size (default: unchanged). surfaces_list gives tile positions.',
  }),
]
