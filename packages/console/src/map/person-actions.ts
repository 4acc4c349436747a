import type { ActionResult } from '@tessera/protocol'
import { hubApi } from '../api/hub-api'
import { notify } from '../panels/Notices'

/**
 * Runs an action as the signed-in person, through the gateway like any agent's: traced under
 * the person's principal. Anything but `completed` is said to the person.
 */
export async function actAsPerson(request: { surface: string; action: string; target?: string; input?: unknown; frameId?: string }, quiet = false): Promise<ActionResult | null> {
  try {
    const { result } = await hubApi.act(request)
    if (result.status === 'awaiting_approval') notify(`${request.surface}/${request.action} waits for an approval`)
    else if (result.status !== 'completed') notify(`${request.surface}/${request.action}: ${result.error?.message ?? result.status}`, 'error')
    else if (!quiet) notify(`${request.surface}/${request.action} done`)
    return result
  } catch (error) {
    notify(`${request.surface}/${request.action}: ${error instanceof Error ? error.message : String(error)}`, 'error')
    return null
  }
}
