import { TesseraError } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'

function thrown(fn: () => unknown): TesseraError {
  try {
    fn()
  } catch (error) {
    if (error instanceof TesseraError) return error
    throw error
  }
  throw new Error('expected a TesseraError, nothing was thrown')
}

describe('agentAction', () => {
  it('accepts the documented example (docs/protocol.md) as written', () => {
    const contract = agentAction({
      id: 'approve-payout',
      kind: 'approve',
      title: 'Approve payout',
      risk: 'write',
      requiresConfirmation: true,
      preconditions: ['claim.status === "ready"', 'claim.fraudScore < 0.75'],
      postconditions: ['claim.status === "approved"'],
      audit: { workflow: 'claims-review' },
    })
    expect(contract).toEqual({
      id: 'approve-payout',
      kind: 'approve',
      title: 'Approve payout',
      risk: 'write',
      requiresConfirmation: true,
      preconditions: ['claim.status === "ready"', 'claim.fraudScore < 0.75'],
      postconditions: ['claim.status === "approved"'],
      audit: { workflow: 'claims-review' },
    })
  })

  it('requires confirmation by default for destructive and external risks only', () => {
    const base = { kind: 'k', title: 'T' }
    expect(agentAction({ ...base, id: 'a', risk: 'destructive' }).requiresConfirmation).toBe(true)
    expect(agentAction({ ...base, id: 'b', risk: 'external' }).requiresConfirmation).toBe(true)
    expect(agentAction({ ...base, id: 'c', risk: 'write' }).requiresConfirmation).toBe(false)
    expect(agentAction({ ...base, id: 'd', risk: 'read' }).requiresConfirmation).toBe(false)
    expect(agentAction({ ...base, id: 'e', risk: 'destructive', requiresConfirmation: false }).requiresConfirmation).toBe(false)
  })

  it('fills empty condition lists', () => {
    const contract = agentAction({ id: 'x', kind: 'k', title: 'T', risk: 'read' })
    expect(contract.preconditions).toEqual([])
    expect(contract.postconditions).toEqual([])
  })

  it('keeps unknown fields for newer clients', () => {
    expect(agentAction({ id: 'x', kind: 'k', title: 'T', risk: 'read', shortcut: 'Ctrl+S' }).shortcut).toBe('Ctrl+S')
  })

  it('rejects an invalid contract at registration with invalid_contract', () => {
    const error = thrown(() => agentAction({ id: 'Bad Id!', kind: 'k', title: 'T', risk: 'write' }))
    expect(error.code).toBe('invalid_contract')
    expect(error.message).toMatch(/id/)
    const risk = thrown(() => agentAction({ id: 'ok', kind: 'k', title: 'T', risk: 'maybe' as never }))
    expect(risk.code).toBe('invalid_contract')
    expect(risk.message).toMatch(/risk/)
  })

  it('rejects an unparseable condition at registration, naming the action and the entry', () => {
    const error = thrown(() =>
      agentAction({ id: 'approve', kind: 'k', title: 'T', risk: 'write', preconditions: ['claim.status ==='] }),
    )
    expect(error.code).toBe('invalid_condition')
    expect(error.message).toContain('approve')
    expect(error.details).toMatchObject({ action: 'approve', list: 'preconditions', index: 0 })
  })

  it('rejects conditions that reach for the prototype chain', () => {
    const error = thrown(() =>
      agentAction({ id: 'p', kind: 'k', title: 'T', risk: 'write', postconditions: ['ok', 'claim.__proto__.x'] }),
    )
    expect(error.code).toBe('invalid_condition')
    expect(error.details).toMatchObject({ list: 'postconditions', index: 1 })
  })
})
