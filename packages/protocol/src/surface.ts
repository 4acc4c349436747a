import type { Risk } from './schemas/action-contract.js'
import type { ActionTarget } from './schemas/action-target.js'
import type { Frame, SurfaceKind } from './schemas/frame.js'
import type { JsonValue } from './schemas/json.js'

export interface SnapshotOptions {
  /** Wait for pending work (animations, network) to settle first. */
  settle?: boolean
}

export interface PerformContext {
  actor: string
  session: string
  requestId: string
  /** Aborted when the gateway's dispatch timeout fires. */
  signal: AbortSignal
}

/** A surface's judgement of one request's risk, when it depends on the input. */
export interface RiskAssessment {
  risk: Risk
  reason: string
}

/** The one seam every kind of UI plugs into. */
export interface Surface {
  readonly id: string
  readonly kind: SurfaceKind
  readonly title?: string
  snapshot(opts?: SnapshotOptions): Promise<Frame>
  perform(target: ActionTarget, input: JsonValue | undefined, ctx: PerformContext): Promise<JsonValue | undefined>
  /**
   * Risk that depends on the input (a shell command that deletes recursively, say). The
   * gateway takes the higher of this and the contract's risk; it can raise, never lower.
   */
  assess?(target: ActionTarget, input: JsonValue | undefined): RiskAssessment | null
  /**
   * How long this request may legitimately take when its input says so (a command's own
   * timeout). The gateway then waits that long plus a margin instead of its default.
   */
  timeoutFor?(target: ActionTarget, input: JsonValue | undefined): number | null
  capture?(): Promise<Uint8Array>
  subscribe?(onFrame: (frame: Frame) => void): () => void
  close(): Promise<void>
}
