import { type Layout, TesseraError } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'
import { collectAgentActions } from './collect-actions.js'
import { box, text } from './elements.js'
import { nodeAtPath } from '@tessera/protocol'
import { computeLayout } from './layout.js'
import { finalizeTree } from './node-ids.js'

const action = (id: string, title = `Do ${id}`) => agentAction({ id, kind: 'click', title, risk: 'write' })

function thrown(fn: () => unknown): TesseraError {
  try {
    fn()
  } catch (error) {
    if (error instanceof TesseraError) return error
    throw error
  }
  throw new Error('expected a TesseraError, nothing was thrown')
}

describe('collectAgentActions', () => {
  const tree = finalizeTree(
    box({ style: { padding: 10 } }, [
      text('Claim 17'),
      box({ style: { flexDirection: 'row', gap: 8 } }, [
        box({ semantic: { agentAction: action('approve', 'Approve payout') } }, [text('Approve')]),
        box({ role: 'link', name: 'Reject claim', semantic: { agentAction: action('reject') } }, [text('Reject')]),
      ]),
      box({ states: { disabled: true } }, [box({}, [box({ semantic: { agentAction: action('escalate') } }, [text('Escalate')])])]),
      box({ states: { hidden: true } }, [box({ semantic: { agentAction: action('secret-menu') } })]),
      box({ states: { disabled: true }, semantic: { agentAction: action('archive') } }),
    ]),
  )
  const layout = computeLayout(tree, { width: 400, height: 300 })
  const targets = collectAgentActions(tree, layout)

  it('finds every action in document order', () => {
    expect(targets.map((target) => target.id)).toEqual(['approve', 'reject', 'escalate', 'secret-menu', 'archive'])
  })

  it('describes the target: contract, node id, role, name and layout bounds', () => {
    const [approve, reject] = targets
    expect(approve).toMatchObject({
      id: 'approve',
      nodeId: 'root/box0/approve',
      path: [1, 0],
      role: 'button',
      name: 'Approve payout',
      enabled: true,
    })
    expect(approve?.contract.title).toBe('Approve payout')
    expect(approve?.bounds).toEqual(layout['root/box0/approve'])
    expect(reject).toMatchObject({ role: 'link', name: 'Reject claim' })
  })

  it('gives paths that lead back to the node', () => {
    for (const target of targets) expect(nodeAtPath(tree, target.path)?.id).toBe(target.nodeId)
  })

  it('disables actions that are disabled, under a disabled ancestor, or hidden', () => {
    expect(Object.fromEntries(targets.map((target) => [target.id, target.enabled]))).toEqual({
      approve: true,
      reject: true,
      escalate: false,
      'secret-menu': false,
      archive: false,
    })
  })

  it('refuses two actions with the same id in one frame', () => {
    const twice = finalizeTree(box({}, [box({ key: 'a', semantic: { agentAction: action('same') } }), box({ key: 'b', semantic: { agentAction: action('same') } })]))
    const error = thrown(() => collectAgentActions(twice, computeLayout(twice, { width: 100, height: 100 })))
    expect(error.code).toBe('invalid_frame')
    expect(error.message).toContain('"same"')
    expect(error.details).toMatchObject({ firstPath: [0], secondPath: [1] })
  })

  it('refuses an action without finite bounds', () => {
    const small = finalizeTree(box({}, [box({ semantic: { agentAction: action('go') } })]))
    const missing: Layout = { root: { x: 0, y: 0, width: 10, height: 10 } }
    expect(thrown(() => collectAgentActions(small, missing)).message).toContain('root/go')
    const broken: Layout = { ...missing, 'root/go': { x: Number.NaN, y: 0, width: 1, height: 1 } }
    expect(thrown(() => collectAgentActions(small, broken)).code).toBe('invalid_frame')
  })

  it('returns bounds the caller may change without moving the node in the layout', () => {
    const [first] = collectAgentActions(tree, layout)
    if (first === undefined) throw new Error('expected an action')
    first.bounds.x = -1
    expect(layout[first.nodeId]?.x).not.toBe(-1)
  })
})
