import { describe, expect, it } from 'vitest'
import type { UiNode } from '../schemas/node.js'
import { scopeFrame } from './scope-frame.js'
import { type FrameParts, sealFrame } from './seal-frame.js'
import { resolveTarget, targetDrift, targetLabel } from './targets.js'

const remove = { id: 'remove', kind: 'delete', title: 'Remove row', risk: 'write' as const }

function page(options: { clock?: string; rows?: string[]; removeLabel?: string; disabled?: string } = {}): FrameParts {
  const rows: UiNode[] = (options.rows ?? ['a', 'b']).map((row) => ({
    id: `row-${row}`,
    kind: 'box',
    role: 'row',
    name: `Row ${row}`,
    children: [{ id: `row-${row}/remove`, kind: 'box', role: 'button', name: options.removeLabel ?? 'Remove', ...(options.disabled === row ? { states: { disabled: true } } : {}) }],
  }))
  return {
    surface: 'page',
    route: '/list',
    tree: { id: 'root', kind: 'box', role: 'main', children: [{ id: 'clock', kind: 'text', role: 'timer', text: options.clock ?? '12:00:00' }, ...rows] },
    state: {},
    contracts: [remove, { id: 'refresh', kind: 'refresh', title: 'Refresh', risk: 'read' }],
    targets: (options.rows ?? ['a', 'b']).map((row) => ({ contract: 'remove', nodeId: `row-${row}/remove` })),
  }
}

describe('sealing a frame', () => {
  it('lists each contract once, one target per place it runs, surface-wide ones by contract id', () => {
    const frame = sealFrame(page())
    expect(frame.contracts.map((c) => c.id)).toEqual(['remove', 'refresh'])
    expect(frame.targets.map((t) => [t.contract, t.nodeId ?? null, t.enabled])).toEqual([
      ['remove', 'row-a/remove', true],
      ['remove', 'row-b/remove', true],
      ['refresh', null, true],
    ])
    expect(frame.targets[2]?.ref).toBe('refresh')
    expect(frame.layout).toEqual({})
  })

  it('takes node-carried contracts out of the tree, and refuses bad frames with what it found', () => {
    const frame = sealFrame({ surface: 's', route: '/', state: {}, tree: { id: 'r', kind: 'box', children: [{ id: 'b', kind: 'box', semantic: { agentAction: { ...remove, requiresConfirmation: false, preconditions: [], postconditions: [] }, description: 'kept' } }] } })
    expect(frame.tree.children?.[0]?.semantic).toEqual({ description: 'kept' })
    expect(frame.targets).toEqual([{ contract: 'remove', ref: expect.any(String), nodeId: 'b', enabled: true }])
    expect(() => sealFrame({ ...page(), tree: { id: 'x', kind: 'box', children: [{ id: 'x', kind: 'box' }] } })).toThrow(expect.objectContaining({ code: 'invalid_frame', details: { duplicates: ['x'] } }))
    expect(() => sealFrame({ ...page(), targets: [{ contract: 'remove', nodeId: 'ghost' }] })).toThrow(expect.objectContaining({ code: 'invalid_frame', message: expect.stringContaining('ghost') }))
    expect(() => sealFrame({ ...page(), targets: [{ contract: 'nothing' }] })).toThrow(expect.objectContaining({ code: 'invalid_frame' }))
    expect(() => sealFrame({ ...page(), contracts: [remove, { ...remove, risk: 'destructive' }] })).toThrow(expect.objectContaining({ message: expect.stringContaining('two different contracts') }))
  })

  it('a disabled node disables its targets; labels name a contract alone only when it has one target', () => {
    const frame = sealFrame(page({ disabled: 'b' }))
    expect(frame.targets.find((t) => t.nodeId === 'row-b/remove')?.enabled).toBe(false)
    expect(targetLabel(frame, frame.targets[0]!)).toBe(`remove@${frame.targets[0]!.ref}`)
    expect(targetLabel(frame, frame.targets[2]!)).toBe('refresh')
  })
})

