import { freezeCanonical } from '../content-hash.js'
import { TesseraError } from '../errors.js'
import { ActionContract, type ActionContractInput, type Risk } from '../schemas/action-contract.js'
import type { ActionTarget } from '../schemas/action-target.js'
import { Capabilities } from '../schemas/capabilities.js'
import type { Frame, PartialView } from '../schemas/frame.js'
import type { Layout } from '../schemas/geometry.js'
import type { JsonObject } from '../schemas/json.js'
import type { UiNode } from '../schemas/node.js'
import { RefTable } from '../outline/refs.js'
import { PROTOCOL_VERSION } from '../version.js'
import { cutWhole } from '../whole-characters.js'
import { frameId } from './frame-id.js'
import { frameIndex, indexTree, rememberIndex } from './frame-index.js'

/** Where a contract runs: on a node (`nodeId`) or, without one, on the whole surface. */
export interface TargetSpec {
  contract: string
  nodeId?: string | undefined
  /** This element's own risk where it exceeds the contract's. */
  risk?: Risk | undefined
  /** Why, in a few words (see ActionTarget.riskReason). */
  riskReason?: string | undefined
  /** False when the surface knows the action cannot run now; a blocked node is never enabled. */
  enabled?: boolean | undefined
  /** Input the target supplies (see ActionTarget.input). */
  input?: JsonObject | undefined
}

export interface FrameParts {
  surface: string
  route: string
  tree: UiNode
  /** Bounds per node id. A surface that lays out itself (yoga, a browser, AT-SPI) brings its own; none is fine. */
  layout?: Layout | undefined
  state: JsonObject
  capabilities?: Partial<Capabilities> | undefined
  /** Contracts the surface offers besides those carried by nodes (`semantic.agentAction`). */
  contracts?: readonly ActionContractInput[] | undefined
  /** Where the contracts run. A contract with no target here and on no node runs on the whole surface. */
  targets?: readonly TargetSpec[] | undefined
  partial?: PartialView | undefined
}

function invalid(message: string, details: Record<string, unknown>): TesseraError {
  return new TesseraError('invalid_frame', message, details)
}

/** A node-carried contract leaves the tree: the frame lists it once in `contracts`. */
function stripAgentActions(tree: UiNode, found: Array<{ nodeId: string; contract: ActionContractInput; input?: JsonObject | undefined }>): UiNode {
  const contract = tree.semantic?.agentAction
  let node = tree
  if (contract !== undefined) {
    found.push({ nodeId: tree.id, contract, input: tree.semantic?.agentActionInput })
    const { agentAction: _moved, agentActionInput: _input, ...semantic } = tree.semantic ?? {}
    const { semantic: _semantic, ...rest } = tree
    node = Object.keys(semantic).length > 0 ? { ...rest, semantic } : rest
  }
  const children = node.children
  if (children === undefined) return node
  let changed = false
  const kept = children.map((child) => {
    const next = stripAgentActions(child, found)
    if (next !== child) changed = true
    return next
  })
  return changed || node !== tree ? { ...node, children: kept } : node
}

/**
 * Contracts checked before, by object: a surface offers the same contract objects in every
 * frame it seals, and checking one (its JSON Schemas included) costs more than the rest of a
 * small frame. A contract is not changed once offered.
 */
const checkedContracts = new WeakMap<object, { contract: ActionContract; text: string }>()

function checkedContract(input: ActionContractInput, where: string): { contract: ActionContract; text: string } {
  const known = checkedContracts.get(input)
  if (known !== undefined) return known
  const parsed = ActionContract.safeParse(input)
  if (!parsed.success) {
    throw invalid(`invalid contract ${where}: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`, { issues: parsed.error.issues as unknown as Record<string, unknown>[] })
  }
  // Frozen: its canonical text is written once and reused in every frame id and stored frame.
  const contract = freezeCanonical(parsed.data)
  const checked = { contract, text: JSON.stringify(contract) }
  checkedContracts.set(input, checked)
  return checked
}

