import { randomUUID } from 'node:crypto'
import {
  type ActionCall,
  ActionRequest,
  assertJsonBounds,
  type ActionResult,
  type Approval,
  contentHash,
  type Frame,
  type JsonObject,
  type JsonValue,
  type Principal,
  type ResolvedTarget,
  type Risk,
  type Surface,
  TesseraError,
  contractOf,
  maxRisk,
  inputForTarget,
  isSensitive,
  resolveTarget,
  showsRef,
  storedFrame,
  printable,
  type TraceEventDraft,
  type TraceEventType,
  parseOrThrow,
} from '@tessera/protocol'
import { type ApprovalExplanation, explainApproval } from './approvals/explain-approval.js'
import { ApprovalBook } from './approvals/approval-book.js'
import { frameDelta } from './diff/frame-delta.js'
import { stateDiff } from './diff/state-diff.js'
import { InputValidator } from './dispatch/input-validator.js'
import { SerialQueue, type Slot, withDeadline } from './dispatch/serial-queue.js'
import type { PolicyConfigInput } from './policy/policy-config.js'
import { PolicyEngine } from './policy/policy-engine.js'
import { RateLimiter } from './policy/rate-limiter.js'
import { FrameCache } from './frames/frame-cache.js'
import { ConditionBook } from './steps/condition-step.js'
import { checkInput } from './steps/input-step.js'
import { judgeStaleness } from './steps/staleness-step.js'
import { type StepEnd, toErrorShape } from './steps/step-end.js'
import { redactContent } from './redaction/redact-content.js'
import { redactJson, secretInputKeys } from './redaction/redact-json.js'
import type { StoredBlob, TraceStore } from './trace/store.js'
import { DEFAULT_TRACED_OUTPUT, tracedOutput, type TracedOutputLimits } from './trace/traced-output.js'

export { toErrorShape } from './steps/step-end.js'

export interface GatewayOptions {
  store: TraceStore
  policy?: PolicyConfigInput | PolicyEngine
  /** The trace session this gateway writes; one per hub run unless the host says otherwise. */
  session?: string
  dispatchTimeoutMs?: number
  now?: () => number
  /** The frame cache the host reads through too; one is made when absent. */
  frames?: FrameCache
  /** How large outputs go to the trace (traced-output.ts). */
  tracedOutput?: Partial<TracedOutputLimits>
}

export interface RequestContext {
  /** Chosen by the host (never by the request body). */
  session?: string
}

/** A request that got past validation: the raw input stays in memory only. */
interface Accepted {
  requestId: string
  session: string
  surface: Surface
  action: string
  /** The element named by the request (`@ref`), when it named one. */
  target: string | undefined
  input: JsonValue
  frameId: string | undefined
  actor: Principal
  /** Set when a human approved: the state the approved frame showed must still hold. */
  approvedState?: string | undefined
  /** Set when a human approved an action with a summary template: what they read must still read the same. */
  approvedView?: { hash: string; summary: string; preconditions: ApprovalExplanation['preconditions'] } | undefined
  events: number[]
  /**
   * Events written at the next durable point: before the effect (so the intent is on disk
   * before anything happens) and when the request ends. Batching them keeps a request to
   * two store transactions.
   */
  staged: TraceEventDraft[]
  /** Frames the staged events reference, stored before them. */
  blobs: StoredBlob[]
}

const MAX_REMEMBERED_FRAMES = 10_000
/** Beyond a surface's own timeout, time to report the result. */
const DEADLINE_MARGIN_MS = 5_000


/**
 * The only path from an agent's request to an effect. Each step either passes or ends the
 * request with its own status, and every step is written to the trace before the next.
 */
export class Gateway {
  readonly session: string
  readonly policy: PolicyEngine
  readonly #outputLimits: TracedOutputLimits
  readonly approvals: ApprovalBook
  readonly #store: TraceStore
  readonly #surfaces = new Map<string, Surface>()
  readonly #queue = new SerialQueue()
  readonly #endListeners = new Set<(result: ActionResult, ms: number) => void>()
  readonly #inputs = new InputValidator()
  readonly #conditions = new ConditionBook()
  readonly #recordedFrames = new Set<string>()
  readonly #pendingInputs = new Map<string, { input: JsonValue; actor: Principal; target: string | undefined }>()
  readonly frames: FrameCache
  readonly #budgetUsed = new Map<string, number>()
  readonly #limiter: RateLimiter | null
  readonly #timeoutMs: number
  readonly #now: () => number

