import { canonicalJson, contentHash } from '../content-hash.js'
import { PAGE_WORDS, TesseraError } from '../errors.js'
import type { ActionContract, Risk } from '../schemas/action-contract.js'
import type { ActionTarget } from '../schemas/action-target.js'
import type { Frame } from '../schemas/frame.js'
import type { JsonValue } from '../schemas/json.js'
import type { UiNode } from '../schemas/node.js'
import { maxRisk } from '../risk.js'
import { frameIndex } from './frame-index.js'

/** One place an action can run, with everything a reader needs about it at hand. */
export interface ResolvedTarget {
  contract: ActionContract
  target: ActionTarget
  /** The node carrying the action; absent for an action of the whole surface. */
  node?: UiNode | undefined
  /** The contract's risk raised by the target's own. */
  risk: Risk
}

const contractMaps = new WeakMap<Frame, Map<string, ActionContract>>()

/** The contract of `frame` named `id`, or undefined. */
export function contractOf(frame: Frame, id: string): ActionContract | undefined {
  let byId = contractMaps.get(frame)
  if (byId === undefined) {
    byId = new Map(frame.contracts.map((contract) => [contract.id, contract]))
    contractMaps.set(frame, byId)
  }
  return byId.get(id)
}

/** Every target with its contract and node, in frame order. */
export function resolvedTargets(frame: Frame): ResolvedTarget[] {
  const index = frameIndex(frame)
  const out: ResolvedTarget[] = []
  for (const target of frame.targets) {
    const contract = contractOf(frame, target.contract)
    if (contract === undefined) continue
    out.push({ contract, target, node: target.nodeId === undefined ? undefined : index.nodes.get(target.nodeId), risk: maxRisk(contract.risk, target.risk) })
  }
  return out
}

/**
 * How an agent names a target in prose and in deltas: the contract id alone when the frame
 * has one target of it that supplies no input of its own, else `contract@ref`.
 */
export function targetLabel(frame: Frame, target: ActionTarget): string {
  if (target.input !== undefined) return `${target.contract}@${target.ref}`
  let count = 0
  for (const other of frame.targets) if (other.contract === target.contract && other.input === undefined) count++
  return count === 1 ? target.contract : `${target.contract}@${target.ref}`
}

/**
 * The input a request runs with on `target`: its own, completed by what the target supplies
 * (a row's claim id). A request that contradicts the target is refused, never silently
 * overridden: the agent meant something else than the element it named.
 */
export function inputForTarget(target: ActionTarget, input: JsonValue): JsonValue {
  if (target.input === undefined) return input
  const given = input ?? {}
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new TesseraError('invalid_input', `expected an object as the input of "${target.contract}" on @${target.ref}, found ${Array.isArray(given) ? 'an array' : typeof given}`, { expected: 'object', found: Array.isArray(given) ? 'array' : typeof given })
  }
  for (const [key, value] of Object.entries(target.input)) {
    if (Object.hasOwn(given, key) && canonicalJson(given[key] as JsonValue) !== canonicalJson(value)) {
      throw new TesseraError('invalid_input', `@${target.ref} runs "${target.contract}" with ${key} ${JSON.stringify(value)}, but the request says ${JSON.stringify(given[key])}; leave ${key} out or name the element that has it`, {
        expected: { [key]: value },
        found: { [key]: given[key] as JsonValue },
      })
    }
  }
  return { ...given, ...target.input }
}

/** Whether some target of the frame answers to `ref` (`@12` or `12`, Playwright's `e12`, or its node id), whatever its action. */
export function showsRef(frame: Frame, ref: string): boolean {
  return frame.targets.some(answersTo(frame, ref.startsWith('@') ? ref.slice(1) : ref))
}

/** Whether a target is the one a ref (without its `@`) names: by its ref, its node id, or the node the frame's refs resolve it to. */
function answersTo(frame: Frame, wanted: string): (target: ActionTarget) => boolean {
  const node = frameIndex(frame).refs.resolve(wanted)
  return (target) => target.ref === wanted || target.nodeId === wanted || (node !== undefined && target.nodeId === node)
}

/**
 * The target of `action` a request means: the one whose ref is `ref` (an outline's `@n1k2`
 * or the contract id of a surface-wide action), or the only one when no ref is given.
 * Throws `not_found` with the refs to choose from otherwise.
 */
