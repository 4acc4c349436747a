import { type Frame, type JsonObject, type JsonValue, TesseraError, resolveTarget } from '@tessera/protocol'
import type { ElementNode } from './elements.js'
import { buildFrame } from './frame.js'
import { createLayoutEngine, type LayoutEngine } from './layout-engine.js'

export interface ActionContext<S> {
  state: S
  input: JsonValue
  actor: string
  /** The node the action ran on, when the contract runs on several (a delete per row). */
  nodeId?: string | undefined
}

/** A handler returns the next state, and optionally an output for the caller. */
export type ActionOutcome<S> = S | { state: S; output?: JsonValue }
export type ActionHandler<S> = (ctx: ActionContext<S>) => ActionOutcome<S> | Promise<ActionOutcome<S>>

/**
 * An agent-native app: pure functions of its state. Rendering and business state are
 * plain data, so the same state always yields the same frame — the basis of replay.
 */
export interface AgentApp<S extends JsonObject = JsonObject> {
  id: string
  title: string
  viewport?: { width: number; height: number }
  initialState(): S
  route(state: S): string
  render(state: S): ElementNode
  /** The business state conditions read; defaults to the whole state. */
  view?(state: S): JsonObject
  handlers: Record<string, ActionHandler<S>>
}

export function defineApp<S extends JsonObject>(app: AgentApp<S>): AgentApp<S> {
  return app
}

function isOutcomeObject<S>(value: ActionOutcome<S>): value is { state: S; output?: JsonValue } {
  return typeof value === 'object' && value !== null && 'state' in value && Object.keys(value).every((k) => k === 'state' || k === 'output')
}

/**
 * Runs an app with no gateway attached: what a human clicking in the rendered UI uses,
 * and what the app surface wraps for agents.
 */
export class AppRuntime<S extends JsonObject = JsonObject> {
  readonly app: AgentApp<S>
  readonly surfaceId: string
  #state: S
  #frame: Frame | null = null
  readonly #listeners = new Set<(frame: Frame) => void>()
  // Yoga nodes kept between renders: re-laying out only what changed is what keeps large
  // trees within the layout budget.
  readonly #layout: LayoutEngine = createLayoutEngine()

  constructor(app: AgentApp<S>, options: { surfaceId?: string; state?: S } = {}) {
    this.app = app
    this.surfaceId = options.surfaceId ?? app.id
    this.#state = options.state ?? app.initialState()
  }

  get state(): S {
    return this.#state
  }

  frame(): Frame {
    if (this.#frame === null) {
      this.#frame = buildFrame({
        surface: this.surfaceId,
        route: this.app.route(this.#state),
        tree: this.app.render(this.#state),
        state: this.app.view ? this.app.view(this.#state) : this.#state,
        viewport: this.app.viewport ?? { width: 1024, height: 768 },
        layoutEngine: this.#layout,
      })
    }
    return this.#frame
  }

  /** Runs the handler of an action that the current frame shows enabled (on the element `ref`, when it runs on several). */
  async dispatch(actionId: string, input: JsonValue = {}, actor = 'human', ref?: string): Promise<JsonValue | undefined> {
    const { target } = resolveTarget(this.frame(), actionId, ref)
    if (!target.enabled) throw new TesseraError('forbidden', `action "${actionId}" is disabled`, { nodeId: target.nodeId ?? null })
    const handler = this.app.handlers[actionId]
    if (handler === undefined) {
      throw new TesseraError('not_found', `app "${this.app.id}" has no handler for action "${actionId}"`, { expected: Object.keys(this.app.handlers), found: actionId })
    }
    const outcome = await handler({ state: this.#state, input, actor, nodeId: target.nodeId })
    const next = isOutcomeObject(outcome) ? outcome : { state: outcome }
    this.#state = next.state
    this.#frame = null
    const frame = this.frame()
    for (const listener of this.#listeners) listener(frame)
    return next.output
  }

  subscribe(listener: (frame: Frame) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Frees the retained layout; the runtime must not be used afterwards. */
  dispose(): void {
    this.#listeners.clear()
    this.#layout.dispose()
  }
}
