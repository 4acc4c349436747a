import { TesseraError } from '@tessera/protocol'

/**
 * The node an element action runs on: the one its target names. An action that needs an
 * element and got none fails saying how to name one, never runs on the whole surface.
 */
export function targetNodeOf(call: { target: { nodeId?: string | undefined }; contract: { id: string } }, what = 'an element'): string {
  const nodeId = call.target.nodeId
  if (nodeId === undefined) throw new TesseraError('invalid_request', `"${call.contract.id}" acts on ${what}: name one by its @ref`, { expected: 'target: an @ref from the snapshot', found: null })
  return nodeId
}
