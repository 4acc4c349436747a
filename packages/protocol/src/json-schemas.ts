import { z } from 'zod'
import { ErrorShape } from './errors.js'
import { ActionContract } from './schemas/action-contract.js'
import { ActionRequest } from './schemas/action-request.js'
import { ActionResult } from './schemas/action-result.js'
import { ActionTarget } from './schemas/action-target.js'
import { Approval } from './schemas/approval.js'
import { Capabilities } from './schemas/capabilities.js'
import { ExecutionResult } from './schemas/execution-result.js'
import { CommandResult, FileInfo, TerminalInfo } from './schemas/seed-results.js'
import { Frame } from './schemas/frame.js'
import { FrameDelta } from './schemas/frame-delta.js'
import { Layout } from './schemas/geometry.js'
import { Intent } from './schemas/intent.js'
import { JsonPatch } from './schemas/json-patch.js'
import { UiNode } from './schemas/node.js'
import { Principal } from './schemas/principal.js'
import { StateSnapshot } from './schemas/state-snapshot.js'
import { TraceEvent } from './schemas/trace-event.js'

/** Every schema published as docs/schemas/<name>.schema.json. */
export const publishedSchemas: Record<string, z.ZodType> = {
  frame: Frame,
  node: UiNode,
  layout: Layout,
  action_contract: ActionContract,
  action_target: ActionTarget,
  capabilities: Capabilities,
  trace_event: TraceEvent,
  action_request: ActionRequest,
  action_result: ActionResult,
  approval: Approval,
  principal: Principal,
  intent: Intent,
  state_snapshot: StateSnapshot,
  execution_result: ExecutionResult,
  frame_delta: FrameDelta,
  json_patch: JsonPatch,
  error: ErrorShape,
  command_result: CommandResult,
  file_info: FileInfo,
  terminal_info: TerminalInfo,
}

export function toJsonSchema(name: string, schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input', reused: 'ref', cycles: 'ref' })
  return { $id: `urn:tessera:schema:${name}`, title: name, ...json }
}
