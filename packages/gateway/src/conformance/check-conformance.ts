import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ActionId,
  type Frame,
  hitTest,
  type JsonValue,
  type Principal,
  type Surface,
  type UiNode,
  resolveTarget,
  resolvedTargets,
  riskAtLeast,
} from '@tessera/protocol'
import { Gateway } from '../gateway.js'
import type { PolicyConfigInput } from '../policy/policy-config.js'
import { PolicyEngine } from '../policy/policy-engine.js'
import { collectReplay } from '../replay/reconstruct.js'
import { reexecuteSession } from '../replay/reexecute.js'
import { redactFrame } from '../redaction/redact-frame.js'
import { REDACTED } from '../redaction/secret-names.js'
import { openSqliteStore } from '../trace/sqlite-store.js'
import { CHECKLIST, type ChecklistLine, type ConformanceReport } from './checklist.js'
import { sampleInput } from './sample-input.js'

export interface ScriptStep {
  action: string
  /** The element (`@ref`) when the action runs on several. */
  target?: string
  input?: JsonValue
}

export interface ConformanceSubject {
  name: string
  /** A fresh instance of the surface under test, every call. */
  createSurface(): Promise<Surface>
  /**
   * Runs the script with no gateway and returns the unredacted frames it passed through,
   * from which the checker learns which values are secrets. By default a fresh surface is
   * driven directly, step by step.
   */
  runWithoutGateway?(script: readonly ScriptStep[]): Promise<Frame[]>
  script?: readonly ScriptStep[]
  policy?: PolicyConfigInput
}

const AGENT: Principal = { id: 'conformance-agent', roles: ['agent'] }
const APPROVER: Principal = { id: 'conformance-approver', roles: ['approver'] }
const CANARY = `tessera-canary-${'7f3a9c'}-secret`

function line(id: (typeof CHECKLIST)[number]['id'], ok: boolean, detail: string): ChecklistLine {
  const title = CHECKLIST.find((entry) => entry.id === id)?.title ?? id
  return { id, title, ok, detail }
}

function isWithin(tree: UiNode, ancestorId: string, nodeId: string): boolean {
  const find = (node: UiNode): UiNode | null => (node.id === ancestorId ? node : (node.children ?? []).reduce<UiNode | null>((hit, child) => hit ?? find(child), null))
  const ancestor = find(tree)
  if (ancestor === null) return false
  const contains = (node: UiNode): boolean => node.id === nodeId || (node.children ?? []).some(contains)
  return contains(ancestor)
}

/** Secrets a frame shows before redaction: sensitive node texts and values. */
function secretsOf(frame: Frame): string[] {
  const found: string[] = []
  const visit = (node: UiNode): void => {
    if (node.semantic?.sensitive === true || node.role === 'password') {
      // A value already redacted at its surface is no secret to look for.
      for (const value of [node.text, node.value]) if (typeof value === 'string' && value.length >= 4 && value !== REDACTED) found.push(value)
    }
    node.children?.forEach(visit)
  }
  visit(frame.tree)
  return found
}

function defaultScript(frame: Frame): ScriptStep[] {
  return resolvedTargets(frame)
    .filter((resolved) => resolved.target.enabled && !riskAtLeast(resolved.risk, 'external'))
    .slice(0, 5)
    .map((resolved) => ({ action: resolved.contract.id, target: resolved.target.ref, input: sampleInput(resolved.contract.inputSchema) }))
}

/** The surface alone: the script performed directly on a fresh instance, no gateway in between. */
async function runAlone(createSurface: () => Promise<Surface>, script: readonly ScriptStep[]): Promise<Frame[]> {
  const surface = await createSurface()
  try {
    const frames: Frame[] = [await surface.snapshot()]
    for (const [index, step] of script.entries()) {
      const frame = frames.at(-1) as Frame
      const resolved = resolveTarget(frame, step.action, step.target)
      await surface.perform({ frame, ...resolved, input: step.input ?? {} }, { actor: 'conformance', session: 'alone', requestId: `alone-${index}`, signal: new AbortController().signal })
      frames.push(await surface.snapshot())
    }
    return frames
  } finally {
    await surface.close()
  }
}

/** With a secret-named field added, to prove the trace never records it. */
function withCanary(input: JsonValue | undefined): JsonValue {
  const base = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {}
  return { ...base, password: CANARY }
}

/**
 * Runs the conformance checklist (docs/protocol.md) against any surface: a scripted session
 * through a real gateway with a SQLite trace, then checks on what that session left behind.
 */
