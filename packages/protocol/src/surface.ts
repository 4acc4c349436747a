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

/** The one seam every kind of UI plugs into. */
export interface Surface {
  readonly id: string
  readonly kind: SurfaceKind
  readonly title?: string
  snapshot(opts?: SnapshotOptions): Promise<Frame>
  perform(target: ActionTarget, input: JsonValue | undefined, ctx: PerformContext): Promise<JsonValue | undefined>
  capture?(): Promise<Uint8Array>
  subscribe?(onFrame: (frame: Frame) => void): () => void
  close(): Promise<void>
}
