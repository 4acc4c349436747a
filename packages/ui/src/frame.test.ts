import { Frame, PROTOCOL_VERSION, TesseraError, type UiNode, frameId } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'
import { box, text } from './elements.js'
import { buildFrame } from './frame.js'
import { nodeAtPath } from '@tessera/protocol'
import { createLayoutEngine } from './layout-engine.js'
import { generateTree } from './test-support/generated-tree.js'

function claimsUi(status: string) {
  return box({ style: { padding: 12, gap: 8 } }, [
    text({ key: 'title', text: 'Claim 17', style: { fontSize: 20 } }),
    text({ key: 'status', text: `Status: ${status}` }),
    box({ key: 'actions', style: { flexDirection: 'row', gap: 8 } }, [
      box(
        {
          semantic: {
            agentAction: agentAction({
              id: 'approve-payout',
              kind: 'approve',
              title: 'Approve payout',
              risk: 'write',
              requiresConfirmation: true,
              preconditions: ['claim.status === "ready"', 'claim.fraudScore < 0.75'],
              postconditions: ['claim.status === "approved"'],
              audit: { workflow: 'claims-review' },
            }),
          },
        },
        [text('Approve')],
      ),
    ]),
  ])
}

const input = (status = 'ready') => ({
  surface: 'claims',
  route: '/claims/17',
  tree: claimsUi(status),
  state: { claim: { id: 17, status, fraudScore: 0.2 } },
  viewport: { width: 640, height: 480 },
})

function countNodes(node: UiNode): number {
  return 1 + (node.children ?? []).reduce((sum, child) => sum + countNodes(child), 0)
}

describe('buildFrame', () => {
  it('builds a valid, sealed frame with defaults filled in', () => {
    const frame = buildFrame(input())
    expect(Frame.safeParse(frame).success).toBe(true)
    expect(frame.protocol).toBe(PROTOCOL_VERSION)
    expect(frame.version).toBe(0)
    expect(frame.id).toBe(frameId(frame))
    expect(frame.capabilities).toEqual({ tools: [], confirmationModes: ['console', 'cli'], exportModes: ['jsonl'], replay: true, capture: false })
    expect(frame.targets.map((target) => target.nodeId)).toEqual(['root/actions/approve-payout'])
    expect(frame.contracts.map((contract) => contract.id)).toEqual(['approve-payout'])
    expect(Object.keys(frame.layout)).toHaveLength(countNodes(frame.tree))
  })

  it('is byte-identical across runs with freshly built trees', () => {
    const first = JSON.stringify(buildFrame(input()))
    const second = JSON.stringify(buildFrame(input()))
    expect(second).toBe(first)
  })

  it('derives the id from content: one changed text, one changed state value → a different id', () => {
    const base = buildFrame(input()).id
    expect(buildFrame(input('approved')).id).not.toBe(base)
    expect(buildFrame({ ...input(), state: { claim: { id: 17, status: 'ready', fraudScore: 0.3 } } }).id).not.toBe(base)
    expect(buildFrame({ ...input(), route: '/claims/18' }).id).not.toBe(base)
  })

  it('accepts a finished UiNode tree and keeps its ids', () => {
    const frame = buildFrame(input())
    // A sealed tree no longer carries its contracts: they come back from the frame.
    const again = buildFrame({ ...input(), tree: frame.tree, contracts: frame.contracts, targets: frame.targets.map((t) => ({ contract: t.contract, nodeId: t.nodeId })) })
    expect(again.id).toBe(frame.id)
    expect(again.targets).toEqual(frame.targets)
  })

  it('gives the same frame through a retained layout engine', () => {
    const engine = createLayoutEngine()
    const fresh = buildFrame(input())
    expect(buildFrame({ ...input(), layoutEngine: engine })).toEqual(fresh)
    expect(buildFrame({ ...input(), layoutEngine: engine })).toEqual(fresh)
    expect(buildFrame({ ...input('approved'), layoutEngine: engine })).toEqual(buildFrame(input('approved')))
    engine.dispose()
  })

  it('rejects state that is not plain JSON, and an empty surface id', () => {
    const bad = () => buildFrame({ ...input(), state: { when: new Date(0) } as never })
    expect(bad).toThrow(TesseraError)
    expect(bad).toThrow(/frame state/)
    expect(() => buildFrame({ ...input(), surface: '' })).toThrow(/non-empty surface id/)
  })

  it('handles a 10,000-node tree: every node laid out, every action found and traceable', () => {
    const generated = generateTree(10_000, 42)
    const frame = buildFrame({ surface: 'big', route: '/', tree: generated.root, state: {}, viewport: { width: 1280, height: 800 } })
    const nodes = countNodes(frame.tree)
    expect(nodes).toBe(generated.nodeCount)
    expect(nodes).toBeGreaterThanOrEqual(10_000)
    expect(Object.keys(frame.layout)).toHaveLength(nodes)
    expect(frame.targets).toHaveLength(generated.actionCount)
    expect(frame.targets.filter((target) => !target.enabled)).toHaveLength(generated.blockedActionCount)
    const ids = new Set(Object.keys(frame.layout))
    for (const target of frame.targets) {
      expect(ids.has(target.nodeId as string), `node of ${target.contract}`).toBe(true)
      const bounds = frame.layout[target.nodeId as string]!
      expect(Number.isFinite(bounds.x + bounds.y + bounds.width + bounds.height)).toBe(true)
    }
  })
})
