import { existsSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { ActionCall, ActionContractInput, Frame, JsonObject, JsonValue, PerformContext, RiskAssessment, Surface, TargetSpec } from '@tessera/protocol'
import { TesseraError, sealFrame } from '@tessera/protocol'
import { installedPath } from './desktop-session.js'

/** What every Chromium build (Electron's included) keeps beside its executable. */
const CHROMIUM_FILES = ['resources.pak', 'v8_context_snapshot.bin', 'snapshot_blob.bin']

/**
 * Whether a program is a Chromium build (an Electron app, Chromium itself): found by the files
 * every such build keeps beside its executable, before it starts, so it can be started with a
 * DevTools port. A wrapper script is not looked through: its app is read over AT-SPI.
 */
export function isChromiumFamily(file: string): boolean {
  const path = installedPath(file)
  if (path === undefined) return false
  let real: string
  try {
    real = realpathSync(path)
  } catch {
    return false
  }
  return CHROMIUM_FILES.some((name) => existsSync(join(dirname(real), name)))
}

/** Opens a surface of another kind that the tile owns (the hub's KindEnvironment.openPart). */
export type OpenPart = (kind: string, config: Record<string, unknown>, id: string) => Promise<Surface>

/**
 * The Electron specialist: a Chromium app's window read through its DevTools port by the
 * browser kind's frame builder (a surface the hub opens for this tile and nobody else sees),
 * so the tile's frame is the page's own — roles, names, values, states from Chromium's
 * accessibility tree, risk inferred per element, refs bound to DOM nodes — instead of what
 * Chromium tells AT-SPI. The page's actions (click, fill, select, check, press, wait_for…)
 * run on it; the desktop's own (keys and clicks through XTEST, shortcuts, discovery) stay the
 * tile's, on its display.
 */
export class DevtoolsPage {
  #lastFrame: Frame | null = null

  constructor(readonly part: Surface) {}

  /** The page's frame as the tile's: its tree, contracts and targets, with the desktop's own actions beside them. */
  async frame(surface: string, route: string, state: JsonObject, desktopContracts: readonly ActionContractInput[], desktopTargets: readonly TargetSpec[]): Promise<Frame> {
    const page = await this.part.snapshot()
    this.#lastFrame = page
    const own = new Set(page.contracts.map((contract) => contract.id))
    const extra = desktopContracts.filter((contract) => !own.has(contract.id))
    const extraIds = new Set(extra.map((contract) => contract.id))
    const targets: TargetSpec[] = [
      ...page.targets.map((target): TargetSpec => ({
        contract: target.contract,
        ...(target.nodeId === undefined ? {} : { nodeId: target.nodeId }),
        ...(target.risk === undefined ? {} : { risk: target.risk }),
        ...(target.enabled ? {} : { enabled: false }),
        ...(target.input === undefined ? {} : { input: target.input }),
      })),
      ...desktopTargets.filter((target) => extraIds.has(target.contract)),
    ]
    return sealFrame({
      surface,
      route,
      tree: page.tree,
      layout: page.layout,
      state: { ...(page.state as JsonObject), ...state },
      contracts: [...page.contracts, ...extra],
      targets,
      capabilities: page.capabilities as JsonObject,
    })
  }

  /** Whether an action is the page's (else the desktop's). */
  owns(contract: string): boolean {
    return this.#lastFrame?.contracts.some((known) => known.id === contract) === true
  }

  /** The call as the page surface judges it: on its own last frame, with its own contract. */
  #asPageCall(call: ActionCall): ActionCall {
    const frame = this.#lastFrame
    const contract = frame?.contracts.find((known) => known.id === call.contract.id) ?? call.contract
    return { ...call, contract, frame: frame ?? call.frame }
  }

  /**
   * One of the page's actions on an element, for a schema's custom action step (press this,
   * type into that): judged on the page's last frame, as the tile's own call already was.
   */
  async act(contract: string, nodeId: string, input: JsonObject): Promise<{ done: string }> {
    const frame = this.#lastFrame
    const known = frame?.contracts.find((candidate) => candidate.id === contract)
    const target = frame?.targets.find((candidate) => candidate.contract === contract && candidate.nodeId === nodeId)
    if (frame === null || known === undefined || target === undefined) throw new TesseraError('not_found', `the page offers no ${contract} on node ${nodeId}`, { expected: contract, found: nodeId })
    const signal = AbortSignal.timeout(15_000)
    await this.part.perform({ frame, contract: known, target, input }, { actor: 'tessera', session: '', requestId: '', signal })
    return { done: `${contract} on ${target.ref}` }
  }

  perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    return this.part.perform(this.#asPageCall(call), ctx)
  }

  async assess(call: ActionCall): Promise<RiskAssessment | null> {
    return (await this.part.assess?.(this.#asPageCall(call))) ?? null
  }

  timeoutFor(call: ActionCall): number | null {
    return this.part.timeoutFor?.(this.#asPageCall(call)) ?? null
  }

  refuses(call: ActionCall): void {
    this.part.refuses?.(this.#asPageCall(call))
  }

  subscribe(onChange: () => void): () => void {
    return this.part.subscribe?.(() => onChange()) ?? (() => undefined)
  }

  close(): Promise<void> {
    return this.part.close()
  }
}