describe('resolving a request to a target', () => {
  it('by ref (with or without @), or alone when the action has one target; otherwise a typed error listing the refs', () => {
    const frame = sealFrame(page())
    const b = frame.targets[1]!
    expect(resolveTarget(frame, 'remove', `@${b.ref}`).target.nodeId).toBe('row-b/remove')
    expect(resolveTarget(frame, 'refresh').target.ref).toBe('refresh')
    expect(() => resolveTarget(frame, 'remove')).toThrow(expect.objectContaining({ code: 'not_found', details: { expected: [frame.targets[0]!.ref, b.ref], found: null } }))
    expect(() => resolveTarget(frame, 'nope')).toThrow(expect.objectContaining({ code: 'not_found', message: 'the frame has no action "nope"' }))
  })

  it('without a ref, means the surface-wide target where an action has one besides its elements (a file chooser the page opened)', () => {
    const parts = page()
    const frame = sealFrame({ ...parts, targets: [...(parts.targets ?? []), { contract: 'remove' }] })
    expect(resolveTarget(frame, 'remove').target.nodeId).toBeUndefined()
    expect(resolveTarget(frame, 'remove', `@${frame.targets[0]!.ref}`).target.nodeId).toBe('row-a/remove')
  })

  it('says whether a ref that names no target of the action is another element\'s, or on the frame no more', () => {
    const frame = sealFrame(page())
    const b = frame.targets[1]!
    expect(() => resolveTarget(frame, 'refresh', `@${b.ref}`)).toThrow(expect.objectContaining({ code: 'not_found', message: `@${b.ref} (button) takes "remove", not "refresh"` }))
    expect(() => resolveTarget(frame, 'remove', '@row-b')).toThrow(expect.objectContaining({ message: '@row-b (row) takes no action, "remove" neither' }))
    expect(() => resolveTarget(frame, 'remove', '@e99999')).toThrow(expect.objectContaining({ message: 'no element @e99999 is on the frame now; take a new snapshot' }))
    // Before what the frame offers: an action it has none of, on a ref that went, says the ref went.
    expect(() => resolveTarget(frame, 'select', '@e99999')).toThrow(expect.objectContaining({ message: 'no element @e99999 is on the frame now; take a new snapshot' }))
    // An action no element of the frame offers says the same of the ref.
    expect(() => resolveTarget(frame, 'select', `@${b.ref}`)).toThrow(expect.objectContaining({ message: `the frame has no action "select"; @${b.ref} (button) takes "remove"` }))
    // Under a modal dialog: not a new snapshot, closing the dialog brings it back.
    const parts = page()
    const underModal = sealFrame({ ...parts, tree: { ...parts.tree, children: [...(parts.tree.children ?? []), { id: 'confirm', kind: 'box', role: 'dialog', name: 'Discard changes?', states: { modal: true } }] } })
    // Its name is the page's words: in the details, which an answer fences, not in the hub's message.
    expect(() => resolveTarget(underModal, 'remove', '@e99999')).toThrow(expect.objectContaining({ message: 'no element @e99999 is on the frame now; a modal dialog is open, and what is under it is out of reach until it closes', details: expect.objectContaining({ pageWords: ['Discard changes?'] }) }))
  })

  it('staleness is per target: a ticking clock changes the id but not the target; a relabel or removal does', () => {
    const before = sealFrame(page())
    const ticked = sealFrame(page({ clock: '12:00:01' }))
    expect(ticked.id).not.toBe(before.id)
    const ref = before.targets[0]!.ref
    expect(targetDrift(resolveTarget(before, 'remove', ref), resolveTarget(ticked, 'remove', ref))).toBeNull()
    const relabelled = sealFrame(page({ removeLabel: 'Delete forever' }))
    expect(targetDrift(resolveTarget(before, 'remove', ref), resolveTarget(relabelled, 'remove', ref))).toMatch(/now button "Delete forever"/)
    const disabled = sealFrame(page({ disabled: 'a' }))
    expect(targetDrift(resolveTarget(before, 'remove', ref), resolveTarget(disabled, 'remove', ref))).toMatch(/became disabled/)
    expect(() => resolveTarget(sealFrame(page({ rows: ['b'] })), 'remove', ref)).toThrow(expect.objectContaining({ code: 'not_found' }))
  })
})

describe('part of a frame', () => {
  it('scopes to a subtree and cuts at maxNodes breadth first, keeping surface-wide actions and saying what it left out', () => {
    const frame = sealFrame(page({ rows: ['a', 'b', 'c'] }))
    const scoped = scopeFrame(frame, { scope: 'row-b' })
    expect(scoped.tree.id).toBe('row-b')
    expect(scoped.targets.map((t) => t.nodeId ?? t.contract)).toEqual(['row-b/remove', 'refresh'])
    expect(scoped.partial).toEqual({ scope: 'row-b', omitted: 0, of: frame.id })
    const cut = scopeFrame(frame, { maxNodes: 3 })
    expect(cut.partial).toEqual({ omitted: 5, of: frame.id })
    expect(cut.targets.map((t) => t.contract)).toEqual(['refresh'])
    expect(cut.id).not.toBe(frame.id)
    expect(() => scopeFrame(frame, { scope: 'ghost' })).toThrow(expect.objectContaining({ code: 'not_found' }))
  })
})
