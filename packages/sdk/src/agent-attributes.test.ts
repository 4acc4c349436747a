import { describe, expect, it } from 'vitest'
import { agentAttributeString, agentAttributes, useAgentAction } from './agent-attributes.js'

describe('agent annotations', () => {
  it('become data-agent-* attributes, for props and for HTML', () => {
    expect(useAgentAction({ action: 'approve-payout', title: 'Approve the payout', risk: 'destructive' })).toEqual({ 'data-agent-action': 'approve-payout', 'data-agent-title': 'Approve the payout', 'data-agent-risk': 'destructive' })
    expect(agentAttributeString({ title: 'Say "hi" <now>', sensitive: true })).toBe('data-agent-title="Say &quot;hi&quot; &lt;now>" data-agent-sensitive')
  })

  it('refuse what a browser tile would not understand', () => {
    expect(() => agentAttributes({ action: 'Approve Payout' })).toThrow(/expected an action id/)
    expect(() => agentAttributes({ risk: 'harmless' as 'read' })).toThrow(/expected a risk of read, write, external, destructive/)
  })
})