  constructor(options: GatewayOptions) {
    this.#store = options.store
    this.frames = options.frames ?? new FrameCache()
    this.policy = options.policy instanceof PolicyEngine ? options.policy : new PolicyEngine(options.policy ?? {})
    this.approvals = new ApprovalBook(options.store)
    this.#outputLimits = { ...DEFAULT_TRACED_OUTPUT, ...options.tracedOutput }
    this.session = options.session ?? `s_${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}_${randomUUID().slice(0, 8)}`
    this.#timeoutMs = options.dispatchTimeoutMs ?? 30_000
    this.#now = options.now ?? Date.now
    this.#limiter = this.policy.config.rateLimit ? new RateLimiter(this.policy.config.rateLimit) : null
  }

  get store(): TraceStore {
    return this.#store
  }

  addSurface(surface: Surface): void {
    if (this.#surfaces.has(surface.id)) {
      throw new TesseraError('conflict', `a surface with id "${surface.id}" is already attached`, { found: surface.id })
    }
    this.frames.attach(surface)
    this.#surfaces.set(surface.id, surface)
  }

  removeSurface(id: string): Surface | undefined {
    const surface = this.#surfaces.get(id)
    this.#surfaces.delete(id)
    this.frames.detach(id)
    return surface
  }

  surfaces(): Surface[] {
    return [...this.#surfaces.values()]
  }

  /** The surface's current frame (through the cache), recorded in the trace if this session has not seen it yet. */
  async observe(surfaceId: string, ctx: RequestContext = {}): Promise<Frame> {
    this.#requireSurface(surfaceId)
    const frame = await this.frames.current(surfaceId)
    const blobs: StoredBlob[] = []
    const drafts = this.#frameDrafts(ctx.session ?? this.session, frame, 'gateway', null, blobs)
    if (drafts.length > 0) {
      await this.#store.putBlobs(blobs)
      await this.#store.append(drafts)
    }
    return frame
  }

  /**
   * Called once per action that ended (requested, or run after an approval) with how long
   * the gateway spent on it: what the hub counts for its metrics. Returns the function that
   * stops listening.
   */
  onActionEnd(listener: (result: ActionResult, ms: number) => void): () => void {
    this.#endListeners.add(listener)
    return () => this.#endListeners.delete(listener)
  }

  /** Tasks waiting or running per surface in the dispatch queue. */
  queueDepths(): ReadonlyMap<string, number> {
    return this.#queue.depths()
  }

  async request(raw: unknown, actor: Principal, ctx: RequestContext = {}): Promise<ActionResult> {
    const started = performance.now()
    return this.#ended(await this.#request(raw, actor, ctx), started)
  }

  #ended(result: ActionResult, started: number): ActionResult {
    const ms = performance.now() - started
    for (const listener of this.#endListeners) {
      try {
        listener(result, ms)
      } catch (error) {
        console.error(`tessera gateway: an action-end listener failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    return result
  }

  async #request(raw: unknown, actor: Principal, ctx: RequestContext): Promise<ActionResult> {
    assertJsonBounds(raw, 'the action request')
    const request = parseOrThrow(ActionRequest, raw, 'action request', 'invalid_request')
    const session = ctx.session ?? this.session
    const requestId = request.requestId ?? `req_${randomUUID()}`
    const surface = this.#surfaces.get(request.surface)
    const accepted: Accepted = {
      requestId,
      session,
      surface: surface as Surface,
      action: request.action,
      target: request.target,
      input: request.input ?? {},
      frameId: request.frameId,
      actor,
      events: [],
      staged: [],
      blobs: [],
    }
    // Unknown request fields are recorded as they came (redacted), never acted upon.
    const { input: _input, ...envelope } = request
    this.#record(accepted, 'requested', null, { request: redactJson(envelope as JsonValue), input: redactJson(accepted.input) })
    if (surface === undefined) {
      return this.#end(accepted, null, {
        status: 'not_found',
        error: { code: 'not_found', message: `no surface "${request.surface}" is attached`, details: { expected: [...this.#surfaces.keys()], found: request.surface } },
      })
    }
    return this.#run(accepted, { approvalGranted: false })
  }

  /** A human approves: the action runs now against the frame it was bound to. */
  async approve(
    approvalId: string,
    approver: Principal,
    expected: { frameId?: string; action?: string; inputHash?: string; note?: string } = {},
  ): Promise<{ approval: Approval; result: ActionResult }> {
    const started = performance.now()
    let approval = await this.approvals.get(approvalId)
    await this.#checkResolvableTraced(approval, approver)
    this.approvals.checkBinding(approval, expected)
    const pending = this.#pendingInputs.get(approvalId)
    const surface = this.#surfaces.get(approval.surface)
    const accepted: Accepted = {
      requestId: approval.requestId,
      session: approval.session,
      surface: surface as Surface,
      action: approval.action,
      target: pending?.target ?? approval.target,
      input: pending?.input ?? approval.input,
      frameId: approval.frameId,
      actor: pending?.actor ?? { id: approval.requester, roles: ['agent'] },
      ...(approval.seenHash === undefined
        ? { approvedState: approval.stateHash }
        : { approvedView: { hash: approval.seenHash, summary: approval.summary ?? '', preconditions: approval.preconditions ?? [] } }),
      events: [],
      staged: [],
      blobs: [],
    }
    if (pending === undefined && JSON.stringify(approval.input).includes('[REDACTED]')) {
      // The raw input held a secret and lived only in the memory of a previous run.
      approval = await this.approvals.settle(approval, { status: 'expired', note: 'the input held a secret that did not survive a restart' })
      this.#record(accepted, 'expired', approval.frameId, { approvalId, reason: approval.note ?? '' })
      await this.#flush(accepted)
      throw new TesseraError('conflict', `approval ${approvalId} can no longer run: ${approval.note}`, { expected: 'pending', found: 'expired' })
    }
    // The compare-and-set from pending: of concurrent approvers (or an approve racing a deny)
    // exactly one gets past this line, so the action runs at most once.
    approval = await this.#settleTraced(approval, approver, { status: 'approved', resolvedBy: approver.id, resolvedAt: new Date(this.#now()).toISOString(), ...(expected.note ? { note: expected.note } : {}) })
    this.#record(accepted, 'approved', approval.frameId, { approvalId, by: approver.id, requester: accepted.actor.id }, approver.id)
    this.#pendingInputs.delete(approvalId)
    const result =
      surface === undefined
        ? await this.#end(accepted, approval.frameId, { status: 'not_found', error: { code: 'not_found', message: `surface "${approval.surface}" is no longer attached` } })
        : await this.#run(accepted, { approvalGranted: true })
    approval = await this.approvals.settle(approval, { status: 'consumed', result })
    return { approval, result: this.#ended(result, started) }
  }

  async deny(approvalId: string, approver: Principal, note?: string): Promise<Approval> {
    let approval = await this.approvals.get(approvalId)
    await this.#checkResolvableTraced(approval, approver)
    approval = await this.#settleTraced(approval, approver, { status: 'denied', resolvedBy: approver.id, resolvedAt: new Date(this.#now()).toISOString(), ...(note ? { note } : {}) })
    this.#pendingInputs.delete(approvalId)
    const accepted = this.#acceptedFromApproval(approval)
    this.#record(accepted, 'denied', approval.frameId, { status: 'denied', approvalId, by: approver.id, requester: accepted.actor.id, reason: note ?? 'denied by a human' }, approver.id)
    await this.#flush(accepted)
    return approval
  }

  /** Marks every pending approval past its time as expired; returns how many. */
  async expireApprovals(): Promise<number> {
    const now = this.#now()
    let count = 0
    for (const approval of await this.approvals.list({ status: 'pending' })) {
      if (Date.parse(approval.expiresAt) > now) continue
      try {
        await this.approvals.settle(approval, { status: 'expired' })
      } catch (error) {
        // Resolved by a person since it was listed: theirs is the decision that stands.
        if (error instanceof TesseraError && error.code === 'conflict') continue
        throw error
      }
      this.#pendingInputs.delete(approval.id)
      const accepted = this.#acceptedFromApproval(approval)
      this.#record(accepted, 'expired', approval.frameId, { approvalId: approval.id })
      await this.#flush(accepted)
      count += 1
    }
    return count
  }

  async close(): Promise<void> {
    await this.#queue.drain()
  }

  // ── the pipeline ────────────────────────────────────────────────────────────────

  /** Everything from reading the frame to the next frame happens in the surface's slot. */
  async #run(req: Accepted, opts: { approvalGranted: boolean }): Promise<ActionResult> {
    if (await this.#runsBeside(req)) return this.#runInSlot(req, opts, { hold: () => undefined })
    return this.#queue.exclusive(req.surface.id, (slot) => this.#runInSlot(req, opts, slot))
  }

  /**
   * Actions marked `exclusive: false` (read output, interrupt) must not wait behind a running
   * one. Decided from the newest frame seen (output may have invalidated it; the contracts
   * stay), so it costs no snapshot; an action not found there runs exclusively, the safe default.
   */
  async #runsBeside(req: Accepted): Promise<boolean> {
    const frame = this.frames.latest(req.surface.id)
    return frame !== undefined && contractOf(frame, req.action)?.exclusive === false
  }

  async #runInSlot(req: Accepted, opts: { approvalGranted: boolean }, slot: Slot): Promise<ActionResult> {
    const step = await this.#frameStep(req)
    if ('end' in step) return this.#end(req, step.frameId ?? null, step.end)
    const frame = step.frame
    let resolved: ResolvedTarget
    try {
      resolved = resolveTarget(frame, req.action, req.target)
    } catch (error) {
      return this.#end(req, frame.id, { status: 'not_found', error: toErrorShape(error, `the frame has no action "${req.action}"`) })
    }
    // Typed into a secret field: the input recorded with the request, before its target was known, is redacted too.
    if (resolved.node !== undefined && isSensitive(resolved.node)) this.#redactStagedInput(req, secretInputKeys(resolved.contract, resolved.node, req.input))
    if (!resolved.target.enabled) {
      // Which element, by its ref and role (never its name: those are the surface's words, and this message is the hub's).
      const on = `@${resolved.target.ref}${resolved.node?.role === undefined ? '' : ` (${resolved.node.role})`}`
      return this.#end(req, frame.id, { status: 'disabled', error: { code: 'forbidden', message: `action "${req.action}" on ${on} is disabled in frame ${frame.id.slice(0, 12)}: the element is disabled now; read the frame again once something enables it`, details: { ref: resolved.target.ref, nodeId: resolved.target.nodeId ?? null } } })
    }
    try {
      // A row that opens its own claim supplies the claim id; everything after sees it.
      req.input = inputForTarget(resolved.target, req.input)
    } catch (error) {
      return this.#end(req, frame.id, { status: 'invalid_input', error: toErrorShape(error, 'the input contradicts the element') })
    }
    const problem = checkInput(this.#inputs, resolved.contract, req.input)
    if (problem) return this.#end(req, frame.id, problem)
    const pre = this.#conditions.check(resolved.contract.preconditions, { ...frame.state, input: req.input, actor: principalJson(req.actor) }, 'precondition_failed')
    if (pre) return this.#end(req, frame.id, pre)
    const call: ActionCall = { frame, contract: resolved.contract, target: resolved.target, node: resolved.node, input: req.input }
    const refused = this.#refused(req, call)
    if (refused) return this.#end(req, frame.id, refused)
    const risk = await this.#assess(req, call, resolved.risk)
    if (opts.approvalGranted && req.approvedView !== undefined) {
      const changed = this.#viewChanged(req, req.approvedView, call, risk.risk)
      if (changed) return this.#end(req, frame.id, changed)
    }
    if (!opts.approvalGranted) {
      const gate = await this.#policyStep(req, call, risk, frame)
      if (gate) return gate
    }
    return this.#dispatchStep(req, call, risk.risk, slot)
  }

  /**
   * An approval given on a summary holds while the summary and the preconditions' values
   * read the same on the current frame: a person approved those words, not a state hash.
   */
  #viewChanged(req: Accepted, approved: NonNullable<Accepted['approvedView']>, call: ActionCall, risk: Risk): StepEnd | null {
    const now = this.#explain(req, call, risk)
    if (now.seenHash === approved.hash) return null
    const summary = now.shown.summary
    const moved = movedValues(approved.preconditions, now.shown.preconditions)
    const which = moved.length > 0 ? ` (${moved.join('; ')})` : ''
    const message = summary === approved.summary ? `the values behind "${approved.summary}" changed since it was approved${which}; ask again` : `approved "${approved.summary}", but the frame now says "${summary}"${which}; ask again`
    return { status: 'stale_frame', error: { code: 'conflict', message, details: { approved: approved.summary, now: summary } }, extra: { frameId: call.frame.id } }
  }

  #explain(req: Accepted, call: ActionCall, risk: Risk): { shown: ApprovalExplanation; seenHash: string } {
    return explainApproval({
      contract: call.contract,
      risk,
      scope: { ...call.frame.state, input: req.input, actor: principalJson(req.actor) },
      redactedInput: redactJson(req.input, { sensitiveKeys: secretInputKeys(call.contract, call.node, req.input) }),
      targetName: call.node?.name,
      surface: req.surface.id,
    })
  }

  /** The surface's refusal of an input it can never run (see Surface.refuses), as the request's end; null when it can. */
  #refused(req: Accepted, call: ActionCall): StepEnd | null {
    try {
      req.surface.refuses?.(call)
      return null
    } catch (error) {
      const shape = toErrorShape(error, `the surface cannot run "${req.action}" with this input`)
      const status = shape.code === 'invalid_input' ? 'invalid_input' : shape.code === 'not_found' ? 'not_found' : shape.code === 'forbidden' ? 'denied' : 'failed'
      return { status, error: shape }
    }
  }

  /** The risk policy sees: the contract's, raised (never lowered) by the target's and by the surface's view of this call. */
  async #assess(req: Accepted, call: ActionCall, floor: Risk): Promise<{ risk: Risk; reason: string | undefined }> {
    let assessment
    try {
      assessment = (await req.surface.assess?.(call)) ?? null
    } catch {
      // A surface that cannot judge the input gets the most careful answer.
      assessment = { risk: 'destructive' as const, reason: 'the surface could not assess this input' }
    }
    const risk = maxRisk(floor, assessment?.risk)
    if (assessment !== null && risk !== floor) return { risk, reason: assessment.reason }
    // The element's own risk, above its action's: the surface said why when it built the frame.
    return { risk, reason: risk !== call.contract.risk ? call.target.riskReason : undefined }
  }

  /**
   * The frame the request runs on: the current one. A request that names an older frame
   * still runs when its target means the same there and now (same contract, role, name and
   * enabled state), so a clock ticking elsewhere does not make it stale; a target that went
   * away or changed does. A frame this hub no longer remembers is stale, the safe answer.
   */
  async #frameStep(req: Accepted): Promise<{ frame: Frame } | { end: StepEnd; frameId?: string }> {
    let frame: Frame
    try {
      frame = await this.frames.current(req.surface.id)
      // A ref the frame does not show may name an element that lives in a part the surface
      // has not read now (a huge page scrolled on): the surface reads it again, if it can.
      if (req.target !== undefined && req.surface.readUnread !== undefined && !showsRef(frame, req.target)) frame = await this.frames.readUnread(req.surface.id, { refs: [req.target] })
    } catch (error) {
      return { end: { status: 'no_frame', error: toErrorShape(error, 'the surface could not produce a frame') } }
    }
    req.staged.push(...this.#frameDrafts(req.session, frame, req.actor.id, req.requestId, req.blobs))
    const answer = judgeStaleness(req, frame, (frameId) => this.frames.recall(req.surface.id, frameId))
    if (!answer.fresh) return { end: answer.end, frameId: frame.id }
    req.target = answer.target
    return { frame }
  }

  async #policyStep(req: Accepted, call: ActionCall, assessed: { risk: Risk; reason: string | undefined }, frame: Frame): Promise<ActionResult | null> {
    const contract = assessed.risk === call.contract.risk ? call.contract : { ...call.contract, risk: assessed.risk }
    const now = this.#now()
    if (this.#limiter !== null) {
      const waitMs = this.#limiter.take(req.actor.id, now)
      if (waitMs > 0) {
        return this.#end(req, frame.id, { status: 'rate_limited', error: { code: 'rate_limited', message: `too many requests from "${req.actor.id}"; retry in ${waitMs} ms`, details: { retryAfterMs: waitMs } } }, 'denied')
      }
    }
    let decision
    try {
      decision = this.policy.decide({ actor: req.actor, surface: req.surface.id, contract, input: req.input, state: frame.state })
    } catch (error) {
      return this.#end(req, frame.id, { status: 'condition_error', error: toErrorShape(error, 'a policy rule could not be evaluated') })
    }
    if (decision.verdict === 'deny') {
      return this.#end(req, frame.id, { status: 'denied', error: { code: 'forbidden', message: `denied by policy: ${decision.reason}`, details: { rule: decision.rule } } }, 'denied')
    }
    const budget = this.policy.config.budget?.perSessionByRisk?.[contract.risk]
    if (budget !== undefined && (this.#budgetUsed.get(`${req.session}:${contract.risk}`) ?? 0) >= budget) {
      return this.#end(req, frame.id, { status: 'denied', error: { code: 'forbidden', message: `the session's budget of ${budget} ${contract.risk} actions is spent`, details: { risk: contract.risk, budget } } }, 'denied')
    }
    if (!decision.needsApproval) return null
    const inputHash = contentHash(req.input)
    const same = await this.approvals.pendingFor({ requester: req.actor.id, surface: req.surface.id, action: req.action, target: req.target, inputHash, frameId: frame.id }, now)
    if (same !== null) {
      this.#record(req, 'awaiting_approval', frame.id, { status: 'awaiting_approval', approvalId: same.id, reason: 'the same request already waits for this approval', expiresAt: same.expiresAt })
      return this.#result(req, { status: 'awaiting_approval', extra: { approvalId: same.id, frameId: frame.id } })
    }
    const why = assessed.reason === undefined ? '' : ` (${assessed.reason})`
    const redactedInput = redactJson(req.input, { sensitiveKeys: secretInputKeys(contract, call.node, req.input) })
    const { shown: explained, seenHash } = this.#explain(req, { ...call, contract }, contract.risk)
    const approval = await this.approvals.open({
      session: req.session,
      requestId: req.requestId,
      surface: req.surface.id,
      action: req.action,
      frameId: frame.id,
      inputHash,
      redactedInput,
      requester: req.actor.id,
      reason: printable(`${decision.reason}${why}`),
      explained,
      ...(req.target === undefined ? {} : { target: req.target }),
      stateHash: contentHash(frame.state),
      ...(contract.summary === undefined ? {} : { seenHash }),
      ttlMs: this.policy.config.approvalTtlMs,
      now,
    })
    this.#pendingInputs.set(approval.id, { input: req.input, actor: req.actor, target: req.target ?? call.target.ref })
    this.#record(req, 'awaiting_approval', frame.id, { status: 'awaiting_approval', approvalId: approval.id, reason: decision.reason, expiresAt: approval.expiresAt })
    return this.#result(req, { status: 'awaiting_approval', extra: { approvalId: approval.id, frameId: frame.id } })
  }

  async #dispatchStep(req: Accepted, call: ActionCall, risk: Risk, slot: Slot): Promise<ActionResult> {
    const frame = call.frame
    const sensitive = secretInputKeys(call.contract, call.node, req.input)
    this.#record(req, 'dispatched', frame.id, { input: redactJson(req.input, { sensitiveKeys: sensitive }), ...(call.target.nodeId === undefined ? {} : { target: call.target.ref }) })
    await this.#flush(req)
    const asked = req.surface.timeoutFor?.(call) ?? null
    const timeoutMs = asked !== null && Number.isFinite(asked) && asked > 0 ? Math.max(this.#timeoutMs, asked + DEADLINE_MARGIN_MS) : this.#timeoutMs
    const generation = this.frames.generation(req.surface.id)
    const { outcome: pending, settled } = withDeadline(timeoutMs, (signal) =>
      req.surface.perform(call, { actor: req.actor.id, session: req.session, requestId: req.requestId, signal }),
    )
    slot.hold(settled)
    const outcome = await pending
    if (outcome.kind === 'timed_out') {
      this.frames.invalidate(req.surface.id)
      return this.#end(req, frame.id, { status: 'timed_out', error: { code: 'timed_out', message: `action "${req.action}" did not finish within ${timeoutMs} ms` } }, 'failed')
    }
    if (outcome.kind === 'failed') {
      this.frames.invalidate(req.surface.id)
      return this.#end(req, frame.id, { status: 'failed', error: toErrorShape(outcome.error, `action "${req.action}" failed`) }, 'failed')
    }
    const output = outcome.value
    let next: Frame
    try {
      next = await this.#frameAfter(req.surface.id, generation, call.contract.observes === true)
    } catch (error) {
      return this.#end(req, frame.id, { status: 'failed', error: toErrorShape(error, 'the surface could not produce the next frame') }, 'failed')
    }
    const nextDrafts = this.#frameDrafts(req.session, next, req.actor.id, req.requestId, req.blobs)
    req.staged.push(...nextDrafts)
    const diff = stateDiff(frame.state, next.state)
    const extra: Partial<ActionResult> = { diff, delta: frameDelta(frame, next), nextFrameId: next.id, frameId: frame.id }
    // The agent reads an output with its secrets replaced by typed markers, unless a person let this one through.
    // Scanned once: the agent reads it so unless a person let its secrets through; the trace always does.
    const scanned = output === undefined ? undefined : redactContent(output)
    if (output !== undefined) extra.output = req.surface.revealsSecrets?.(call) === true ? output : scanned
    const budgetKey = `${req.session}:${risk}`
    this.#budgetUsed.set(budgetKey, (this.#budgetUsed.get(budgetKey) ?? 0) + 1)
    const post = this.#conditions.check(
      call.contract.postconditions,
      { ...next.state, input: req.input, actor: principalJson(req.actor), prev: frame.state },
      'postcondition_failed',
    )
    const traced: JsonObject = { status: post?.status ?? 'completed', diff: diff as unknown as JsonValue, nextFrameId: next.id }
    // A large output goes to the blobs, scanned, once; the event keeps a reference (traced-output.ts).
    if (scanned !== undefined) traced.output = tracedOutput(redactJson(scanned), this.#outputLimits, req.blobs)
    if (post) {
      traced.error = post.error as unknown as JsonValue
      this.#record(req, 'failed', frame.id, traced)
      return this.#result(req, { ...post, extra })
    }
    this.#record(req, 'completed', frame.id, traced)
    return this.#result(req, { status: 'completed', extra })
  }

  /**
   * The frame after an action: the one the surface pushed while it ran (an app renders as it
   * dispatches), else exactly one new snapshot, shared with every reader waiting for it; after
   * an action that observes (reads a log), the current frame, new only if the surface changed.
   */
  async #frameAfter(surfaceId: string, generation: number, observes: boolean): Promise<Frame> {
    const pushed = this.frames.peek(surfaceId)
    if (pushed !== undefined && this.frames.generation(surfaceId) !== generation) return pushed
    // An action that only read what the surface keeps changed nothing: the cached frame stands, unless the surface said it changed.
    if (!observes) this.frames.invalidate(surfaceId)
    return this.frames.current(surfaceId)
  }

  // ── helpers ─────────────────────────────────────────────────────────────────────

  /**
   * A `frame` event the first time this session meets a stored form of the frame: the frame
   * itself goes to the store's blobs once, by hash, and the event names it with its version.
   */
  #frameDrafts(session: string, frame: Frame, actor: string, requestId: string | null, blobs: StoredBlob[]): TraceEventDraft[] {
    const blob = storedFrame(frame)
    const key = `${session}:${blob.hash}`
    if (this.#recordedFrames.has(key)) return []
    this.#recordedFrames.add(key)
    // Bounded: a long-lived hub sees many frames. Forgetting an old one only means its event
    // is written again if it ever comes back; the blob is stored once regardless.
    if (this.#recordedFrames.size > MAX_REMEMBERED_FRAMES) {
      const oldest = this.#recordedFrames.values().next()
      if (oldest.done !== true) this.#recordedFrames.delete(oldest.value)
    }
    blobs.push(blob)
    // Frames arrive here redacted (the cache redacts), so the stored frame hashes to the id the agent saw.
    return [this.#draft(session, 'frame', actor, frame.surface, null, frame.id, requestId, { blob: blob.hash, version: frame.version })]
  }

  #draft(session: string, type: TraceEventType, actor: string, surface: string | null, action: string | null, frameId: string | null, requestId: string | null, data: JsonValue): TraceEventDraft {
    return { session, time: new Date(this.#now()).toISOString(), type, actor, surface, action, frameId, requestId, data }
  }

  /** `actor` defaults to the requester; approvals and denials are recorded as the human's. */
  #record(req: Accepted, type: TraceEventType, frameId: string | null, data: JsonValue, actor: string = req.actor.id): void {
    const surfaceId = req.surface?.id ?? null
    // Every event body passes the content scan on its way to the trace: an input, an output
    // or an error message that quotes a key keeps only its marker.
    req.staged.push(this.#draft(req.session, type, actor, surfaceId, req.action, frameId, req.requestId, redactContent(data)))
  }

  #redactStagedInput(req: Accepted, keys: ReadonlySet<string>): void {
    for (const draft of req.staged) {
      if (draft.type !== 'requested' || draft.data === null || typeof draft.data !== 'object' || Array.isArray(draft.data)) continue
      draft.data = { ...draft.data, input: redactJson(req.input, { sensitiveKeys: keys }) }
    }
  }

  async #flush(req: Accepted): Promise<void> {
    if (req.staged.length === 0) return
    const drafts = req.staged.splice(0)
    if (req.blobs.length > 0) await this.#store.putBlobs(req.blobs.splice(0))
    req.events.push(...(await this.#store.append(drafts)).map((event) => event.seq))
  }

  async #end(req: Accepted, frameId: string | null, end: StepEnd, type: TraceEventType = 'rejected'): Promise<ActionResult> {
    this.#record(req, type, frameId, { status: end.status, ...(end.error ? { error: end.error as unknown as JsonValue } : {}) })
    return this.#result(req, { ...end, extra: { ...(frameId ? { frameId } : {}), ...end.extra } })
  }

  async #result(req: Accepted, end: StepEnd): Promise<ActionResult> {
    await this.#flush(req)
    return {
      requestId: req.requestId,
      session: req.session,
      surface: req.surface?.id ?? '',
      action: req.action,
      status: end.status,
      ...end.extra,
      // A failure's message may quote what the surface saw (a command's stderr, a file line).
      ...(end.error ? { error: redactContent(end.error as unknown as JsonValue) as unknown as typeof end.error } : {}),
      events: [...req.events],
    }
  }

  #requireSurface(id: string): Surface {
    const surface = this.#surfaces.get(id)
    if (surface === undefined) throw new TesseraError('not_found', `no surface "${id}" is attached`, { expected: [...this.#surfaces.keys()], found: id })
    return surface
  }

  #acceptedFromApproval(approval: Approval): Accepted {
    return {
      requestId: approval.requestId,
      session: approval.session,
      surface: this.#surfaces.get(approval.surface) ?? ({ id: approval.surface } as Surface),
      action: approval.action,
      target: approval.target,
      input: approval.input,
      frameId: approval.frameId,
      actor: { id: approval.requester, roles: ['agent'] },
      events: [],
      staged: [],
      blobs: [],
    }
  }

  /** settle() as a resolver: a lost race is refused, and the refusal is in the trace like any other. */
  async #settleTraced(approval: Approval, approver: Principal, change: Parameters<ApprovalBook['settle']>[1]): Promise<Approval> {
    try {
      return await this.approvals.settle(approval, change)
    } catch (error) {
      const accepted = { ...this.#acceptedFromApproval(approval), actor: approver }
      this.#record(accepted, 'rejected', approval.frameId, { approvalId: approval.id, status: 'approval_refused', error: toErrorShape(error, 'approval refused') as unknown as JsonValue })
      await this.#flush(accepted)
      throw error
    }
  }

  async #checkResolvableTraced(approval: Approval, approver: Principal): Promise<void> {
    try {
      await this.approvals.checkResolvable(approval, approver, this.#now())
    } catch (error) {
      // A refused approval attempt is itself worth auditing: who tried, and why it failed.
      const accepted = { ...this.#acceptedFromApproval(approval), actor: approver }
      const shape = toErrorShape(error, 'approval refused')
      const type: TraceEventType = shape.message.includes('expired at') ? 'expired' : 'rejected'
      this.#record(accepted, type, approval.frameId, { approvalId: approval.id, status: 'approval_refused', error: shape as unknown as JsonValue })
      await this.#flush(accepted)
      throw error
    }
  }
}

/** The shown precondition values that read differently now: `path was X, now Y`. */
function movedValues(before: ApprovalExplanation['preconditions'], now: ApprovalExplanation['preconditions']): string[] {
  const was = new Map(before.flatMap((check) => Object.entries(check.values)))
  const moved: string[] = []
  for (const [path, value] of now.flatMap((check) => Object.entries(check.values))) {
    if (was.has(path) && JSON.stringify(was.get(path)) !== JSON.stringify(value)) moved.push(`${path} was ${JSON.stringify(was.get(path))}, now ${JSON.stringify(value)}`)
  }
  return [...new Set(moved)]
}

function principalJson(principal: Principal): JsonObject {
  return { id: principal.id, roles: [...principal.roles] }
}