export function resolveTarget(frame: Frame, action: string, ref?: string): ResolvedTarget {
  const contract = contractOf(frame, action)
  const wanted = ref === undefined ? undefined : ref.startsWith('@') ? ref.slice(1) : ref
  // A ref that names nothing on the frame says so first: what the frame offers is beside the point once the element went.
  if (wanted !== undefined && namesNothing(frame, wanted)) {
    // A frame of nothing of the page says why (it waits on a dialog elsewhere, it stopped answering): that, not a new snapshot, is what the agent needs.
    const said = (frame.state as { said?: unknown }).said
    // A modal dialog takes what is under it out of reach (and out of the tree): a new snapshot would not bring it back, closing the dialog does.
    const modal = typeof said === 'string' ? undefined : [...frameIndex(frame).nodes.values()].find((node) => node.states?.modal === true)
    const why = typeof said === 'string' ? said : modal !== undefined ? `a modal ${modal.role ?? 'dialog'} is open, and what is under it is out of reach until it closes` : 'take a new snapshot'
    // Its name is the page's words: said after the message, fenced, never in it.
    const words = modal?.name === undefined ? {} : { [PAGE_WORDS]: [modal.name] }
    throw new TesseraError('not_found', `no element @${wanted} is on the frame now; ${why}`, { expected: 'a ref of the current frame', found: `@${wanted}`, ...words })
  }
  if (contract === undefined) {
    const about = wanted === undefined ? '' : `; ${whatRefIs(frame, wanted)}`
    throw new TesseraError('not_found', `the frame has no action "${action}"${about}`, { expected: frame.contracts.map((c) => c.id), found: action })
  }
  const candidates = frame.targets.filter((target) => target.contract === action)
  // Without a ref, a target that supplies its own input (a row) is never the one meant; and
  // one of the surface itself, where there is one (a file chooser the page opened), is.
  const chosen = wanted === undefined ? withoutRef(candidates) : candidates.filter(answersTo(frame, wanted))
  if (chosen.length !== 1) {
    const refs = candidates.map((target) => target.ref)
    const message =
      candidates.length === 0
        ? `action "${action}" has no target in this frame`
        : wanted === undefined
          ? `action "${action}" runs on ${candidates.length} elements; name one with target (one of ${refs.join(', ')})`
          : notTakenBy(frame, wanted, action)
    throw new TesseraError('not_found', message, { expected: refs, found: wanted ?? null })
  }
  const target = chosen[0] as ActionTarget
  const node = target.nodeId === undefined ? undefined : frameIndex(frame).nodes.get(target.nodeId)
  return { contract, target, node, risk: maxRisk(contract.risk, target.risk) }
}

/** The targets a request that names none may mean. */
function withoutRef(candidates: readonly ActionTarget[]): ActionTarget[] {
  if (candidates.length <= 1) return [...candidates]
  const open = candidates.filter((target) => target.input === undefined)
  const surfaceWide = open.filter((target) => target.nodeId === undefined)
  return surfaceWide.length === 1 ? surfaceWide : open
}

/**
 * Whether a ref names no element of the frame and no target at all: the element went, or
 * never was, and the answer is a new look, never a guess at what holds its place now.
 */
function namesNothing(frame: Frame, wanted: string): boolean {
  const index = frameIndex(frame)
  return !index.nodes.has(wanted) && index.refs.resolve(wanted) === undefined && !frame.targets.some(answersTo(frame, wanted))
}

/** The actions the element a ref names takes. */
function offersOf(frame: Frame, wanted: string): string[] {
  return [...new Set(frame.targets.filter(answersTo(frame, wanted)).map((target) => target.contract))]
}

/** An element that takes other actions than the one asked: which, so the agent picks one of them (`@6 (heading) takes "click", "hover", not "fill"`). */
function notTakenBy(frame: Frame, wanted: string, action: string): string {
  const offers = offersOf(frame, wanted)
  return offers.length > 0 ? `${refSaid(frame, wanted)} takes ${offers.map((id) => `"${id}"`).join(', ')}, not "${action}"` : `${refSaid(frame, wanted)} takes no action, "${action}" neither`
}

/** A ref as an error names it: with its element's role, the frame's word for what it is (`@6 (heading)`); never its name, the page's words. */
function refSaid(frame: Frame, wanted: string): string {
  const index = frameIndex(frame)
  const role = (index.nodes.get(wanted) ?? index.nodes.get(index.refs.resolve(wanted) ?? ''))?.role
  return role === undefined ? `@${wanted}` : `@${wanted} (${role})`
}

/** What a ref of the frame that names no target of an action is: an element that offers other actions (said, so the agent picks one of them), or one that offers none. */
function whatRefIs(frame: Frame, wanted: string): string {
  const offers = offersOf(frame, wanted)
  return offers.length > 0 ? `${refSaid(frame, wanted)} takes ${offers.map((id) => `"${id}"`).join(', ')}` : `${refSaid(frame, wanted)} takes no action`
}

/**
 * What must not have changed for a request made on an older frame to still mean the same
 * thing: the contract (all of it), the element's role and name, and whether it is enabled.
 * Geometry, values and everything elsewhere on the surface may move on.
 */
export function targetFingerprint(resolved: ResolvedTarget): string {
  return contentHash({
    contract: resolved.contract,
    ref: resolved.target.ref,
    nodeId: resolved.target.nodeId ?? null,
    risk: resolved.target.risk ?? null,
    enabled: resolved.target.enabled,
    role: resolved.node?.role ?? null,
    name: resolved.node?.name ?? null,
  })
}

/** Why a target named on an older frame no longer means the same, or null when it still does. */
export function targetDrift(before: ResolvedTarget, now: ResolvedTarget): string | null {
  if (targetFingerprint(before) === targetFingerprint(now)) return null
  if (contentHash(before.contract) !== contentHash(now.contract)) return `the contract of "${now.contract.id}" changed`
  if (before.target.enabled !== now.target.enabled) return `"${now.contract.id}" became ${now.target.enabled ? 'enabled' : 'disabled'}`
  if ((before.node?.role ?? null) !== (now.node?.role ?? null) || (before.node?.name ?? null) !== (now.node?.name ?? null)) {
    return `the element of "${now.contract.id}" is now ${now.node?.role ?? 'node'} ${JSON.stringify(now.node?.name ?? '')}, was ${before.node?.role ?? 'node'} ${JSON.stringify(before.node?.name ?? '')}`
  }
  return `the target of "${now.contract.id}" changed`
}