export async function checkConformance(subject: ConformanceSubject): Promise<ConformanceReport> {
  const lines: ChecklistLine[] = []
  const dir = mkdtempSync(join(tmpdir(), 'tessera-conform-'))
  const store = await openSqliteStore(join(dir, 'trace.db'))
  const policy = new PolicyEngine(subject.policy ?? {})
  const gateway = new Gateway({ store, policy, session: 'conformance', dispatchTimeoutMs: 10_000 })
  try {
    const first = await subject.createSurface()
    const twin = await subject.createSurface()
    gateway.addSurface(first)
    const initial = await gateway.frames.current(first.id)
    const script = subject.script ?? defaultScript(initial)

    // Drive the scripted session through the gateway; every awaited approval is granted
    // by a second principal, so destructive steps run as they would with a human.
    const frames: Frame[] = [initial]
    let planted = false
    const problems: string[] = []
    const idProblems: string[] = []
    const twinFrames: Frame[] = [await twin.snapshot()]
    for (const [index, step] of script.entries()) {
      const before = await gateway.frames.current(first.id)
      const plantInput = before.contracts.find((c) => c.id === step.action)?.inputSchema === undefined
      const input = plantInput ? withCanary(step.input) : (step.input ?? {})
      planted ||= plantInput
      let result = await gateway.request({ surface: first.id, action: step.action, ...(step.target ? { target: step.target } : {}), input, frameId: before.id }, AGENT)
      if (result.status === 'awaiting_approval' && result.approvalId) result = (await gateway.approve(result.approvalId, APPROVER)).result
      if (result.status !== 'completed') problems.push(`step ${index + 1} ${step.action}: ${result.status}${result.error ? ` (${result.error.message})` : ''}`)
      frames.push(await gateway.frames.current(first.id))
      const twinBefore = await twin.snapshot()
      try {
        const resolved = resolveTarget(twinBefore, step.action, step.target)
        await twin.perform({ frame: twinBefore, ...resolved, input }, { actor: AGENT.id, session: 'twin', requestId: `twin-${index}`, signal: new AbortController().signal }).catch(() => undefined)
      } catch {
        // The twin lacks the target: the frame comparison below reports the divergence.
      }
      twinFrames.push(await twin.snapshot())
    }
    await twin.close()
    if (!planted && script[0] !== undefined) {
      // Every action has a schema, so none took the canary as a step: one more request carries
      // it in a secret-named field. The schema refuses it, but the request is recorded first.
      const step = script[0]
      await gateway.request({ surface: first.id, action: step.action, ...(step.target ? { target: step.target } : {}), input: withCanary(step.input) }, AGENT)
    }

    // 1. Stable ids: well-formed contracts, one target per contract and element, and the
    //    same frames (by meaning) on a second instance.
    for (const frame of frames) {
      const bad = frame.contracts.map((c) => c.id).filter((id) => !ActionId.safeParse(id).success)
      if (bad.length > 0) idProblems.push(`malformed action ids: ${bad.join(', ')}`)
      const keys = frame.targets.map((t) => `${t.contract}@${t.ref}`)
      if (new Set(keys).size !== keys.length) idProblems.push(`duplicate targets in frame ${frame.id.slice(0, 12)}`)
    }
    frames.forEach((frame, i) => {
      const other = twinFrames[i]
      if (other && redactFrame(other).id !== frame.id) idProblems.push(`step ${i}: a second instance rendered frame ${other.id.slice(0, 12)}, expected ${frame.id.slice(0, 12)} (ids or content are not deterministic)`)
    })
    const actionIds = new Set(frames.flatMap((f) => f.contracts.map((c) => c.id)))
    lines.push(line('stable-ids', idProblems.length === 0, idProblems[0] ?? `${actionIds.size} action ids, identical across ${frames.length} frames on two instances`))

    // 2. Bounds: every target on an element has finite, non-empty bounds whose centre hits
    //    that element (surface-wide actions have no element and nothing to hit).
    const boundProblems: string[] = []
    let targets = 0
    for (const frame of frames) {
      for (const target of frame.targets) {
        if (target.nodeId === undefined) continue
        targets += 1
        const bounds = frame.layout[target.nodeId]
        if (bounds === undefined) {
          boundProblems.push(`${target.contract} @${target.ref}: node ${target.nodeId} has no bounds`)
          continue
        }
        const { x, y, width, height } = bounds
        if (![x, y, width, height].every(Number.isFinite) || width <= 0 || height <= 0) {
          boundProblems.push(`${target.contract} @${target.ref}: bounds ${JSON.stringify(bounds)} are not a finite, non-empty box`)
          continue
        }
        const hit = hitTest(frame.tree, frame.layout, { x: x + width / 2, y: y + height / 2 })
        if (hit === null || !isWithin(frame.tree, target.nodeId, hit.id)) {
          boundProblems.push(`${target.contract} @${target.ref}: centre hits ${hit?.id ?? 'nothing'}, expected ${target.nodeId} or a descendant`)
        }
      }
    }
    const surfaceWide = new Set(frames.flatMap((f) => f.targets.filter((t) => t.nodeId === undefined).map((t) => t.contract))).size
    lines.push(line('bounds', boundProblems.length === 0, boundProblems[0] ?? `${targets} element targets checked by hit-testing their centres; ${surfaceWide} surface-wide actions need none`))

    // 3. Confirmation for destructive and external actions, as the policy decides it.
    const risky = new Map(
      frames
        .flatMap((f) => resolvedTargets(f))
        .filter((t) => riskAtLeast(t.risk, 'external'))
        .map((t) => [t.contract.id, t]),
    )
    const unconfirmed: string[] = []
    const overridden: string[] = []
    for (const target of risky.values()) {
      if (target.contract.requiresConfirmation) continue
      // The contract lets it run unconfirmed: acceptable only if a written policy rule says
      // so. A default policy that happens to ask anyway does not excuse the contract.
      const contract = { ...target.contract, risk: target.risk }
      const decision = policy.decide({ actor: AGENT, surface: first.id, contract, input: sampleInput(contract.inputSchema), state: {} })
      if (decision.verdict === 'allow' && !decision.needsApproval && decision.rule !== null) overridden.push(`${contract.id} (rule ${decision.rule})`)
      else unconfirmed.push(contract.id)
    }
    lines.push(
      line(
        'confirmation',
        unconfirmed.length === 0,
        unconfirmed.length > 0
          ? `contracts without requiresConfirmation and no policy override: ${unconfirmed.join(', ')}`
          : `${risky.size} destructive/external actions need approval${overridden.length ? `; explicit overrides: ${overridden.join(', ')}` : ''}`,
      ),
    )

    // 4. Secrets: neither the app's sensitive values nor a planted canary reach the trace,
    //    checked in the raw database files (the WAL included), not through the API.
    let noGatewayError: string | null = null
    const rawFrames = await (subject.runWithoutGateway ? subject.runWithoutGateway(script) : runAlone(subject.createSurface, script)).catch((error: unknown) => {
      noGatewayError = error instanceof Error ? error.message : String(error)
      return [] as Frame[]
    })
    const secrets = [...new Set([CANARY, ...rawFrames.flatMap(secretsOf)])]
    const replaySteps = await collectReplay(store, gateway.session)
    const reexecution = await reexecuteSession(store, gateway.session, async () => subject.createSurface())
    await gateway.close()
    await store.close()
    const bytes = readdirSync(dir).map((file) => readFileSync(join(dir, file)).toString('latin1')).join('\n')
    const leaked = secrets.filter((secret) => bytes.includes(secret))
    lines.push(line('secrets', leaked.length === 0, leaked.length > 0 ? `found in the trace database: ${leaked.map((s) => `${s.slice(0, 4)}…`).join(', ')}` : `${secrets.length} secrets (1 planted) absent from the raw trace database`))

    // 5. Replay: the trace alone yields the same frames and actions, and re-executing them
    //    on a fresh instance reproduces every diff and frame.
    const replayedFrames = replaySteps.filter((s) => s.kind === 'frame').map((s) => (s.kind === 'frame' ? s.frame.id : ''))
    const seen = [...new Set(frames.map((f) => f.id))]
    const missing = seen.filter((id) => !replayedFrames.includes(id))
    const replayedActions = replaySteps.filter((s) => s.kind === 'action').length
    const replayOk = missing.length === 0 && replayedActions >= script.length && reexecution.ok
    lines.push(
      line(
        'replay',
        replayOk,
        !reexecution.ok && reexecution.divergence
          ? `re-execution diverged at step ${reexecution.divergence.step} (${reexecution.divergence.action}): ${reexecution.divergence.what}`
          : missing.length > 0
            ? `${missing.length} frames missing from the trace`
            : `${replayedFrames.length} frames and ${replayedActions} actions reconstructed; ${reexecution.steps} re-executed identically`,
      ),
    )

    // 6. No gateway: the app ran the same script by itself.
    const ranAlone = noGatewayError === null && rawFrames.length === script.length + 1
    lines.push(
      line(
        'no-gateway',
        ranAlone,
        noGatewayError !== null ? `failed without a gateway: ${noGatewayError}` : `ran ${script.length} steps directly${problems.length ? `; through the gateway: ${problems[0]}` : ''}`,
      ),
    )
    return { subject: subject.name, ok: lines.every((l) => l.ok), lines }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    for (const entry of CHECKLIST) if (!lines.some((l) => l.id === entry.id)) lines.push(line(entry.id, false, `not checked: ${message}`))
    return { subject: subject.name, ok: false, lines }
  } finally {
    await store.close().catch(() => undefined)
    rmSync(dir, { recursive: true, force: true })
  }
}
