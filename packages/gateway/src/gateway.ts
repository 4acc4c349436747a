import { randomUUID } from 'node:crypto'
import {
  type ActionContract,
  ActionRequest,
  assertJsonBounds,
  type ActionResult,
  type ActionStatus,
  type ActionTarget,
  type Approval,
  type CompiledCondition,
  compileCondition,
  contentHash,
  type ErrorShape,
  type Frame,
  type JsonObject,
  type JsonValue,
  type Principal,
  type Surface,
  TesseraError,
  type TraceEventDraft,
  type TraceEventType,
  parseOrThrow,
} from '@tessera/protocol'
import { ApprovalBook } from './approvals/approval-book.js'
import { frameDelta } from './diff/frame-delta.js'
import { stateDiff } from './diff/state-diff.js'
import { InputValidator } from './dispatch/input-validator.js'
import { SerialQueue, type Slot, withDeadline } from './dispatch/serial-queue.js'
import type { PolicyConfigInput } from './policy/policy-config.js'
import { PolicyEngine } from './policy/policy-engine.js'
import { RateLimiter } from './policy/rate-limiter.js'
import { redactFrame } from './redaction/redact-frame.js'
import { redactJson, sensitiveKeysOfSchema } from './redaction/redact-json.js'
import type { TraceStore } from './trace/store.js'

export interface GatewayOptions {
  store: TraceStore
  policy?: PolicyConfigInput | PolicyEngine
  /** The trace session this gateway writes; one per hub run unless the host says otherwise. */
  session?: string
  dispatchTimeoutMs?: number
  now?: () => number
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
  input: JsonValue
  frameId: string | undefined
  actor: Principal
  events: number[]
  /**
   * Events written at the next durable point: before the effect (so the intent is on disk
   * before anything happens) and when the request ends. Batching them keeps a request to
   * two store transactions.
   */
  staged: TraceEventDraft[]
}

const MAX_REMEMBERED_FRAMES = 10_000
/** Beyond a surface's own timeout, time to report the result. */
const DEADLINE_MARGIN_MS = 5_000
const RISK_ORDER = { read: 0, write: 1, external: 2, destructive: 3 } as const

type StepEnd = { status: ActionStatus; error?: ErrorShape; extra?: Partial<ActionResult> }

/**
 * The only path from an agent's request to an effect. Each step either passes or ends the
 * request with its own status, and every step is written to the trace before the next.
 */
export class Gateway {
  readonly session: string
  readonly policy: PolicyEngine
  readonly approvals: ApprovalBook
  readonly #store: TraceStore
  readonly #surfaces = new Map<string, Surface>()
  readonly #queue = new SerialQueue()
  readonly #inputs = new InputValidator()
  readonly #conditions = new Map<string, CompiledCondition>()
  readonly #recordedFrames = new Set<string>()
  readonly #lastFrames = new Map<string, Frame>()
  readonly #pendingInputs = new Map<string, { input: JsonValue; actor: Principal }>()
  readonly #budgetUsed = new Map<string, number>()
  readonly #limiter: RateLimiter | null
  readonly #timeoutMs: number
  readonly #now: () => number

  constructor(options: GatewayOptions) {
    this.#store = options.store
    this.policy = options.policy instanceof PolicyEngine ? options.policy : new PolicyEngine(options.policy ?? {})
    this.approvals = new ApprovalBook(options.store)
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
    this.#surfaces.set(surface.id, surface)
  }

  removeSurface(id: string): Surface | undefined {
    const surface = this.#surfaces.get(id)
    this.#surfaces.delete(id)
    this.#lastFrames.delete(id)
    return surface
  }

