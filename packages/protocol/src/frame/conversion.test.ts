import { describe, expect, it } from 'vitest'
import { contentHash } from '../content-hash.js'
import { ActionRequest } from '../schemas/action-request.js'
import { Intent } from '../schemas/intent.js'
import { LEGACY_PROTOCOL_VERSION, PREVIOUS_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../version.js'
import { downConvert, readFrame } from './conversion.js'
import { frameId } from './frame-id.js'
import { type FrameParts, sealFrame } from './seal-frame.js'

const contract = { id: 'approve-payout', kind: 'approve', title: 'Approve payout', risk: 'write' as const, requiresConfirmation: true, preconditions: [], postconditions: [], futureField: { x: 1 } }

function parts(): FrameParts {
  return {
    surface: 'claims',
    route: '/claims/c-1',
    tree: { id: 'root', kind: 'box', children: [{ id: 'root/approve', kind: 'box', role: 'button', name: 'Approve', semantic: { agentAction: contract } }] },
    layout: { root: { x: 0, y: 0, width: 100, height: 50 }, 'root/approve': { x: 10, y: 10, width: 80, height: 30 } },
    state: { claim: { status: 'ready' } },
    capabilities: { tools: [], confirmationModes: ['console'], exportModes: ['jsonl'], replay: true, capture: false },
  }
}

/** A frame as the previous protocol wrote it: every action target carrying its whole contract, the id over everything. */
function previousFrame(): Record<string, unknown> {
  const body = {
    version: PREVIOUS_PROTOCOL_VERSION,
    surface: 'claims',
    route: '/claims/c-1',
    tree: parts().tree,
    layout: parts().layout,
    actions: [{ id: 'approve-payout', contract, path: [0], nodeId: 'root/approve', role: 'button', name: 'Approve', bounds: { x: 10, y: 10, width: 80, height: 30 }, enabled: true }],
    state: { claim: { status: 'ready' } },
    capabilities: parts().capabilities,
  }
  return { ...body, id: contentHash(body) }
}

describe('frames across versions', () => {
  it('reads a current frame and keeps unknown fields, at every level, untouched', () => {
    const frame = sealFrame(parts())
    const withHint = { ...frame, hint: 'from the future' }
    const resealed = { ...withHint, id: frameId(withHint) }
    const read = readFrame(JSON.parse(JSON.stringify(resealed)))
    expect(read).toEqual(resealed)
    expect((read as Record<string, unknown>).hint).toBe('from the future')
    expect(read.contracts[0]?.futureField).toEqual({ x: 1 })
    expect(read.protocol).toBe(PROTOCOL_VERSION)
  })

  it('the id hashes meaning: geometry, styles and the version do not change it; a name or a state does', () => {
    const a = sealFrame(parts())
    const moved = sealFrame({ ...parts(), layout: { root: { x: 5, y: 5, width: 300, height: 90 } } })
    expect(moved.id).toBe(a.id)
    expect({ ...a, version: 7 }.id).toBe(a.id)
    const renamed = parts()
    ;(renamed.tree.children as Array<{ name?: string }>)[0]!.name = 'Approve now'
    expect(sealFrame(renamed).id).not.toBe(a.id)
    expect(sealFrame({ ...parts(), state: { claim: { status: 'approved' } } }).id).not.toBe(a.id)
  })

  it('refuses a frame altered after sealing, saying which id it expected', () => {
    const frame = sealFrame(parts())
    const altered = { ...frame, state: { claim: { status: 'approved' } } }
    expect(() => readFrame(altered)).toThrow(expect.objectContaining({ code: 'invalid_frame', details: expect.objectContaining({ found: frame.id }) }))
  })

  it('up-converts a frame of the previous protocol: contracts once, targets apart, its own id checked first', () => {
    const old = previousFrame()
    const frame = readFrame(JSON.parse(JSON.stringify(old)))
    expect(frame.protocol).toBe(PROTOCOL_VERSION)
    expect(frame.contracts.map((c) => c.id)).toEqual(['approve-payout'])
    expect(frame.targets).toEqual([{ contract: 'approve-payout', ref: expect.stringMatching(/^n/), nodeId: 'root/approve', enabled: true }])
    expect(frame.id).toBe(sealFrame(parts()).id)
    expect(() => readFrame({ ...old, route: '/elsewhere' })).toThrow(expect.objectContaining({ code: 'invalid_frame' }))
  })

  it('up-converts a geometra.agent-native/0 frame with a nested layout tree and an inline trace', () => {
    const { version: _v, surface: _s, state: _st, layout: _l, id: _id, ...rest } = previousFrame()
    const legacy = {
      ...rest,
      version: LEGACY_PROTOCOL_VERSION,
      layout: { x: 0, y: 0, width: 100, height: 50, children: [{ x: 10, y: 10, width: 80, height: 30, children: [] }] },
      actions: [{ ...(previousFrame().actions as object[])[0], nodeId: undefined }],
      trace: [{ type: 'requested', action: 'approve-payout' }],
    }
    const frame = readFrame(JSON.parse(JSON.stringify(legacy)), { surface: 'claims' })
    expect(frame.protocol).toBe(PROTOCOL_VERSION)
    expect(frame.surface).toBe('claims')
    expect(frame.layout['root/approve']).toEqual({ x: 10, y: 10, width: 80, height: 30 })
    expect(frame.targets[0]?.nodeId).toBe('root/approve')
    expect((frame as Record<string, unknown>).legacyTrace).toEqual(legacy.trace)
    expect(frame.id).toMatch(/^[0-9a-f]{64}$/)
  })

  it('down-converts for old clients (node actions with their contracts) and the result up-converts to the same meaning', () => {
    const frame = sealFrame(parts())
    const legacy = downConvert(frame, LEGACY_PROTOCOL_VERSION)
    expect(legacy.version).toBe(LEGACY_PROTOCOL_VERSION)
    expect('id' in legacy).toBe(false)
    expect(legacy.actions).toEqual([expect.objectContaining({ id: 'approve-payout', nodeId: 'root/approve', enabled: true, contract: expect.objectContaining({ futureField: { x: 1 } }) })])
    expect(readFrame(legacy).id).toBe(frame.id)
  })

  it('gives typed errors for unknown versions, non-objects and broken shapes', () => {
    expect(() => readFrame({ ...sealFrame(parts()), protocol: 'geometra.agent-native/9' })).toThrow(expect.objectContaining({ code: 'unsupported_version' }))
    expect(() => readFrame('frame')).toThrow(expect.objectContaining({ code: 'invalid_frame', message: expect.stringContaining('found string') }))
    const bad = { ...sealFrame(parts()), layout: { root: { x: Number.NaN, y: 0, width: 1, height: 1 } } }
    expect(() => readFrame(bad)).toThrow(expect.objectContaining({ code: 'invalid_frame', message: expect.stringContaining('layout.root.x') }))
  })
})

describe('chat-control objects', () => {
  it('an action_call intent takes defaults; a clarification carries a question and choices', () => {
    const call = Intent.parse({ type: 'action_call', requestId: 'r1', timestamp: '2026-11-22T10:00:00Z', surface: 'claims', actionId: 'approve-payout' })
    expect(call).toMatchObject({ inputs: {}, executionMode: 'execute' })
    const ask = Intent.parse({ type: 'clarification_request', requestId: 'r2', timestamp: '2026-11-22T10:00:00Z', question: 'Which claim?', choices: ['c-1', 'c-2'] })
    expect(ask.type).toBe('clarification_request')
    expect(Intent.safeParse({ type: 'clarification_request', requestId: 'r3', timestamp: 'yesterday', question: '' }).success).toBe(false)
  })

  it('an action request keeps unknown fields such as a self-declared confirmation', () => {
    const request = ActionRequest.parse({ surface: 'claims', action: 'approve-payout', confirmed: true })
    expect((request as Record<string, unknown>).confirmed).toBe(true)
  })
})