/**
 * Seals the parts of a snapshot into a frame: contracts each once (from nodes and from the
 * surface), a target per place a contract runs, refs and enabled states from the tree, and
 * the id, a hash of the frame's meaning. It needs no layout engine: a browser or an
 * accessibility tree brings its own geometry, and a terminal none. Deterministic.
 */
export function sealFrame(parts: FrameParts): Frame {
  const carried: Array<{ nodeId: string; contract: ActionContractInput; input?: JsonObject | undefined }> = []
  const tree = stripAgentActions(parts.tree, carried)
  const index = indexTree(tree)
  if (index.duplicates.length > 0) {
    throw invalid(`expected unique node ids in a frame, found ${index.duplicates.map((id) => JSON.stringify(id)).join(', ')} more than once`, { duplicates: index.duplicates })
  }
  const refs = new RefTable(index.nodes.keys())
  const contracts = new Map<string, { contract: ActionContract; text: string }>()
  const addContract = (input: ActionContractInput, where: string): void => {
    const { contract, text } = checkedContract(input, where)
    const earlier = contracts.get(contract.id)
    if (earlier !== undefined && earlier.text !== text) {
      throw invalid(`expected one contract per action id, found two different contracts named "${contract.id}" (${where})`, { action: contract.id })
    }
    contracts.set(contract.id, { contract, text })
  }
  const specs: TargetSpec[] = []
  for (const { nodeId, contract, input } of carried) {
    addContract(contract, `on node "${nodeId}"`)
    specs.push({ contract: contract.id, nodeId, input })
  }
  for (const contract of parts.contracts ?? []) addContract(contract, 'offered by the surface')
  const targeted = new Set(specs.map((spec) => spec.contract))
  for (const spec of parts.targets ?? []) {
    specs.push(spec)
    targeted.add(spec.contract)
  }
  for (const id of contracts.keys()) if (!targeted.has(id)) specs.push({ contract: id })

  const targets: ActionTarget[] = []
  const seen = new Set<string>()
  for (const spec of specs) {
    if (!contracts.has(spec.contract)) {
      throw invalid(`a target names contract "${spec.contract}", which the frame does not offer`, { expected: [...contracts.keys()], found: spec.contract })
    }
    const ref = spec.nodeId === undefined ? spec.contract : refs.refOf(spec.nodeId)
    if (ref === undefined) {
      throw invalid(`a target of "${spec.contract}" names node "${spec.nodeId}", which is not in the tree`, { action: spec.contract, found: spec.nodeId })
    }
    const key = `${spec.contract}@${ref}`
    if (seen.has(key)) throw invalid(`expected one target per contract and node, found "${spec.contract}" twice on ${spec.nodeId ?? 'the surface'}`, { action: spec.contract, nodeId: spec.nodeId ?? null })
    seen.add(key)
    const blocked = spec.nodeId !== undefined && index.blocked.has(spec.nodeId)
    targets.push({
      contract: spec.contract,
      ref,
      ...(spec.nodeId === undefined ? {} : { nodeId: spec.nodeId }),
      ...(spec.risk === undefined ? {} : { risk: spec.risk }),
      ...(spec.risk === undefined || spec.riskReason === undefined ? {} : { riskReason: cutWhole(spec.riskReason, 200) }),
      enabled: !blocked && spec.enabled !== false,
      ...(spec.input === undefined ? {} : { input: spec.input }),
    })
  }
  const body = {
    protocol: PROTOCOL_VERSION,
    version: 0,
    surface: parts.surface,
    route: parts.route,
    tree,
    layout: parts.layout ?? {},
    contracts: [...contracts.values()].map((entry) => entry.contract),
    targets,
    state: parts.state,
    capabilities: Capabilities.parse(parts.capabilities ?? {}),
    ...(parts.partial === undefined ? {} : { partial: parts.partial }),
  }
  const frame = { ...body, id: frameId(body) } as Frame
  rememberIndex(frame, { ...index, refs })
  return frame
}

/** A frame with its `version` stamped by whoever orders frames (the hub's frame cache). */
export function withVersion(frame: Frame, version: number): Frame {
  if (frame.version === version) return frame
  const stamped = { ...frame, version }
  rememberIndex(stamped, frameIndex(frame))
  return stamped
}
