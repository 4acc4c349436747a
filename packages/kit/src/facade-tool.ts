import type { ActionContract, ActionResult, CaptureOptions, Frame, Shot, HeldAsk, JsonObject, JsonValue, Risk, UnreadRequest } from '@tessera/protocol'
import type { LeanForm } from './lean-form.js'

/** One tile as a tool sees it. */
export interface TileSummary {
  id: string
  kind: string
  title: string
  focused: boolean
}

/** What a façade tool may do: only requests through the gateway, as the calling principal. */
export interface ToolContext {
  request(request: { surface: string; action: string; target?: string; input?: JsonValue; frameId?: string }): Promise<ActionResult>
  /**
   * The tile of `kind` a call means: `named` if given, else the focused one, else the first;
   * throws `not_found`. A call that names an element (`element`: a ref or a selector, read on
   * some tile's page) and no tile is refused with `conflict` when the focus moved off the tile
   * this session last used: the element was read there, and the same ref on another tile is
   * another element.
   */
  tile(kind: string, named?: string, element?: string): string
  tiles(kind?: string): TileSummary[]
  /** A tile's current frame, through the hub's frame cache (a read; no action runs); with `unread`, those unread parts read first. */
  frame(tile: string, unread?: UnreadRequest): Promise<Frame>
  /** Which of these refs name elements the tile still holds, and which of these texts it still says, shown in its frame or in a part left unread. */
  holds(tile: string, ask: HeldAsk): HeldAsk
  /** A tile's pixels as PNG (a read); `not_found` for a kind that has none. */
  capture(tile: string): Promise<Uint8Array>
  /** A shot of more than the view, where the tile's kind takes one (Surface.shoot). */
  shoot(tile: string, options: CaptureOptions): Promise<Shot>
}

/**
 * A tool's answer: an action's result (shown as the gateway's answer), or a composite's own
 * JSON — lean already, with `full` the whole of it for a client that asks (see LeanForm).
 */
export type ToolAnswer =
  | { result: ActionResult }
  | { json: JsonObject; text?: string; full?: JsonObject }
  /** Pixels, as MCP image content (base64), with a line of text beside them. */
  | { image: { data: string; mimeType: string }; text: string }
  /** Text alone, with no structured copy: what a client shows the model is then this text (a page outline). */
  | { text: string }

/**
 * A named MCP tool a kind declares (`file_write`, `terminal_execute`, `run_in_new_terminal`).
 * Its input schema is fixed, so the tool list does not grow with tiles or UI.
 */
export interface FacadeTool {
  name: string
  description: string
  inputSchema: JsonObject
  /** The highest risk the tool can reach: MCP annotations come from it. */
  risk: Risk
  /**
   * The JSON Schema (type object) of what a completed call answers as `structuredContent`
   * (the output's lean form when there is one), validated by clients against this.
   */
  outputSchema?: JsonObject
  /** The lean form of a completed call's output (LeanForm.of); without it, the output itself. */
  lean?: (output: JsonValue) => JsonObject
  /**
   * A completed call's output as the model reads it where raw text reads better than JSON (a
   * command's stdout and exit code, a file's content). Without it the text is the JSON of the
   * structured answer, as MCP recommends. Any other status is answered with the gateway's
   * envelope instead.
   */
  text?: (output: JsonValue) => string
  /**
   * Set where the schema's properties are every argument the tool reads: these are the older
   * names it reads too (Playwright MCP's `ref` for `target`). Any other argument is then said
   * back to the agent as left out (a mistyped `find` is not a snapshot of the whole page
   * without a word); without it, arguments the schema does not list pass unremarked.
   */
  olderNames?: readonly string[]
  run(args: JsonObject, ctx: ToolContext): Promise<ToolAnswer>
}

export interface ActionFacadeOptions {
  name: string
  kind: string
  contract: ActionContract
  description: string
  /** The argument that names the tile; default `surface`. Left out, the focused tile of the kind (the server's instructions say so once, not every schema). */
  tileArg?: string
  /** A fixed tile (the map) instead of one of `kind`. */
  tile?: string
  /** How a completed call's output reads (see FacadeTool.text). */
  text?: (output: JsonValue) => string
  /** What a completed call answers as structuredContent; default the contract's whole output. */
  lean?: LeanForm
  /** The highest risk a call can reach when the surface raises it (ActionSet.maxRisk); default the contract's. */
  maxRisk?: Risk
}

/**
 * The common façade: one action of a tile of `kind`, taking that action's own input schema
 * plus which tile. Goes through the gateway like any other call.
 */
export function actionFacade(options: ActionFacadeOptions): FacadeTool {
  const arg = options.tileArg ?? 'surface'
  const schema = (options.contract.inputSchema ?? { type: 'object', properties: {} }) as JsonObject & { properties?: JsonObject }
  const inputSchema: JsonObject = {
    ...schema,
    type: 'object',
    properties: {
      ...(schema.properties ?? {}),
      ...(options.tile === undefined ? { [arg]: { type: 'string' } } : {}),
    },
  }
  const output = options.lean?.schema ?? options.contract.outputSchema
  return {
    name: options.name,
    description: options.description,
    inputSchema,
    risk: options.maxRisk ?? options.contract.risk,
    ...(output !== undefined && output.type === 'object' ? { outputSchema: output } : {}),
    ...(options.lean === undefined ? {} : { lean: options.lean.of }),
    ...(options.text === undefined ? {} : { text: options.text }),
    async run(args, ctx) {
      const { [arg]: named, ...input } = args
      const surface = options.tile ?? ctx.tile(options.kind, typeof named === 'string' ? named : undefined)
      return { result: await ctx.request({ surface, action: options.contract.id, input }) }
    },
  }
}
