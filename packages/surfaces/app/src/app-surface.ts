import type { ActionCall, Frame, JsonObject, JsonValue, PerformContext, Surface } from '@tessera/protocol'
import { redactFrame } from '@tessera/gateway'
import { type AgentApp, AppRuntime } from '@tessera/ui'

export interface AppSurfaceOptions<S extends JsonObject> {
  /** Surface id; defaults to the app's id. */
  id?: string
  /** Start from this state instead of the app's initial state. */
  state?: S
}

/**
 * An agent-native app hosted in process. Secrets are redacted here, at the surface, so
 * neither the gateway nor the trace ever holds them.
 */
export class AppSurface<S extends JsonObject = JsonObject> implements Surface {
  readonly kind = 'app' as const
  readonly id: string
  readonly title: string
  readonly runtime: AppRuntime<S>

  constructor(app: AgentApp<S>, options: AppSurfaceOptions<S> = {}) {
    this.id = options.id ?? app.id
    this.title = app.title
    this.runtime = new AppRuntime(app, { surfaceId: this.id, ...(options.state ? { state: options.state } : {}) })
  }

  async snapshot(): Promise<Frame> {
    return redactFrame(this.runtime.frame())
  }

  async perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    ctx.signal.throwIfAborted()
    return this.runtime.dispatch(call.contract.id, call.input, ctx.actor, call.target.ref)
  }

  subscribe(onFrame: (frame: Frame) => void): () => void {
    return this.runtime.subscribe((frame) => onFrame(redactFrame(frame)))
  }

  async close(): Promise<void> {
    this.runtime.dispose()
  }
}

export function createAppSurface<S extends JsonObject>(app: AgentApp<S>, options: AppSurfaceOptions<S> = {}): AppSurface<S> {
  return new AppSurface(app, options)
}
