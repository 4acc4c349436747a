import { describe, expect, it } from 'vitest'
import { downConvert, readFrame } from './conversion.js'
import { sealFrame } from './frame-id.js'
import { ActionRequest } from './schemas/action-request.js'
import type { FrameBody } from './schemas/frame.js'
import { Intent } from './schemas/intent.js'
import { LEGACY_PROTOCOL_VERSION, PROTOCOL_VERSION } from './version.js'

const contract = { id: 'approve-payout', kind: 'approve', title: 'Approve payout', risk: 'write' as const, requiresConfirmation: true, preconditions: [], postconditions: [], futureField: { x: 1 } }

function body(): FrameBody {
  return {
    version: PROTOCOL_VERSION,
    surface: 'claims',
    route: '/claims/c-1',
    tree: { id: 'root', kind: 'box', children: [{ id: 'root/approve', kind: 'box', role: 'button', name: 'Approve', semantic: { agentAction: contract } }] },
    layout: { root: { x: 0, y: 0, width: 100, height: 50 }, 'root/approve': { x: 10, y: 10, width: 80, height: 30 } },
    actions: [{ id: 'approve-payout', contract, path: [0], nodeId: 'root/approve', role: 'button', name: 'Approve', bounds: { x: 10, y: 10, width: 80, height: 30 }, enabled: true }],
    state: { claim: { status: 'ready' } },
    capabilities: { tools: [], confirmationModes: ['console'], exportModes: ['jsonl'], replay: true, capture: false },
  }
}

describe('frames across versions', () => {
  it('reads a current frame and keeps unknown fields, at every level, untouched', () => {
    const frame = sealFrame({ ...body(), hint: 'from the future' } as FrameBody)
    const read = readFrame(JSON.parse(JSON.stringify(frame)))
    expect(read).toEqual(frame)
    expect((read as Record<string, unknown>).hint).toBe('from the future')
    expect((read.actions[0]?.contract as Record<string, unknown>).futureField).toEqual({ x: 1 })
  })

  it('the id is a content hash: same content, same id, whatever the key order; any change, new id', () => {
    const a = sealFrame(body())
    const reordered = JSON.parse(JSON.stringify({ ...body(), state: { claim: { status: 'ready' } } })) as FrameBody
    expect(sealFrame(reordered).id).toBe(a.id)
    expect(sealFrame({ ...body(), route: '/claims/c-2' }).id).not.toBe(a.id)
  })

  it('refuses a frame altered after sealing, saying which id it expected', () => {
    const frame = sealFrame(body())
    const altered = { ...frame, state: { claim: { status: 'approved' } } }
    expect(() => readFrame(altered)).toThrow(expect.objectContaining({ code: 'invalid_frame', details: expect.objectContaining({ found: frame.id }) }))
  })

  it('up-converts a geometra.agent-native/0 frame with a nested layout tree and an inline trace', () => {
    const { version: _v, surface: _s, state: _st, layout: _l, ...rest } = body()
    const legacy = {
      ...rest,
      version: LEGACY_PROTOCOL_VERSION,
      layout: { x: 0, y: 0, width: 100, height: 50, children: [{ x: 10, y: 10, width: 80, height: 30, children: [] }] },
      actions: [{ ...body().actions[0], nodeId: undefined }],
      trace: [{ type: 'requested', action: 'approve-payout' }],
    }
    const frame = readFrame(JSON.parse(JSON.stringify(legacy)), { surface: 'claims' })
    expect(frame.version).toBe(PROTOCOL_VERSION)
    expect(frame.surface).toBe('claims')
    expect(frame.layout['root/approve']).toEqual({ x: 10, y: 10, width: 80, height: 30 })
    expect(frame.actions[0]?.nodeId).toBe('root/approve')
    expect((frame as Record<string, unknown>).legacyTrace).toEqual(legacy.trace)
    expect(frame.id).toMatch(/^[0-9a-f]{64}$/)
  })

  it('down-converts for old clients and the result up-converts back to the same content', () => {
    const frame = sealFrame(body())
    const legacy = downConvert(frame, LEGACY_PROTOCOL_VERSION)
    expect(legacy.version).toBe(LEGACY_PROTOCOL_VERSION)
    expect('id' in legacy).toBe(false)
    expect(readFrame(legacy).id).toBe(frame.id)
  })

  it('gives typed errors for unknown versions, non-objects and broken shapes', () => {
    expect(() => readFrame({ ...body(), version: 'geometra.agent-native/9' })).toThrow(expect.objectContaining({ code: 'unsupported_version' }))
    expect(() => readFrame('frame')).toThrow(expect.objectContaining({ code: 'invalid_frame', message: expect.stringContaining('found string') }))
    const bad = { ...sealFrame(body()), layout: { root: { x: Number.NaN, y: 0, width: 1, height: 1 } } }
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