  surfaces(): Surface[] {
    return [...this.#surfaces.values()]
  }

  /** Takes a snapshot and records it in the trace if this session has not seen it yet. */
  async observe(surfaceId: string, ctx: RequestContext = {}): Promise<Frame> {
    const surface = this.#requireSurface(surfaceId)
    const frame = redactFrame(await surface.snapshot())
    const drafts = this.#frameDrafts(ctx.session ?? this.session, frame, 'gateway', null)
    if (drafts.length > 0) await this.#store.append(drafts)
    return frame
  }

  async request(raw: unknown, actor: Principal, ctx: RequestContext = {}): Promise<ActionResult> {
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
      input: request.input ?? {},
      frameId: request.frameId,
      actor,
      events: [],
      staged: [],
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
      input: pending?.input ?? approval.input,
      frameId: approval.frameId,
      actor: pending?.actor ?? { id: approval.requester, roles: ['agent'] },
      events: [],
      staged: [],
    }
    if (pending === undefined && JSON.stringify(approval.input).includes('[REDACTED]')) {
      // The raw input held a secret and lived only in the memory of a previous run.
      approval = await this.approvals.settle(approval, { status: 'expired', note: 'the input held a secret that did not survive a restart' })
      this.#record(accepted, 'expired', approval.frameId, { approvalId, reason: approval.note ?? '' })
      await this.#flush(accepted)
      throw new TesseraError('conflict', `approval ${approvalId} can no longer run: ${approval.note}`, { expected: 'pending', found: 'expired' })
    }
    approval = await this.approvals.settle(approval, { status: 'approved', resolvedBy: approver.id, resolvedAt: new Date(this.#now()).toISOString(), ...(expected.note ? { note: expected.note } : {}) })
    this.#record(accepted, 'approved', approval.frameId, { approvalId, by: approver.id, requester: accepted.actor.id }, approver.id)
    this.#pendingInputs.delete(approvalId)
    const result =
      surface === undefined
        ? await this.#end(accepted, approval.frameId, { status: 'not_found', error: { code: 'not_found', message: `surface "${approval.surface}" is no longer attached` } })
        : await this.#run(accepted, { approvalGranted: true })
    approval = await this.approvals.settle(approval, { status: 'consumed' })
    approval = { ...approval, result }
    await this.#store.putApproval(approval)
    return { approval, result }
  }

  async deny(approvalId: string, approver: Principal, note?: string): Promise<Approval> {
    let approval = await this.approvals.get(approvalId)
    await this.#checkResolvableTraced(approval, approver)
    approval = await this.approvals.settle(approval, { status: 'denied', resolvedBy: approver.id, resolvedAt: new Date(this.#now()).toISOString(), ...(note ? { note } : {}) })
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
      await this.approvals.settle(approval, { status: 'expired' })
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
   * one. Decided from the last frame this gateway saw of the surface, so the common case
   * costs no extra snapshot; an action unknown there runs exclusively, the safe default.
   */
  async #runsBeside(req: Accepted): Promise<boolean> {
    try {
      const frame = this.#lastFrames.get(req.surface.id) ?? (await req.surface.snapshot())
      return frame.actions.find((target) => target.id === req.action)?.contract.exclusive === false
    } catch {
      return false
    }
  }

  async #runInSlot(req: Accepted, opts: { approvalGranted: boolean }, slot: Slot): Promise<ActionResult> {
    const step = await this.#frameStep(req)
    if ('end' in step) return this.#end(req, null, step.end)
    const frame = step.frame
    const target = frame.actions.find((candidate) => candidate.id === req.action)
    if (target === undefined) {
      return this.#end(req, frame.id, {
        status: 'not_found',
        error: { code: 'not_found', message: `the frame has no action "${req.action}"`, details: { expected: frame.actions.map((a) => a.id), found: req.action } },
      })
    }
    if (!target.enabled) {
      return this.#end(req, frame.id, { status: 'disabled', error: { code: 'forbidden', message: `action "${req.action}" is disabled in frame ${frame.id.slice(0, 12)}`, details: { nodeId: target.nodeId } } })
    }
    const problem = this.#inputStep(target.contract, req.input)
    if (problem) return this.#end(req, frame.id, problem)
    const pre = this.#conditionStep(target.contract.preconditions, { ...frame.state, input: req.input, actor: principalJson(req.actor) }, 'precondition_failed')
    if (pre) return this.#end(req, frame.id, pre)
    const assessed = this.#assess(req, target)
    if (!opts.approvalGranted) {
      const gate = await this.#policyStep(req, assessed, frame)
      if (gate) return gate
    }
    return this.#dispatchStep(req, target, frame, slot)
  }

  /** The contract as policy sees it: its risk raised (never lowered) by the surface's view of the input. */
  #assess(req: Accepted, target: ActionTarget): ActionTarget {
    let assessment
    try {
      assessment = req.surface.assess?.(target, req.input) ?? null
    } catch {
      // A surface that cannot judge the input gets the most careful answer.
      assessment = { risk: 'destructive' as const, reason: 'the surface could not assess this input' }
    }
    if (assessment === null || RISK_ORDER[assessment.risk] <= RISK_ORDER[target.contract.risk]) return target
    return { ...target, contract: { ...target.contract, risk: assessment.risk }, assessedReason: assessment.reason }
  }

  async #frameStep(req: Accepted): Promise<{ frame: Frame } | { end: StepEnd }> {
    let frame: Frame
    try {
      frame = redactFrame(await req.surface.snapshot())
    } catch (error) {
      return { end: { status: 'no_frame', error: toErrorShape(error, 'the surface could not produce a frame') } }
    }
    const drafts = this.#frameDrafts(req.session, frame, req.actor.id, req.requestId)
    req.staged.push(...drafts)
    // A 12+ digit prefix names a frame as well as the full id (outlines print 12 digits).
    const namesCurrent = req.frameId === undefined || (req.frameId.length >= 12 && frame.id.startsWith(req.frameId.toLowerCase()))
    if (!namesCurrent && req.frameId !== undefined) {
      return {
        end: {
          status: 'stale_frame',
          error: { code: 'conflict', message: `the request names frame ${req.frameId.slice(0, 12)}…, but the surface now shows ${frame.id.slice(0, 12)}…`, details: { expected: frame.id, found: req.frameId } },
          extra: { frameId: frame.id },
        },
      }
    }
    return { frame }
  }

  #inputStep(contract: ActionContract, input: JsonValue): StepEnd | null {
    if (contract.inputSchema === undefined) return null
    let problems
    try {
      problems = this.#inputs.validate(contract.inputSchema, input)
    } catch (error) {
      return { status: 'invalid_input', error: { code: 'invalid_contract', message: `action "${contract.id}" has an input schema that does not compile: ${(error as Error).message}` } }
    }
    if (problems.length === 0) return null
    const first = problems[0]
    return {
      status: 'invalid_input',
      error: { code: 'invalid_input', message: `invalid input for "${contract.id}": ${first?.path} ${first?.message}`, details: { expected: contract.inputSchema, issues: problems } },
    }
  }

