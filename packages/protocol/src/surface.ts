import type { ScopeOptions } from './frame/scope-frame.js'
import type { ActionContract, Risk } from './schemas/action-contract.js'
import type { ActionTarget } from './schemas/action-target.js'
import type { Frame, SurfaceKind } from './schemas/frame.js'
import type { JsonValue } from './schemas/json.js'
import type { UiNode } from './schemas/node.js'

export interface SnapshotOptions extends ScopeOptions {
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

/**
 * One validated request as a surface receives it: the frame it was judged on, the
 * contract and target it runs, the node under the target (none for a surface-wide action)
 * and the input, already checked against the contract's schema.
 */
export interface ActionCall {
  frame: Frame
  contract: ActionContract
  target: ActionTarget
  node?: UiNode | undefined
  input: JsonValue
}

/** A surface's judgement of one request's risk, when it depends on the input. */
export interface RiskAssessment {
  risk: Risk
  reason: string
}

/** A terminal as a person's xterm shows it live: the screen now, then every byte written after. */
export interface TerminalStream {
  cols: number
  rows: number
  /** Escape sequences that redraw the screen as it is. */
  screen: string
  stop(): void
}

/** Which unread parts of a surface to read: by node id, those whose text holds some words, and those holding the elements of refs the frame does not show. */
export interface UnreadRequest {
  nodes?: readonly string[]
  text?: string
  /** An agent's regular expression (`error`, `/error/i`): the parts whose text it matches. */
  pattern?: string
  /** Refs an agent holds that the current frame lacks: parts holding their elements, if those still live, are read again. */
  refs?: readonly string[]
  /** With one ref of a long text the frame holds a window of: the line (from 1) its window is to start at. */
  line?: number
}

/** Refs and texts a delta asks about: in the question, all it wonders about; in the answer, those the surface still holds. */
export interface HeldAsk {
  refs?: readonly string[]
  texts?: readonly string[]
}

/** The one seam every kind of UI plugs into. */
/** What a shot takes, where a kind can shoot more than its visible view (a browser page). */
export interface CaptureOptions {
  /** The whole scrollable page, not just what is in view. */
  fullPage?: boolean
  /** One element, by its node id: scrolled into view and shot alone. */
  element?: string
  /** PNG unless JPEG is asked for. */
  format?: 'png' | 'jpeg'
}

/** A shot's image, and, where it was cut to a height a model reads, how tall its subject was. */
export interface Shot {
  image: Uint8Array
  cut?: number
}

export interface Surface {
  readonly id: string
  readonly kind: SurfaceKind
  readonly title?: string
  /**
   * What opening the tile noted that its first frame does not show (a server that answered
   * 404, a page still loading), said once: the answer that opened the tile carries it, and
   * no later action's answer claims it as its own.
   */
  takeOpeningNote?(): string | undefined
  snapshot(opts?: SnapshotOptions): Promise<Frame>
  perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined>
  /**
   * Risk that depends on the input or the element (a shell command that deletes
   * recursively, a button labelled "Delete"). The gateway takes the highest of this, the
   * target's and the contract's risk: it can raise, never lower.
   */
  assess?(call: ActionCall): RiskAssessment | null | Promise<RiskAssessment | null>
  /**
   * How long this request may legitimately take when its input says so (a command's own
   * timeout). The gateway then waits that long plus a margin instead of its default.
   */
  timeoutFor?(call: ActionCall): number | null
  /**
   * Refuses, by throwing a typed error, an input this surface can never run whatever a person
   * says (a file outside the tile's folder). The gateway asks before its policy, so a person
   * is never asked to approve what would then fail.
   */
  refuses?(call: ActionCall): void
  /**
   * Whether this call's output may carry secrets to the agent as they are, because a person
   * configured it so (a file root marked `secrets: "show"`). The gateway otherwise replaces
   * every secret it finds in an output with a typed marker; the trace is redacted either way.
   */
  revealsSecrets?(call: ActionCall): boolean
  /**
   * Reads parts its frames left unread (nodes with `unread`): these by node id, and those
   * holding the elements of `refs`, from the next snapshot on while they last; and every one
   * whose text holds `text`, for the next snapshot. Returns whether there was anything to read.
   */
  readUnread?(request: UnreadRequest): boolean
  /**
   * Which of these refs name elements the surface still holds, and which of these texts it
   * still says, whether its last frame shows them or leaves them in a part unread (a huge
   * page scrolled away from them): what a delta must not call gone.
   */
  holds?(ask: HeldAsk): HeldAsk
  /** Pixels of what the surface shows, PNG. */
  capture?(): Promise<Uint8Array>
  /** More than the view, where a kind can (a browser page: the whole page, one element, JPEG). */
  shoot?(options: CaptureOptions): Promise<Shot>
  /**
   * A view-only VNC server showing the surface, on loopback, for a person watching it live
   * (the hub bridges it to a WebSocket). View-only: input still goes through the gateway.
   */
  vnc?(): Promise<{ host: string; port: number }>
  /**
   * Live pixels for a person watching (the console's tile): JPEG frames as the surface
   * repaints, the first at once. The returned function stops this viewer; the surface stops
   * producing frames when the last one leaves.
   */
  screencast?(onFrame: (jpeg: Uint8Array) => void): () => void
  /**
   * The raw output of a terminal for a person's terminal emulator (the console's xterm): the
   * screen as it is, then each write. Watching only; typing goes through the gateway.
   */
  terminalStream?(onData: (data: string) => void): Promise<TerminalStream>
  /**
   * Tells the host the surface changed on its own (output arrived, a clock ticked). Pass
   * the new frame when it is at hand; without one the host snapshots when next asked.
   */
  subscribe?(onChange: (frame?: Frame) => void): () => void
  close(): Promise<void>
}