  #conditionStep(sources: readonly string[], scope: JsonObject, failStatus: 'precondition_failed' | 'postcondition_failed'): StepEnd | null {
    for (const source of sources) {
      try {
        if (!this.#compiled(source).check(scope)) {
          return { status: failStatus, error: { code: 'conflict', message: `${failStatus === 'precondition_failed' ? 'precondition' : 'postcondition'} does not hold: ${source}`, details: { condition: source } } }
        }
      } catch (error) {
        return { status: 'condition_error', error: toErrorShape(error, `condition could not be evaluated: ${source}`) }
      }
    }
    return null
  }

  async #policyStep(req: Accepted, target: ActionTarget, frame: Frame): Promise<ActionResult | null> {
    const now = this.#now()
    if (this.#limiter !== null) {
      const waitMs = this.#limiter.take(req.actor.id, now)
      if (waitMs > 0) {
        return this.#end(req, frame.id, { status: 'rate_limited', error: { code: 'rate_limited', message: `too many requests from "${req.actor.id}"; retry in ${waitMs} ms`, details: { retryAfterMs: waitMs } } }, 'denied')
      }
    }
    let decision
    try {
      decision = this.policy.decide({ actor: req.actor, surface: req.surface.id, contract: target.contract, input: req.input, state: frame.state })
    } catch (error) {
      return this.#end(req, frame.id, { status: 'condition_error', error: toErrorShape(error, 'a policy rule could not be evaluated') })
    }
    if (decision.verdict === 'deny') {
      return this.#end(req, frame.id, { status: 'denied', error: { code: 'forbidden', message: `denied by policy: ${decision.reason}`, details: { rule: decision.rule } } }, 'denied')
    }
    const budget = this.policy.config.budget?.perSessionByRisk?.[target.contract.risk]
    if (budget !== undefined && (this.#budgetUsed.get(`${req.session}:${target.contract.risk}`) ?? 0) >= budget) {
      return this.#end(req, frame.id, { status: 'denied', error: { code: 'forbidden', message: `the session's budget of ${budget} ${target.contract.risk} actions is spent`, details: { risk: target.contract.risk, budget } } }, 'denied')
    }
    if (!decision.needsApproval) return null
    const assessed = typeof target.assessedReason === 'string' ? ` (${target.assessedReason})` : ''
    const sensitive = sensitiveKeysOfSchema(target.contract.inputSchema)
    const approval = await this.approvals.open({
      session: req.session,
      requestId: req.requestId,
      surface: req.surface.id,
      action: req.action,
      frameId: frame.id,
      inputHash: contentHash(req.input),
      redactedInput: redactJson(req.input, { sensitiveKeys: sensitive }),
      requester: req.actor.id,
      reason: `${decision.reason}${assessed}`,
      ttlMs: this.policy.config.approvalTtlMs,
      now,
    })
    this.#pendingInputs.set(approval.id, { input: req.input, actor: req.actor })
    this.#record(req, 'awaiting_approval', frame.id, { status: 'awaiting_approval', approvalId: approval.id, reason: decision.reason, expiresAt: approval.expiresAt })
    return this.#result(req, { status: 'awaiting_approval', extra: { approvalId: approval.id, frameId: frame.id } })
  }

  async #dispatchStep(req: Accepted, target: ActionTarget, frame: Frame, slot: Slot): Promise<ActionResult> {
    const sensitive = sensitiveKeysOfSchema(target.contract.inputSchema)
    this.#record(req, 'dispatched', frame.id, { input: redactJson(req.input, { sensitiveKeys: sensitive }) })
    await this.#flush(req)
    const asked = req.surface.timeoutFor?.(target, req.input) ?? null
    const timeoutMs = asked !== null && Number.isFinite(asked) && asked > 0 ? Math.max(this.#timeoutMs, asked + DEADLINE_MARGIN_MS) : this.#timeoutMs
    const { outcome: pending, settled } = withDeadline(timeoutMs, (signal) =>
      req.surface.perform(target, req.input, { actor: req.actor.id, session: req.session, requestId: req.requestId, signal }),
    )
    slot.hold(settled)
    const outcome = await pending
    if (outcome.kind === 'timed_out') {
      return this.#end(req, frame.id, { status: 'timed_out', error: { code: 'timed_out', message: `action "${req.action}" did not finish within ${timeoutMs} ms` } }, 'failed')
    }
    if (outcome.kind === 'failed') {
      return this.#end(req, frame.id, { status: 'failed', error: toErrorShape(outcome.error, `action "${req.action}" failed`) }, 'failed')
    }
    const output = outcome.value
    let next: Frame
    try {
      next = redactFrame(await req.surface.snapshot())
    } catch (error) {
      return this.#end(req, frame.id, { status: 'failed', error: toErrorShape(error, 'the surface could not produce the next frame') }, 'failed')
    }
    const nextDrafts = this.#frameDrafts(req.session, next, req.actor.id, req.requestId)
    req.staged.push(...nextDrafts)
    const diff = stateDiff(frame.state, next.state)
    const extra: Partial<ActionResult> = { diff, delta: frameDelta(frame, next), nextFrameId: next.id, frameId: frame.id }
    if (output !== undefined) extra.output = output
    const budgetKey = `${req.session}:${target.contract.risk}`
    this.#budgetUsed.set(budgetKey, (this.#budgetUsed.get(budgetKey) ?? 0) + 1)
    const post = this.#conditionStep(
      target.contract.postconditions,
      { ...next.state, input: req.input, actor: principalJson(req.actor), prev: frame.state },
      'postcondition_failed',
    )
    const traced: JsonObject = { status: post?.status ?? 'completed', diff: diff as unknown as JsonValue, nextFrameId: next.id }
    if (output !== undefined) traced.output = redactJson(output)
    if (post) {
      traced.error = post.error as unknown as JsonValue
      this.#record(req, 'failed', frame.id, traced)
      return this.#result(req, { ...post, extra })
    }
    this.#record(req, 'completed', frame.id, traced)
    return this.#result(req, { status: 'completed', extra })
  }

  // ── helpers ─────────────────────────────────────────────────────────────────────

  #compiled(source: string): CompiledCondition {
    let compiled = this.#conditions.get(source)
    if (compiled === undefined) {
      compiled = compileCondition(source)
      this.#conditions.set(source, compiled)
    }
    return compiled
  }

  #frameDrafts(session: string, frame: Frame, actor: string, requestId: string | null): TraceEventDraft[] {
    this.#lastFrames.set(frame.surface, frame)
    const key = `${session}:${frame.id}`
    if (this.#recordedFrames.has(key)) return []
    this.#recordedFrames.add(key)
    // Bounded: a long-lived hub sees many frames. Forgetting an old one only means it is
    // recorded again if it ever comes back, which replay handles.
    if (this.#recordedFrames.size > MAX_REMEMBERED_FRAMES) {
      const oldest = this.#recordedFrames.values().next()
      if (oldest.done !== true) this.#recordedFrames.delete(oldest.value)
    }
    // Frames arrive here already redacted (see #snapshot callers), so the stored frame
    // hashes to the same id the agent saw.
    return [this.#draft(session, 'frame', actor, frame.surface, null, frame.id, requestId, { frame: frame as unknown as JsonValue })]
  }

  #draft(session: string, type: TraceEventType, actor: string, surface: string | null, action: string | null, frameId: string | null, requestId: string | null, data: JsonValue): TraceEventDraft {
    return { session, time: new Date(this.#now()).toISOString(), type, actor, surface, action, frameId, requestId, data }
  }

  /** `actor` defaults to the requester; approvals and denials are recorded as the human's. */
  #record(req: Accepted, type: TraceEventType, frameId: string | null, data: JsonValue, actor: string = req.actor.id): void {
    const surfaceId = req.surface?.id ?? null
    req.staged.push(this.#draft(req.session, type, actor, surfaceId, req.action, frameId, req.requestId, data))
  }

  async #flush(req: Accepted): Promise<void> {
    if (req.staged.length === 0) return
    const drafts = req.staged.splice(0)
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
      ...(end.error ? { error: end.error } : {}),
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
      input: approval.input,
      frameId: approval.frameId,
      actor: { id: approval.requester, roles: ['agent'] },
      events: [],
      staged: [],
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

function principalJson(principal: Principal): JsonObject {
  return { id: principal.id, roles: [...principal.roles] }
}

export function toErrorShape(error: unknown, fallback: string): ErrorShape {
  if (error instanceof TesseraError) return error.toJSON()
  if (error instanceof Error) return { code: 'internal', message: `${fallback}: ${error.message}` }
  return { code: 'internal', message: fallback, details: { found: String(error) } }
}
